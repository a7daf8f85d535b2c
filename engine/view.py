"""What each seat (and a spectator) may see of the state: ``view``.

Hidden from a seat: the opponent's hand, every deck's order, the identity of
face-down cards it does not own, and the PRNG state (DESIGN invariant 5). A
spectator (seat ``None``) sees public information only. ``omniscient`` is for
finished matches and the operator's replays.
"""

from __future__ import annotations

from typing import Any, Final, cast

from .aliases import AliasBook, BookToken
from .battle.battle_step import attacks_remaining
from .kernel import memo
from .kernel.caches import held_ids
from .kernel.interning import shared_code, shared_int
from .owed import pending
from .plain import plain_value
from .state import Card, Player, State
from .stats import atk_def

Stats = tuple[int, int, int | None]
"""A face-up monster's ATK, DEF and attacks left (None outside the Battle Phase)."""


def _stats(s: State, c: Card, cid: Any) -> Stats:
    """A face-up monster's ATK, DEF and attacks left: the same for every viewer, so computed
    once per state (``engine.decide`` carries them over a pass). ``cid``: its id as the zone
    list holds it."""
    table: dict[Any, Stats] = memo.stats_table(s)
    got = table.get(cid)
    if got is None:
        got = table[cid] = (*atk_def(s, c), attacks_remaining(s, c) if s.phase == "battle" else None)
    return got


# ``Memo.stats``: ``engine.decide`` carries the table over a pass (the same board, the same
# stats), so two states may share one table.


def _render(c: Card, ref: int | None, visible: bool, stats: Stats | None, equipped_to: int | None) -> dict[str, Any]:
    """What a viewer sees of card ``c``: a function of the card and of the arguments alone
    (``ref``: how the viewer names it; ``visible``: whether it knows the card; ``stats``: its
    ATK/DEF when shown computed; ``equipped_to``: how the viewer names what it equips)."""
    out: dict[str, Any] = {} if ref is None else {"id": ref}
    zone = out["zone"] = plain_value(c.zone)
    out["controller"] = c.controller
    if zone == "monsters":
        out["position"] = plain_value(c.position) if c.face_up else "set"
    if zone in FIELD_ZONES:
        out["slot"] = c.slot
        out["face_up"] = c.face_up
    if not visible:
        out["hidden"] = True
        return out
    d = c.data
    # kept on the card for its life: one int object per passcode and printed stat (``kernel.interning``)
    out["code"] = shared_code(c.code)
    out["name"] = d.name
    if d.is_monster:
        if stats is not None:
            out["atk"], out["def"], out["attacks_remaining"] = stats
        else:
            out["atk"] = shared_int(d.atk)
            out["def"] = shared_int(d.def_)
    if c.counters:
        out["counters"] = dict(c.counters)
    if c.equipped_to is not None:
        out["equipped_to"] = equipped_to
    return out


def view(s: State, seat: int | None, omniscient: bool = False, book: AliasBook | None = None) -> dict[str, Any]:
    """The duel as ``seat`` sees it (``None``: a spectator). With an alias ``book`` card ids
    are the viewer's aliases and cards in places it cannot track have no id (engine.aliases).

    Read only below the top level: the players' part (its list, its dicts, their zone lists
    and card dicts) may be shared with other views, of this state or of others."""
    if book is None or omniscient:
        return _frame(s, seat, None, _players_plain(s, seat, omniscient))
    # the players' part depends on the cards (and their stats) and how the viewer names them:
    # kept with the state for this book while no fact moved a card in it (engine.decide
    # carries it to the next state over facts that change neither: ``Memo.carried``), the
    # book checked on the kept value
    zones = memo.viewers_zones(s)
    i = memo.viewer(seat)
    kept: _Zones | None = zones[i]
    if kept is not None and kept.token is book.token and kept.version == book.version:
        players = kept.players
    else:
        players, lasting = _players(s, seat, book)
        if lasting:
            zones[i] = _Zones(book.token, book.version, players)
    return _frame(s, seat, book, players)


