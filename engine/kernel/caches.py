"""What is worked out from a state once and kept with it (the slots of ``State._memo``,
``State._board``, ``State._roster``), and the board lookups that fill them.

A leaf of the engine: it imports no other engine module at run time (the model names these
classes for its cache fields; docs/architecture.md). The rules never read these slots: they call
``State.monsters`` / ``field_cards`` / ``face_up_field`` and the functions of ``engine.kernel.memo``.
Cache invariants: docs/performance.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final, cast

from ..decisions import Pending

if TYPE_CHECKING:
    from ..state import Card, State

CACHE: Final = {"cache": True}
"""Field metadata of bookkeeping that is not part of the duel state (``Card._memo``, ``State._w``)."""
SHARED_CACHE: Final = {"cache": True, "shared": True}
"""Likewise, but true of every copy of the state as well: copies share it (``State._roster``)."""


def equips_of(s: State, card: Card) -> list[Card]:
    """``State.equips_of``: the cards whose ``equipped_to`` is ``card``, in the order of ``s.cards``."""
    cid: Any = card.id  # one int object for the scan (compiled, ``card.id`` is boxed at each read)
    return [e for e in s.cards.values() if e.equipped_to == cid]


def held_ids(ids: list[int]) -> list[Any]:
    """A zone's list of card ids as the objects it holds: compiled, an id read from a
    ``list[int]`` is unboxed, and boxed into a new object again to look a card up by it."""
    return ids


def memo_of(s: State) -> Memo:
    """``s._memo``, made if need be."""
    m = s._memo
    if m is None:
        m = s._memo = Memo()
    return m


def board_of(s: State) -> Board:
    """``s._board``, made if need be."""
    b = s._board
    if b is None:
        b = s._board = Board()
    return b


def monsters(s: State, seat: int) -> list[Card]:
    """``State.monsters``: worked out once per board, a fresh list each time."""
    kept = board_of(s).monsters
    got = kept[seat]
    if got is None:
        cards = s.cards
        got = kept[seat] = [cards[c] for c in s.players[seat].monsters if c is not None]
    return got.copy()


def _field_cards(s: State, seat: int | None) -> list[Card]:
    cards = s.cards
    out: list[Card] = []
    for sd in (0, 1) if seat is None else (seat,):
        p = s.players[sd]
        out += [cards[c] for c in p.monsters if c is not None]
        out += [cards[c] for c in p.spells_traps if c is not None]
        if p.field_zone is not None:
            out.append(cards[p.field_zone])
    return out


def field_cards(s: State, seat: int | None) -> list[Card]:
    """``State.field_cards``: worked out once per board, a fresh list each time."""
    kept = board_of(s).field
    i = viewer_slot(seat)
    got = kept[i]
    if got is None:
        got = kept[i] = _field_cards(s, seat)
    return list(got)


def face_up_field(s: State) -> list[Card]:
    """``State.face_up_field``: worked out once per board; the kept list itself (read only)."""
    board = board_of(s)
    got = board.face_up
    if got is None:
        every = board.field[2]
        got = board.face_up = [c for c in every or _field_cards(s, None) if c.face_up]
    return got


class Board:
    """What was worked out from a state's cards and players alone (``State._board``): kept
    across facts that write neither, shared by ``derive``, dropped by any write. A slot for
    each kind of value, as ``Memo``."""

    __slots__ = ("face_up", "field", "monsters", "sources")

    def __init__(self) -> None:
        self.monsters: list[list[Card] | None] = [None, None]  # State.monsters, per seat
        self.field: list[list[Card] | None] = [None, None, None]  # State.field_cards, by ``viewer_slot``
        self.face_up: list[Card] | None = None  # State.face_up_field
        # stats.continuous_sources, while no card may negate another or is being activated
        self.sources: list[Any] | None = None

    def __deepcopy__(self, memo: dict[int, Any]) -> Board:
        return Board()  # it names card objects: a deep copy of a state works it out again


class Roster:
    """Which cards of a duel answer each kind of event, by id (``State._roster``, filled by
    ``engine.ops.roster``): one object shared by every copy of the duel's states.
    ``scripts``: how many scripts were registered when ``ids`` was filled (-1: not yet)."""

    __slots__ = ("ids", "scripts")

    def __init__(self) -> None:
        self.scripts = -1
        self.ids: dict[Any, tuple[Any, ...]] = {}

    def __deepcopy__(self, memo: dict[int, Any]) -> Roster:
        return Roster()  # a cache: a deep copy of a state works it out again


def viewer_slot(seat: int | None) -> int:
    """Where a ``Memo`` keeps a viewer's value: its seat, 2 for a spectator."""
    return 2 if seat is None else seat


NOT_WORKED_OUT: Final = cast(Pending, {})
"""``Memo.pending`` of a state whose decision is not worked out yet (None: nobody owes one)."""


class Memo:
    """What was worked out from one state, kept until a fact changes the state (``State._memo``,
    which applying any fact drops): a slot for each kind of value, where a dict took a key per
    value (a tuple, made and hashed at each lookup). Per viewer: a list indexed by seat, 2 for
    a spectator. A plain class: compiled, each slot is a field of a struct."""

    __slots__ = ("board_hash", "legal", "pending", "shown", "sources", "stats", "zones")

    def __init__(self) -> None:
        self.pending: Pending | None = NOT_WORKED_OUT  # owed.pending
        self.legal: list[list[Any] | None] | None = None  # legal.legal_actions, per seat
        self.stats: dict[Any, Any] | None = None  # view._stats: by card id
        self.zones: list[Any] | None = None  # view.view: the players' part, per viewer
        self.shown: list[Any] | None = None  # view.presented_pending, per viewer
        self.board_hash: BoardDigest | None = None  # state_hash
        # stats.continuous_sources, while a card may negate another or is being activated
        self.sources: list[Any] | None = None

    def viewers_zones(self) -> list[Any]:
        """``zones``, made if need be (indexed by ``viewer_slot``)."""
        if self.zones is None:
            self.zones = [None, None, None]
        return self.zones

    def viewers_shown(self) -> list[Any]:
        """``shown``, made if need be (indexed by ``viewer_slot``)."""
        if self.shown is None:
            self.shown = [None, None, None]
        return self.shown

    def carried(self) -> Memo:
        """What still holds for a state with this state's board and other priority (``engine.decide``
        after a pass): the stats, the players' part of the views, the board's digest."""
        m = Memo()
        m.stats = self.stats
        m.zones = None if self.zones is None else self.zones.copy()
        m.board_hash = self.board_hash
        return m

    def __deepcopy__(self, memo: dict[int, Any]) -> Memo:
        return Memo()  # a cache: a deep copy of a state works it out again


class BoardDigest:
    """A sha256 object fed the packed state up to the end of the players, as ``state_hash``
    keeps it. Never updated: ``state_hash`` updates a copy. So states may share it, and a deep
    copy with it, as any immutable value (a hash object cannot be deep-copied itself)."""

    __slots__ = ("sha",)

    def __init__(self, sha: Any) -> None:
        self.sha = sha

    def __deepcopy__(self, memo: dict[int, Any]) -> BoardDigest:
        return self
