"""What views keep: the players' part and the decision shown per viewer (with the state), each
player's side per viewer (on the player), each card's renderings (on the card), the shown
ATK/DEF per card (with the state). ``engine.view`` renders; this module decides what of an
earlier rendering still holds and keeps the new ones.

A kept value is used only under the alias book it was made with (its ``token``) while the
book's counts it depends on are the same: the places of the cards on that side
(``AliasBook.sides``; all places, ``version``, if a card in it names what it equips), the log
entry for the decision shown (an ephemeral alias changes with every entry). A side is kept on
its player until the player is written (``cow.write_player``) and holds while each of its cards
is the same unwritten object (its renderings dict is the one recorded) and shows the same stats.
docs/performance.md, "Cache invariants".
"""

from __future__ import annotations

from typing import Any

from ..aliases import AliasBook, BookToken
from ..state import Card, Player, State
from ..types import Zone
from .caches import viewer_slot
from .interning import shared_int
from .memo import renderings, stats_table, viewers_shown, viewers_zones

Stats = tuple[int, int, int | None]
"""A face-up monster's ATK, DEF and attacks left (None outside the Battle Phase)."""
Players = list[dict[str, Any]]


class CardSource:
    """Renders the cards of one state for one viewer, card by card (``Renderer.side`` asks it)."""

    def card(self, cid: Any) -> dict[str, Any]:
        """Card ``cid`` as the viewer sees it (``cid``: the id object the zone list holds)."""
        raise NotImplementedError


class Renderer:
    """What this module asks of the views' renderer (``engine.view`` subclasses it): how a card,
    a side and a decision look, each worked out anew. A class with methods rather than functions
    passed in, so that the calls stay direct."""

    def stats(self, s: State, c: Card) -> Stats:
        """The stats ``s`` shows of face-up monster ``c``."""
        raise NotImplementedError

    def card(
        self, c: Card, ref: int | None, visible: bool, stats: Stats | None, equipped: int | None
    ) -> dict[str, Any]:
        """Card ``c`` as a viewer sees it: a function of the card and of the arguments alone."""
        raise NotImplementedError

    def side(self, p: Player, cards: CardSource) -> dict[str, Any]:
        """Player ``p``'s part of a view, its cards rendered by ``cards``."""
        raise NotImplementedError

    def pending(self, s: State, seat: int | None, book: AliasBook) -> dict[str, Any] | None:
        """The decision owed as ``seat`` is shown it."""
        raise NotImplementedError


def shown_stats(s: State, c: Card, cid: Any, work_out: Renderer) -> Stats:
    """The stats ``s`` shows of face-up monster ``c`` (``cid``: its id as the zone list holds
    it): the same for every viewer, so worked out once per state (and carried over a pass)."""
    table: dict[Any, Stats] = stats_table(s)
    got = table.get(cid)
    if got is None:
        got = table[cid] = work_out.stats(s, c)
    return got


class _Zones:
    """The players' part of one viewer's view, and the book's place count it was rendered under."""

    __slots__ = ("players", "token", "version")

    def __init__(self, token: BookToken, version: int, players: Players) -> None:
        self.token = token
        self.version = version
        self.players = players

    def __deepcopy__(self, memo: dict[int, Any]) -> _Zones:
        return self  # never written once made (a deep copy of a state shares it, as it shares a str)


def players_part(s: State, seat: int | None, book: AliasBook, render: Renderer) -> Players:
    """The players' part of ``seat``'s view under ``book``: kept with the state while the book's
    places are the same; else ``render`` (which says whether it lasts) and kept if it lasts."""
    zones = viewers_zones(s)
    i = viewer_slot(seat)
    got: _Zones | None = zones[i]
    if got is not None and got.token is book.token and got.version == book.version:
        return got.players
    players, lasting = _players(s, seat, book, render)
    if lasting:
        zones[i] = _Zones(book.token, book.version, players)
    return players


def _players(s: State, seat: int | None, book: AliasBook, render: Renderer) -> tuple[Players, bool]:
    """The players' part of ``seat``'s view, and whether it lasts while the book's places do
    (not if it names a card by an ephemeral alias, which changes with every log entry)."""
    r: _BookCards | None = None  # made when a side is rendered
    lasting = True
    out = []
    for sd in (0, 1):
        # a side as this viewer saw it before, while it holds (a card moving on the other side
        # leaves it be)
        part = _side(s, sd, seat, book, render)
        if part is None:
            if r is None:
                r = _BookCards(s, seat, book, render)
            r.rec.start_side()
            part = render.side(s.players[sd], r)
            _keep_side(s, sd, seat, book, r.rec, part)
            lasting = lasting and r.rec.lasting
        out.append(part)
    return out, lasting


class _BookCards(CardSource):
    """A viewer's rendering with an alias book, noting what each side's rendering depends on
    (``rec``: its cards, the stats shown, whether it names a card by an ephemeral alias, then it
    does not last, or names what a card equips)."""

    def __init__(self, s: State, seat: int | None, book: AliasBook, render: Renderer) -> None:
        self.s = s
        self.cards = s.cards
        self.seat = seat
        self.book = book
        self.places = book.places
        self.aliases = book.aliases_of(seat)
        self.render = render
        self.rec = Recorder()

    def card(self, cid: Any) -> dict[str, Any]:
        c = self.cards[cid]
        place = self.places.get(cid)
        if place is None:
            ref, visible = None, False
        else:
            ref, visible = self.aliases.get(cid), place.known(self.seat)
        shown = None
        if visible and c.face_up and c.zone == Zone.MONSTERS and c.data.is_monster:
            shown = shown_stats(self.s, c, cid, self.render)
            self.rec.shown.append((shared_int(cid), shown))
        equipped = c.equipped_to
        if equipped is not None:
            self.rec.equips = True
            named = self.aliases.get(equipped)
            if named is None:
                named = self.book.ref_any(self.seat, equipped)
                self.rec.lasting = False
            equipped = named
        # the alias alone for the most common case (a known card, no stats, equips nothing)
        key = ref if visible and shown is None and equipped is None else (ref, visible, shown, equipped)
        seen = _rendering(self.rec, c, cid, key)
        if seen is None:
            seen = _keep_rendering(self.rec, key, self.render.card(c, ref, visible, shown, equipped))
        return seen