class _Zones:
    """The players' part of one viewer's view, and the book's place count it was rendered
    under."""

    __slots__ = ("players", "token", "version")

    def __init__(self, token: BookToken, version: int, players: list[dict[str, Any]]) -> None:
        self.token = token
        self.version = version
        self.players = players

    def __deepcopy__(self, memo: dict[int, Any]) -> _Zones:
        return self  # never written once made (a deep copy of a state shares it, as it shares a str)


FIELD_ZONES: Final = frozenset({"monsters", "spells_traps", "field"})


def _players(s: State, seat: int | None, book: AliasBook) -> tuple[list[dict[str, Any]], bool]:
    """The players' part of ``seat``'s view, and whether it lasts while the book's places do
    (not if it names a card by an ephemeral alias, which changes with every log entry)."""
    r: _BookCards | None = None  # made when a side is rendered (not when both are kept)
    lasting = True
    out = []
    for sd in (0, 1):
        p = s.players[sd]
        # a player's part as this viewer saw it, kept on the player until it is next written
        # (engine.state.write_player): still right while the places of the cards on this side
        # (the book's count for the side; all places if a card in it names what it equips),
        # each of its cards (an unchanged card keeps its memo: a written one has another or
        # none) and the stats shown are the same. A card moving on the other side leaves it be
        pm = memo.renderings(p)
        kept: _Side | None = pm.get(seat)
        if (
            kept is not None
            and kept.token is book.token
            and kept.version == book.sides[sd]
            and (kept.equips is None or kept.equips == book.version)
            and kept.holds(s)
        ):
            out.append(kept.side)
            continue
        if r is None:
            r = _BookCards(s, seat, book)
        r.start_side()
        side = _side(p, r)
        if r.lasting:
            pm[seat] = _Side(
                book.token,
                book.sides[sd],
                book.version if r.equips else None,
                tuple(r.cids),
                tuple(r.memos),
                tuple(r.shown),
                side,
            )
        lasting = lasting and r.lasting
        out.append(side)
    return out, lasting


class _Cards:
    """Renders the cards of one state for one viewer (``_side`` asks it card by card)."""

    def card(self, cid: Any) -> dict[str, Any]:
        """Card ``cid`` as the viewer sees it (``cid``: the id object the zone list holds)."""
        raise NotImplementedError


class _BookCards(_Cards):
    """A viewer's rendering with an alias book, noting what each side's rendering depends on:
    its cards and their memos, the stats shown, whether it names a card by an ephemeral alias
    (then it does not last) or names what a card equips."""

    def __init__(self, s: State, seat: int | None, book: AliasBook) -> None:
        self.s = s
        self.cards = s.cards
        self.seat = seat
        self.book = book
        self.places = book.places
        self.aliases = book.aliases_of(seat)
        self.lasting = True
        self.equips = False  # a card rendered equips another (named by that card's alias)
        self.cids: list[Any] = []  # each card rendered (its id object: ``holds`` looks them up)
        self.memos: list[dict[Any, Any]] = []  # and its memo (same order)
        self.shown: list[tuple[Any, Stats]] = []  # (card id object, its stats) for each face-up monster shown

    def start_side(self) -> None:
        self.cids.clear()
        self.memos.clear()
        self.shown.clear()
        self.lasting = True
        self.equips = False

    def card(self, cid: Any) -> dict[str, Any]:
        c = self.cards[cid]
        place = self.places.get(cid)
        if place is None:
            ref, visible = None, False
        else:
            ref, visible = self.aliases.get(cid), place.known(self.seat)
        stats = None
        if visible and c.face_up and c.zone == "monsters" and c.data.is_monster:
            stats = _stats(self.s, c, cid)
            self.shown.append((shared_int(cid), stats))
        equipped = c.equipped_to
        if equipped is not None:
            self.equips = True
            named = self.aliases.get(equipped)
            if named is None:
                named = self.book.ref_any(self.seat, equipped)
                self.lasting = False
            equipped = named
        # the rendering is a function of the card object and the key alone: kept on the card
        # until it is next written (engine.kernel.cow.write_card), shared by every state holding it
        rendered = memo.renderings(c)
        self.cids.append(shared_int(cid))
        self.memos.append(rendered)
        # the alias alone for the most common case (a known card, no stats, equips nothing):
        # no key tuple kept per card and viewer
        key = ref if visible and stats is None and equipped is None else (ref, visible, stats, equipped)
        seen: dict[str, Any] | None = rendered.get(key)
        if seen is None:
            seen = rendered[key] = _render(c, ref, visible, stats, equipped)
        return seen


class _PlainCards(_Cards):
    """The rendering with engine ids (no alias book), nothing kept."""

    def __init__(self, s: State, seat: int | None, omniscient: bool) -> None:
        self.s = s
        self.seat = seat
        self.omniscient = omniscient

    def card(self, cid: Any) -> dict[str, Any]:
        s, seat, omniscient = self.s, self.seat, self.omniscient
        c = s.cards[cid]
        visible = omniscient or c.face_up or (seat is not None and c.owner == seat and c.zone != "deck")
        shown = visible and c.zone == "monsters" and (c.face_up or omniscient) and c.data.is_monster
        return _render(c, cid, visible, _stats(s, c, cid) if shown else None, c.equipped_to)


class _Side:
    """One player's part of a view as one viewer saw it, and what it was rendered from."""

    __slots__ = ("cids", "equips", "memos", "shown", "side", "token", "version")

    def __init__(
        self,
        token: BookToken,
        version: int,
        equips: int | None,
        cids: tuple[Any, ...],
        memos: tuple[dict[Any, Any], ...],
        shown: tuple[tuple[Any, Stats], ...],
        side: dict[str, Any],
    ) -> None:
        self.token = token  # the alias book's
        self.version = version  # its count of place changes on this side (``AliasBook.sides``) when rendered
        self.equips = equips  # if a card in it equips another card: the book's count of all place changes
        self.cids = cids  # each card in it
        self.memos = memos  # and its memo when rendered
        self.shown = shown  # (card, its stats) for each face-up monster in it
        self.side = side

    def __deepcopy__(self, memo: dict[int, Any]) -> _Side:
        return self  # never written once made (a deep copy of a state shares it, as it shares a str)

    def holds(self, s: State) -> bool:
        """Is the part still what ``s`` shows (same card objects, unwritten, same stats)?"""
        cards = s.cards
        cids, memos = self.cids, self.memos
        for i in range(len(cids)):
            if memo.rendered_from(cards[cids[i]]) is not memos[i]:
                return False
        return all(_stats(s, cards[cid], cid) == stats for cid, stats in self.shown)


def _players_plain(s: State, seat: int | None, omniscient: bool) -> list[dict[str, Any]]:
    """The players' part with engine ids (no alias book), nothing kept."""
    r = _PlainCards(s, seat, omniscient)
    return [_side(s.players[sd], r) for sd in (0, 1)]


def _side(p: Player, r: _Cards) -> dict[str, Any]:
    hand = held_ids(p.hand)
    graveyard = held_ids(p.graveyard)
    banished = held_ids(p.banished)
    return {
        "lp": p.lp,
        "hand": [r.card(c) for c in hand],
        "hand_count": len(hand),
        "deck_count": len(p.deck),
        "extra_count": len(p.extra),
        "monsters": [None if c is None else r.card(c) for c in p.monsters],
        "spells_traps": [None if c is None else r.card(c) for c in p.spells_traps],
        "field": None if p.field_zone is None else r.card(p.field_zone),
        "graveyard": [r.card(c) for c in graveyard],
        "banished": [r.card(c) for c in banished],
        "normal_summoned": p.normal_summoned,
    }