class Recorder:
    """What the rendering of one side depends on, noted card by card (``_rendering``): each card's
    id object and renderings dict, the stats shown, whether a card named what it equips, and
    whether the side lasts (not if it names a card by an ephemeral alias)."""

    __slots__ = ("cids", "equips", "lasting", "renderings", "shown")

    def __init__(self) -> None:
        self.cids: list[Any] = []
        self.renderings: list[dict[Any, Any]] = []
        self.shown: list[tuple[Any, Stats]] = []
        self.lasting = True
        self.equips = False

    def start_side(self) -> None:
        self.cids.clear()
        self.renderings.clear()
        self.shown.clear()
        self.lasting = True
        self.equips = False


class _Side:
    """One player's part of a view as one viewer saw it, and what it was rendered from."""

    __slots__ = ("cids", "equips", "renderings", "shown", "side", "token", "version")

    def __init__(self, token: BookToken, version: int, equips: int | None, r: Recorder, side: dict[str, Any]) -> None:
        self.token = token  # the alias book's
        self.version = version  # its count of place changes on this side (``AliasBook.sides``) when rendered
        self.equips = equips  # if a card in it equips another card: the book's count of all place changes
        self.cids = tuple(r.cids)  # each card in it
        self.renderings = tuple(r.renderings)  # and its renderings dict when rendered
        self.shown = tuple(r.shown)  # (card, its stats) for each face-up monster in it
        self.side = side

    def __deepcopy__(self, memo: dict[int, Any]) -> _Side:
        return self  # never written once made (a deep copy of a state shares it, as it shares a str)

    def holds(self, s: State, stats_of: Renderer) -> bool:
        """Is the part still what ``s`` shows (same card objects, unwritten, same stats)?"""
        cards = s.cards
        cids, seen = self.cids, self.renderings
        for i in range(len(cids)):  # not zip(..., strict=True): a generic call, compiled
            if cards[cids[i]]._memo is not seen[i]:
                return False
        for cid, shown in self.shown:  # noqa: SIM110 (a loop: cheaper than all() over a generator, compiled)
            if shown_stats(s, cards[cid], cid, stats_of) != shown:
                return False
        return True


def _side(s: State, sd: int, seat: int | None, book: AliasBook, stats_of: Renderer) -> dict[str, Any] | None:
    """Player ``sd``'s part of ``seat``'s view as kept on the player, if it still holds."""
    got: _Side | None = renderings(s.players[sd]).get(seat)
    if (
        got is not None
        and got.token is book.token
        and got.version == book.sides[sd]
        and (got.equips is None or got.equips == book.version)
        and got.holds(s, stats_of)
    ):
        return got.side
    return None


def _keep_side(s: State, sd: int, seat: int | None, book: AliasBook, r: Recorder, part: dict[str, Any]) -> None:
    """Keep player ``sd``'s part of ``seat``'s view, rendered as ``r`` noted, if it lasts."""
    if r.lasting:
        equips = book.version if r.equips else None
        renderings(s.players[sd])[seat] = _Side(book.token, book.sides[sd], equips, r, part)


def _rendering(r: Recorder, c: Card, cid: Any, key: Any) -> dict[str, Any] | None:
    """Card ``c``'s rendering under ``key`` as kept on the card (a function of the card object
    and the key alone, shared by every state holding it), noting the card in ``r``."""
    kept = renderings(c)
    r.cids.append(shared_int(cid))  # one shared object, not a new box
    r.renderings.append(kept)
    got: dict[str, Any] | None = kept.get(key)
    return got


def _keep_rendering(r: Recorder, key: Any, rendered: dict[str, Any]) -> dict[str, Any]:
    """Keep ``rendered`` as the last card noted in ``r``'s rendering under ``key``."""
    r.renderings[-1][key] = rendered
    return rendered


class _Shown:
    """A decision as one viewer was shown it, and the book's counts it was presented under."""

    __slots__ = ("entries", "shown", "token", "version")

    def __init__(self, token: BookToken, version: int, entries: int, shown: dict[str, Any] | None) -> None:
        self.token = token
        self.version = version
        self.entries = entries
        self.shown = shown

    def __deepcopy__(self, memo: dict[int, Any]) -> _Shown:
        return self  # never written once made (a deep copy of a state shares it, as it shares a str)


def shown_pending(s: State, seat: int | None, book: AliasBook, present: Renderer) -> dict[str, Any] | None:
    """The decision owed as ``seat`` is shown it: kept with the state while the book's places
    and entry are the same, else ``present``. Read only."""
    shown = viewers_shown(s)
    i = viewer_slot(seat)
    got: _Shown | None = shown[i]
    if got is None or got.token is not book.token or got.version != book.version or got.entries != book.entries:
        got = shown[i] = _Shown(book.token, book.version, book.entries, present.pending(s, seat, book))
    return got.shown