def _frame(s: State, seat: int | None, book: AliasBook | None, players: list[dict[str, Any]]) -> dict[str, Any]:
    """The view around the players' part: the turn, the decision owed, chain and attack.
    ``book``: how the viewer names cards (None: by their engine ids, as the omniscient do)."""
    if book is None:
        owed = pending(s)
        shown = None if owed is None else dict(owed)
    else:
        shown = presented_pending(s, seat, book)
    attack = None
    if s.attack is not None:
        a = s.attack
        attack = {
            "attacker": _ref(book, seat, a.attacker),
            "target": _ref(book, seat, a.target),
            "replay": a.replay,
            "calculated": a.calculated,
        }
    return {
        "you": seat,
        "turn": s.turn,
        "turn_player": s.turn_player,
        # plain strs, as the facts on the wire hold them (engine.plain.plain_value)
        "phase": plain_value(s.phase),
        "step": plain_value(s.step),
        "damage_step": plain_value(s.damage_step),
        "battle_phases": s.battle_phases,
        # who must act now (with a book: the deciding seat, so that a decision about a card hidden
        # from this viewer cannot be told from a priority window by comparing the two)
        "priority": s.priority if book is None or shown is None else shown["seat"],
        "pending": shown,
        "chain": [
            {
                "link": i + 1,
                "card": _ref(book, seat, link.card),
                "code": s.cards[link.card].code,
                "controller": link.controller,
                "targets": [_ref(book, seat, t) for t in link.targets],
                "negated": link.negated,
            }
            for i, link in enumerate(s.chain)
        ],
        "attack": attack,
        "players": players,
        "winner": s.winner,
        "end_reason": s.end_reason,
    }


def _ref(book: AliasBook | None, seat: int | None, cid: int | None) -> int | None:
    """How the viewer names card ``cid``: its alias in ``book``, or its engine id (no book)."""
    if cid is None or book is None:
        return cid
    return book.ref_any(seat, cid)


SEAT_NAMES: Final[tuple[str, ...]] = ("A", "B")


def presented_pending(s: State, seat: int | None, book: AliasBook) -> dict[str, Any] | None:
    """Who must decide, as ``seat`` may know it. The deciding seat gets the whole decision
    (with the card a trigger choice is about); the others learn who is deciding and the kind
    of decision, except that a decision about a card hidden from them (an optional trigger of
    a card in the hand) looks like any other priority window. Read only (kept with the state)."""
    # kept with the state for this viewer while the book's aliases stay (places and the entry:
    # an ephemeral alias changes with every entry), the book's counts checked on the kept value
    shown = memo.viewers_shown(s)
    i = memo.viewer(seat)
    kept: _Shown | None = shown[i]
    if kept is None or kept.token is not book.token or kept.version != book.version or kept.entries != book.entries:
        kept = shown[i] = _Shown(book.token, book.version, book.entries, _presented_pending(s, seat, book))
    return kept.shown  # read only: kept with the state, and shown in its views


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


def _presented_pending(s: State, seat: int | None, book: AliasBook) -> dict[str, Any] | None:
    p = pending(s)  # read only: copied below where it is shown whole
    if p is None:
        return None
    decider = cast(int, p["seat"])  # an int (flow.pending: a choice's seat or the priority)
    if decider == seat:
        out = dict(p)
        for key in ("card", "source"):  # the trigger's card; the card whose effect asks
            if s.choice is not None and isinstance(s.choice.get(key), int):
                out[key] = book.ref_any(seat, int(s.choice[key]))
        if s.choice is not None and s.choice.get("kind") == "cards":
            # the candidates, named where the deciding seat knows them (its own Deck, say)
            cards = []
            for cid in s.choice.get("cards", []):
                entry: dict[str, Any] = {"id": book.ref_any(seat, int(cid))}
                if book.known(seat, int(cid)) or (s.cards[int(cid)].zone == "deck" and s.cards[int(cid)].owner == seat):
                    entry["code"] = s.cards[int(cid)].code
                    entry["name"] = s.cards[int(cid)].data.name
                cards.append(entry)
            out["cards"] = cards
        return out
    kind = str(p["kind"])
    if kind == "trigger" and s.choice is not None and not book.known(seat, int(s.choice.get("card", -1))):
        kind = "priority"
    return {"seat": decider, "kind": kind, "prompt": _WAITING[decider]}


_WAITING: Final = tuple(f"waiting for {name}" for name in SEAT_NAMES)
