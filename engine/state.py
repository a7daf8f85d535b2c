"""The duel state: plain, serializable data.

Cards are kept by instance id in ``State.cards``; zones hold ids. Nothing here
has behaviour beyond small lookups: the rules live in the other modules and
change the state only through facts (``engine.apply``).
"""

from __future__ import annotations

import copy
import dataclasses
import hashlib
import operator
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Final

import msgpack

from .card_data import CardData
from .cards import CARDS
from .plain import plain_value
from .types import Phase, Position, Step, Timing, Zone

_CARDS: Final = CARDS
"""``engine.cards.CARDS`` as a C static of the compiled build (``Card.data`` reads it for every
card asked about; a name imported from an interpreted module is a dict lookup per read)."""

CACHE: Final = {"cache": True}
"""Field metadata of bookkeeping that is not part of the duel state (``Card._memo``, ``State._w``)."""
SHARED_CACHE: Final = {"cache": True, "shared": True}
"""Likewise, but true of every copy of the state as well: copies share it (``State._roster``)."""

IMMUTABLE: Final = {"shared": True}
"""Field metadata of a container that is replaced, never changed in place: copies share it."""
NO_COUNTERS: Final[Mapping[str, int]] = {}
NO_MATERIALS: Final[Sequence[int]] = []
NO_FLAGS: Final[Mapping[str, Any]] = {}
"""The empty values a card starts with (shared: a ``Mapping``/``Sequence`` cannot be written)."""

ZONES: Final[tuple[str, ...]] = (
    "deck",
    "hand",
    "monsters",
    "spells_traps",
    "field",
    "graveyard",
    "banished",
    "extra",
    "xyz_material",
)
PHASES: Final[tuple[str, ...]] = ("draw", "standby", "main1", "battle", "main2", "end")
STEPS: Final[tuple[str, ...]] = ("start", "battle", "damage", "end")
DAMAGE_TIMINGS: Final[tuple[str, ...]] = (
    "start_of_damage_step",
    "before_damage_calculation",
    "during_damage_calculation",
    "after_damage_calculation",
    "end_of_damage_step",
)


@dataclass(slots=True)
class Card:
    id: int
    code: int
    owner: int
    controller: int
    zone: Zone = Zone.DECK
    slot: int = -1
    face_up: bool = False
    position: Position = Position.ATTACK  # attack | defense (a face-down monster is defense + not face_up)
    set_turn: int = 0  # turn a Spell/Trap (or monster) was Set
    summoned_turn: int = 0
    position_turn: int = 0  # turn its battle position last changed (summon, flip, change)
    attacks: int = 0  # attacks declared during the current Battle Phase
    attacked_turn: int = 0  # turn in which it last declared an attack
    # never changed in place (typed read-only so that mypy says so): a write puts a new one,
    # and every card without counters, materials or flags shares the one empty value of each
    # (three empty containers on each of a duel's 80 cards were 15 KiB of every held duel)
    counters: Mapping[str, int] = field(default_factory=lambda: NO_COUNTERS, metadata=IMMUTABLE)
    equipped_to: int | None = None
    materials: Sequence[int] = field(default_factory=lambda: NO_MATERIALS, metadata=IMMUTABLE)
    flags: Mapping[str, Any] = field(default_factory=lambda: NO_FLAGS, metadata=IMMUTABLE)
    # not part of the duel state (never hashed, compared, shown or snapshotted): what was
    # computed from this card while it did not change (its packed bytes for state_hash, its
    # rendering in views); every write through engine.apply clears it (see write_card)
    _memo: dict[Any, Any] | None = field(default=None, init=False, repr=False, compare=False, metadata=CACHE)
    _packed: bytes | None = field(default=None, init=False, repr=False, compare=False, metadata=CACHE)
    # the card's facts, looked up once: a card's passcode never changes, so every copy shares it
    # (compiled, each lookup by passcode boxed it anew: a new int object per read)
    _data: CardData | None = field(default=None, init=False, repr=False, compare=False, metadata=SHARED_CACHE)

    @property
    def data(self) -> CardData:
        d = self._data
        if d is None:
            d = self._data = _CARDS[self.code]
        return d

    @property
    def on_field(self) -> bool:
        return self.zone in ("monsters", "spells_traps", "field")


@dataclass(slots=True)
class Player:
    lp: int = 8000
    deck: list[int] = field(default_factory=list)  # index 0 is the top
    hand: list[int] = field(default_factory=list)
    graveyard: list[int] = field(default_factory=list)
    banished: list[int] = field(default_factory=list)
    extra: list[int] = field(default_factory=list)
    monsters: list[int | None] = field(default_factory=lambda: [None] * 5)
    spells_traps: list[int | None] = field(default_factory=lambda: [None] * 5)
    field_zone: int | None = None
    normal_summoned: bool = False
    _packed: bytes | None = field(default=None, init=False, repr=False, compare=False, metadata=CACHE)
    # what views rendered from this player and its cards (engine.view), as ``Card._memo``:
    # every write through engine.apply clears it (see write_player)
    _memo: dict[Any, Any] | None = field(default=None, init=False, repr=False, compare=False, metadata=CACHE)


@dataclass(slots=True)
class Link:
    """One chain link: an activated card or effect waiting to resolve."""

    card: int
    effect: int  # 1-based index into the card's effects
    controller: int
    targets: list[int] = field(default_factory=list)
    negated: bool = False  # activation negated
    effect_negated: bool = False
    data: dict[str, Any] = field(default_factory=dict)
    trigger: bool = False


@dataclass(slots=True)
class Attack:
    """The attack in progress (Battle Step and Damage Step)."""

    attacker: int
    target: int | None  # None: a direct attack
    snapshot: list[int]  # the opponent's monsters when the target was chosen (replay check)
    responded: bool = False  # the chain answering the declaration is over
    replay: bool = False  # waiting for the turn player to choose again
    flipped: int | None = None  # the face-down target flipped in the Damage Step
    calculated: bool = False
    stopped: bool = False  # damage calculation stopped / skipped
    destroyed: list[int] = field(default_factory=list)  # destroyed by battle, not yet sent
    damage: list[int] = field(default_factory=lambda: [0, 0])  # battle damage dealt per seat


@dataclass(slots=True)
class Modifier:
    """A lingering stat change created by a resolved effect."""

    card: int
    stat: str  # atk | def
    op: str  # add | set_original_half | set
    value: int
    until: str  # damage_calculation | end_of_damage_step | end_phase | turn | permanent
    source: int
    turn: int


@dataclass(slots=True)
class Trigger:
    card: int
    effect: int
    controller: int
    event: dict[str, Any]
    mandatory: bool


@dataclass(slots=True)
class Resolving:
    """A chain being resolved. Resolution may stop to wait for a selection made at resolution
    (ruling SEL-1); this is what it needs to go on afterwards."""

    was: list[list[Any]]  # [card, controller, position, face_up] of the monsters on the field when it began
    destroyed: list[int] = field(default_factory=list)  # cards destroyed while it resolves
    started: int = 0  # the chain link (1-based) whose effect has begun to resolve; 0: none


@dataclass(slots=True)
class State:
    started: bool = False
    options: dict[str, Any] = field(default_factory=dict)
    rng: int = 0
    cards: dict[int, Card] = field(default_factory=dict)
    players: list[Player] = field(default_factory=lambda: [Player(), Player()])
    turn: int = 0
    turn_player: int = 0
    phase: Phase = Phase.DRAW
    step: Step | None = None
    damage_step: Timing | None = None
    battle_phases: int = 0  # Battle Phases this turn
    extra_battle_phases: int = 0  # additional Battle Phases granted this turn
    skip: list[str] = field(default_factory=list)  # phases to skip this turn
    skipped_main1: bool = False
    priority: int = 0
    passes: int = 0
    intent: str | None = None  # where the turn player asked to go when passing
    event: dict[str, Any] | None = None  # the event the current chain answers
    chain: list[Link] = field(default_factory=list)
    resolving: Resolving | None = None  # the chain is resolving (see Resolving)
    chains_in_timing: int = 0
    chain_no: int = 0  # chains resolved so far in the duel ("once per chain")
    next_turn: list[dict[str, Any]] = field(default_factory=list)  # effects waiting for a player's next turn
    attack: Attack | None = None
    modifiers: list[Modifier] = field(default_factory=list)
    triggers: list[Trigger] = field(default_factory=list)
    choice: dict[str, Any] | None = None  # a pending choice: {"seat", "kind", ...}
    # the monsters each player controlled at the start of the current Battle Phase (Tualatin)
    start_step_monsters: list[list[int]] = field(default_factory=lambda: [[], []])
    used: dict[str, int] = field(default_factory=dict)  # once-per-turn/battle keys -> turn
    winner: int | str | None = None
    end_reason: str | None = None
    seq: int = 0  # facts applied
    # how facts may write this state (never hashed, compared or snapshotted): None, it owns
    # every object it holds; a set, it shares card objects with other states and owns the
    # cards whose ids are in the set (copy-on-write); a Journal, a Ctx writes its cards in
    # place and the journal keeps their first versions (see ADR 0006)
    _w: Any = field(default=None, init=False, repr=False, compare=False, metadata=CACHE)
    # what views computed from this state (engine.view); every fact applied clears it
    _memo: Memo | None = field(default=None, init=False, repr=False, compare=False, metadata=CACHE)
    # which cards answer each kind of event, by id (engine.ops.roster): it depends only on the
    # ids and codes of the cards, which no fact changes once they exist. Copies share it (made
    # by the first copy); the facts that create the cards (engine.apply: duel_started, setup)
    # drop it
    _roster: Roster | None = field(default=None, init=False, repr=False, compare=False, metadata=SHARED_CACHE)
    # what was computed from the cards and the players alone (the field's cards, the face-up
    # ones ...): kept across facts that write neither, shared by ``derive`` (the same cards
    # dict and player objects), dropped by every write of a card or a player (``write_card``,
    # ``write_player``) and by the facts that make the cards (engine.apply)
    _board: Board | None = field(default=None, init=False, repr=False, compare=False, metadata=SHARED_CACHE)

    @property
    def finished(self) -> bool:
        return self.winner is not None

    def card(self, cid: int) -> Card:
        return self.cards[cid]

    # The lookups below are asked many times (every ATK, every continuous effect) and depend on
    # the cards and players alone: each is computed once and kept in ``_board`` until a card or
    # a player is written. They return a fresh list each time.

    def memo(self) -> Memo:
        """``_memo``, made if need be."""
        m = self._memo
        if m is None:
            m = self._memo = Memo()
        return m

    def board(self) -> Board:
        """``_board``, made if need be."""
        b = self._board
        if b is None:
            b = self._board = Board()
        return b

    def monsters(self, seat: int) -> list[Card]:
        kept = self.board().monsters
        got = kept[seat]
        if got is None:
            cards = self.cards
            got = kept[seat] = [cards[c] for c in self.players[seat].monsters if c is not None]
        return got.copy()

    def spells_traps(self, seat: int) -> list[Card]:
        cards = self.cards
        return [cards[c] for c in self.players[seat].spells_traps if c is not None]

    def _field_cards(self, seat: int | None) -> list[Card]:
        cards = self.cards
        out: list[Card] = []
        for sd in (0, 1) if seat is None else (seat,):
            p = self.players[sd]
            out += [cards[c] for c in p.monsters if c is not None]
            out += [cards[c] for c in p.spells_traps if c is not None]
            if p.field_zone is not None:
                out.append(cards[p.field_zone])
        return out

    def field_cards(self, seat: int | None = None) -> list[Card]:
        kept = self.board().field
        i = viewer_slot(seat)
        got = kept[i]
        if got is None:
            got = kept[i] = self._field_cards(seat)
        return list(got)

    def face_up_field(self) -> list[Card]:
        return self.kept_face_up_field().copy()

    def kept_face_up_field(self) -> list[Card]:
        """``face_up_field`` as kept: read only (no copy, for the engine's own loops)."""
        board = self.board()
        got = board.face_up
        if got is None:
            every = board.field[2]
            got = board.face_up = [c for c in every or self._field_cards(None) if c.face_up]
        return got


class Board:
    """What was worked out from a state's cards and players alone (``State._board``): kept
    across facts that write neither, shared by ``derive``, dropped by any write. A slot for
    each kind of value, as ``Memo``."""

    __slots__ = ("face_up", "field", "monsters", "sources")

    def __init__(self) -> None:
        self.monsters: list[list[Card] | None] = [None, None]  # State.monsters, per seat
        self.field: list[list[Card] | None] = [None, None, None]  # State.field_cards, by ``viewer_slot``
        self.face_up: list[Card] | None = None  # State.kept_face_up_field
        self.sources: list[Any] | None = None  # stats._sources, while no card may negate another or is being activated

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


NOT_WORKED_OUT: Final[dict[str, object]] = {}
"""``Memo.pending`` of a state whose decision is not worked out yet (None: nobody owes one)."""


class Memo:
    """What was worked out from one state, kept until a fact changes the state (``State._memo``,
    which applying any fact drops): a slot for each kind of value, where a dict took a key per
    value (a tuple, made and hashed at each lookup). Per viewer: a list indexed by seat, 2 for
    a spectator. A plain class: compiled, each slot is a field of a struct."""

    __slots__ = ("board_hash", "legal", "pending", "shown", "sources", "stats", "zones")

    def __init__(self) -> None:
        self.pending: dict[str, object] | None = NOT_WORKED_OUT  # flow.kept_pending
        self.legal: list[list[Any] | None] | None = None  # decide.known_legal_actions, per seat
        self.stats: dict[Any, Any] | None = None  # view._stats: by card id
        self.zones: list[Any] | None = None  # view.view: the players' part, per viewer
        self.shown: list[Any] | None = None  # view.presented_pending, per viewer
        self.board_hash: BoardDigest | None = None  # state_hash
        self.sources: list[Any] | None = None  # stats._sources, while a card may negate another or is being activated

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


# The copies and swaps below are written out field by field: compiled (engine.NATIVE) each is a
# run of struct reads and writes, where a function made at import (exec) stayed interpreted
# and cost 2-3 % of the engine's work. tests/engine/test_state_copies.py checks every field of
# every class against these rules, so a field added and not copied here fails there:
# a container field (one with a default factory) is copied one level deep, except by the
# sharing copies (``Link``, ``Attack``, ``State``) and for containers never changed in place
# (``IMMUTABLE``); every other value is shared; cache fields start empty, except shared ones
# (``SHARED_CACHE``). A swap exchanges every field, caches too.


def _copy_card(o: Card) -> Card:
    n = Card.__new__(Card)
    n.id = o.id
    n.code = o.code
    n.owner = o.owner
    n.controller = o.controller
    n.zone = o.zone
    n.slot = o.slot
    n.face_up = o.face_up
    n.position = o.position
    n.set_turn = o.set_turn
    n.summoned_turn = o.summoned_turn
    n.position_turn = o.position_turn
    n.attacks = o.attacks
    n.attacked_turn = o.attacked_turn
    n.counters = o.counters
    n.equipped_to = o.equipped_to
    n.materials = o.materials
    n.flags = o.flags
    n._memo = None
    n._packed = None
    n._data = o._data
    return n


def _copy_player(o: Player) -> Player:
    n = Player.__new__(Player)
    n.lp = o.lp
    n.deck = o.deck.copy()
    n.hand = o.hand.copy()
    n.graveyard = o.graveyard.copy()
    n.banished = o.banished.copy()
    n.extra = o.extra.copy()
    n.monsters = o.monsters.copy()
    n.spells_traps = o.spells_traps.copy()
    n.field_zone = o.field_zone
    n.normal_summoned = o.normal_summoned
    n._packed = None
    n._memo = None
    return n


def _swap_card(a: Card, b: Card) -> None:
    a.id, b.id = b.id, a.id
    a.code, b.code = b.code, a.code
    a.owner, b.owner = b.owner, a.owner
    a.controller, b.controller = b.controller, a.controller
    a.zone, b.zone = b.zone, a.zone
    a.slot, b.slot = b.slot, a.slot
    a.face_up, b.face_up = b.face_up, a.face_up
    a.position, b.position = b.position, a.position
    a.set_turn, b.set_turn = b.set_turn, a.set_turn
    a.summoned_turn, b.summoned_turn = b.summoned_turn, a.summoned_turn
    a.position_turn, b.position_turn = b.position_turn, a.position_turn
    a.attacks, b.attacks = b.attacks, a.attacks
    a.attacked_turn, b.attacked_turn = b.attacked_turn, a.attacked_turn
    a.counters, b.counters = b.counters, a.counters
    a.equipped_to, b.equipped_to = b.equipped_to, a.equipped_to
    a.materials, b.materials = b.materials, a.materials
    a.flags, b.flags = b.flags, a.flags
    a._memo, b._memo = b._memo, a._memo
    a._packed, b._packed = b._packed, a._packed
    a._data, b._data = b._data, a._data


def _swap_player(a: Player, b: Player) -> None:
    a.lp, b.lp = b.lp, a.lp
    a.deck, b.deck = b.deck, a.deck
    a.hand, b.hand = b.hand, a.hand
    a.graveyard, b.graveyard = b.graveyard, a.graveyard
    a.banished, b.banished = b.banished, a.banished
    a.extra, b.extra = b.extra, a.extra
    a.monsters, b.monsters = b.monsters, a.monsters
    a.spells_traps, b.spells_traps = b.spells_traps, a.spells_traps
    a.field_zone, b.field_zone = b.field_zone, a.field_zone
    a.normal_summoned, b.normal_summoned = b.normal_summoned, a.normal_summoned
    a._packed, b._packed = b._packed, a._packed
    a._memo, b._memo = b._memo, a._memo


def _copy_link(o: Link) -> Link:
    n = Link.__new__(Link)
    n.card = o.card
    n.effect = o.effect
    n.controller = o.controller
    n.targets = o.targets
    n.negated = o.negated
    n.effect_negated = o.effect_negated
    n.data = o.data
    n.trigger = o.trigger
    return n


def _copy_attack(o: Attack) -> Attack:
    n = Attack.__new__(Attack)
    n.attacker = o.attacker
    n.target = o.target
    n.snapshot = o.snapshot
    n.responded = o.responded
    n.replay = o.replay
    n.flipped = o.flipped
    n.calculated = o.calculated
    n.stopped = o.stopped
    n.destroyed = o.destroyed
    n.damage = o.damage
    return n


def _share_state(o: State) -> State:
    n = State.__new__(State)
    if o._roster is None:
        # made here, not by its first reader: a copy asked first (``decide`` asks its own
        # derived state, then drops it) fills it for ``o`` and every other copy as well
        o._roster = Roster()
    n.started = o.started
    n.options = o.options
    n.rng = o.rng
    n.cards = o.cards
    n.players = o.players
    n.turn = o.turn
    n.turn_player = o.turn_player
    n.phase = o.phase
    n.step = o.step
    n.damage_step = o.damage_step
    n.battle_phases = o.battle_phases
    n.extra_battle_phases = o.extra_battle_phases
    n.skip = o.skip
    n.skipped_main1 = o.skipped_main1
    n.priority = o.priority
    n.passes = o.passes
    n.intent = o.intent
    n.event = o.event
    n.chain = o.chain
    n.resolving = o.resolving
    n.chains_in_timing = o.chains_in_timing
    n.chain_no = o.chain_no
    n.next_turn = o.next_turn
    n.attack = o.attack
    n.modifiers = o.modifiers
    n.triggers = o.triggers
    n.choice = o.choice
    n.start_step_monsters = o.start_step_monsters
    n.used = o.used
    n.winner = o.winner
    n.end_reason = o.end_reason
    n.seq = o.seq
    n._w = None
    n._memo = None
    n._roster = o._roster
    n._board = o._board
    return n


def _small_parts(n: State, state: State) -> None:
    """Give ``n`` its own copies of everything but the cards (the players, the chain ...):
    small, and written in place by the facts."""
    n.chain = [_copy_link(link) for link in state.chain]
    for link in n.chain:
        link.targets = list(link.targets)
        link.data = copy_plain(link.data)
    if state.resolving is not None:
        r = state.resolving
        n.resolving = Resolving(was=[list(x) for x in r.was], destroyed=list(r.destroyed), started=r.started)
    if state.attack is not None:
        a = _copy_attack(state.attack)
        a.snapshot = list(a.snapshot)
        a.destroyed = list(a.destroyed)
        a.damage = list(a.damage)
        n.attack = a
    n.modifiers = list(state.modifiers)  # Modifier and Trigger objects are never written
    n.triggers = list(state.triggers)
    n.skip = list(state.skip)
    n.used = dict(state.used)
    n.next_turn = list(state.next_turn)
    # options, event, choice and start_step_monsters are replaced by the facts, never written


def copy_plain(v: Any) -> Any:
    """A deep copy of plain data (dicts, lists, and values never written in place), by
    ``copy.deepcopy`` only for anything else: a chain link's ``data`` is copied with every new
    state, and ``copy.deepcopy`` runs in the interpreter (~2 µs for a small dict)."""
    t = type(v)
    if t is dict:
        return {k: copy_plain(x) for k, x in v.items()}
    if t is list:
        return [copy_plain(x) for x in v]
    if v is None or t is int or t is str or t is bool or t is float:
        return v
    return copy.deepcopy(v)


def clone(state: State) -> State:
    """A full copy that shares nothing with ``state`` (every card copied)."""
    n = _share_state(state)
    n._board = None  # other card objects
    _small_parts(n, state)
    n.players = [_copy_player(p) for p in state.players]
    n.cards = {k: _copy_card(c) for k, c in state.cards.items()}
    n.options = dict(state.options)
    n.event = None if state.event is None else dict(state.event)
    n.choice = None if state.choice is None else copy.deepcopy(state.choice)
    n.start_step_monsters = [list(x) for x in state.start_step_monsters]
    return n


def deep_clone(state: State) -> State:
    """The obvious copy, kept as the benchmark baseline and as a cross-check in tests."""
    n = copy.deepcopy(state)
    n._w = None
    n._memo = None
    return n


# ---------------------------------------------------------------- copy-on-write (ADR 0006)


class Journal:
    """The cards (and players) a ``Ctx`` wrote in place, each with a copy of how it was before."""

    __slots__ = ("cards", "players")

    def __init__(self) -> None:
        self.cards: dict[int, tuple[Card, Card]] = {}  # id -> (the card written, its first version)
        self.players: dict[int, tuple[Player, Player]] = {}  # seat -> (the player written, its first version)


def derive(state: State) -> State:
    """A new state equal to ``state`` that shares its card objects, and its cards dict, with it.
    Both states then write a shared card only by copying it first (``write_card``), and the
    dict only by copying it first (``own_cards``: most actions write no card, and copying the
    dict of a duel's 80 cards, then freeing it, was the one cost of a new state that grew with
    the duel), so neither ever sees the other's changes."""
    if isinstance(state._w, Journal):  # a Ctx is writing its cards in place: share nothing
        return clone(state)
    n = _share_state(state)
    _small_parts(n, state)
    n.players = list(state.players)
    n.cards = state.cards
    n._w = set()
    state._w = set()  # the cards it owned, and its cards dict, are shared now
    return n


OWN_CARDS: Final = -100
"""In a copy-on-write state's set of owned objects (``State._w``): it owns its cards dict
(card ids are >= 0, players -1 and -2)."""


def own_cards(s: State) -> dict[int, Card]:
    """``s.cards``, ready to be written (a card added or replaced): copied first if ``s``
    shares the dict with the state it was derived from (or derived)."""
    w = s._w
    if type(w) is set and OWN_CARDS not in w:
        s.cards = dict(s.cards)
        w.add(OWN_CARDS)
    return s.cards


def begin_in_place(state: State) -> Journal:
    """Let a ``Ctx`` write ``state``'s cards in place (so that rules code holding a card sees
    every change to it), keeping the first version of each card it writes."""
    j = Journal()
    state._w = j
    return j


def end_in_place(state: State, j: Journal, keep: bool) -> None:
    """Close a journal. Every card written in place gets its first version back, so the
    states it is shared with are as before. ``keep``: ``state`` holds the written versions,
    as cards of its own (copy-on-write from then on); else ``state`` is thrown away."""
    own: set[int] = set()
    if keep and j.cards:  # the dict is shared with the state it was derived from (``derive``)
        state.cards = dict(state.cards)
        own.add(OWN_CARDS)
    for cid, (card, first) in j.cards.items():
        _swap_card(card, first)  # ``card`` is as it was; ``first`` now holds what was written
        if keep and state.cards.get(cid) is card:
            state.cards[cid] = first
            own.add(cid)
    for seat, (player, pfirst) in j.players.items():
        _swap_player(player, pfirst)
        if keep and state.players[seat] is player:
            state.players[seat] = pfirst
            own.add(_player_key(seat))
    if j.cards or j.players:
        state._board = None  # its written cards and players are other objects now
    j.cards.clear()
    j.players.clear()
    state._w = own
    state._memo = None  # what was kept refers to the card objects of before the swap


def write_card(s: State, cid: int) -> Card:
    """The card ``cid`` of ``s``, ready to be written (every write of a card in engine.apply
    goes through here): copied first if ``s`` shares it, its first version kept if a Ctx
    writes in place; its cached bytes and renderings are dropped."""
    c = s.cards[cid]
    w = s._w
    if w is not None:
        if type(w) is set:
            if cid not in w:
                c = _copy_card(c)
                own_cards(s)[cid] = c
                w.add(cid)
        elif cid not in w.cards:
            first = _copy_card(c)
            first._memo = c._memo
            first._packed = c._packed
            w.cards[cid] = (c, first)
    c._memo = None
    c._packed = None
    s._board = None
    return c


class CardPool:
    """Cards that no state has written, shared by the states of many duels (one pool per
    process). A card still in its Deck or Extra Deck is the same object in every duel where it
    has the same id, passcode and owner and nothing has happened to it: decks are lists of a
    few dozen passcodes and ids count from the same base, so a server holding thousands of
    duels needs a few thousand such cards, not 60 per duel (with their packed bytes for
    ``state_hash``, ~250 bytes each). Copy-on-write (``write_card``) already keeps a shared
    card from being written: a state sharing it copies it first, whichever duel it belongs to.

    Bounded: once ``limit`` cards are pooled, new ones stay with their duel. Used from the
    thread that made it only (a Ctx writes a shared card in place for the length of one
    ``decide``): ``share_unwritten`` shares nothing from another thread."""

    __slots__ = ("cards", "limit", "thread")

    def __init__(self, limit: int = 50_000) -> None:
        self.cards: dict[bytes, Card] = {}  # a card's packed bytes (its id and fields) -> the card
        self.limit = limit
        self.thread = threading.get_ident()


SHAREABLE_ZONES: Final = frozenset({Zone.DECK, Zone.EXTRA})
"""Where a card is never rendered in a view (engine.view renders the hand, the field, the
Graveyard and banished cards), so a pooled card keeps no viewer's rendering of any duel."""


def share_unwritten(state: State, pool: CardPool) -> int:
    """Put each card of ``state`` in its Deck or Extra Deck into ``pool`` (or take the pool's
    equal card instead) and stop owning it, so that the first write of it in ``state`` copies
    it (``write_card``). Changes no state's content, hash or views; returns how many cards
    ``state`` now shares with the pool. Not while a Ctx writes ``state`` in place.

    Safe because the engine writes a card only through ``write_card`` and no write happens
    between two states' rules code: a Ctx that writes a shared card in place (``Journal``)
    gives it its first version back before ``decide`` returns, and the engine runs on one
    thread (``CardPool.thread``: from any other, nothing is shared)."""
    w = state._w
    if isinstance(w, Journal):
        raise RuntimeError("share_unwritten while a Ctx writes the state in place")
    if threading.get_ident() != pool.thread:
        return 0
    # None: the state owns every object it holds (so no other state holds any of them)
    if w is None:
        owned: set[int] = {*state.cards, OWN_CARDS, *(_player_key(seat) for seat in range(len(state.players)))}
    else:
        owned = w
    cards = own_cards(state)  # with ``w`` None it owns its dict; else copied first if shared
    state._board = None  # some of its card objects are replaced by the pool's
    pooled = pool.cards
    packer = _packer()
    shared = 0
    for cid, c in list(cards.items()):
        if c.zone not in SHAREABLE_ZONES or c._memo is not None:
            continue
        key = c._packed or _card_bytes(c, packer)
        got = pooled.get(key)
        if got is None:
            if len(pooled) >= pool.limit:
                continue
            got = pooled[key] = c  # no other state owns ``c``: owned objects are never shared
        cards[cid] = got
        owned.discard(cid)
        shared += 1
    state._w = owned
    return shared


def _player_key(seat: int) -> int:
    """The key of a player in a copy-on-write state's set of owned objects (card ids are >= 0)."""
    return -1 - seat


def write_player(s: State, seat: int) -> Player:
    """Player ``seat`` of ``s``, ready to be written (as ``write_card``: every write of a player
    in engine.apply goes through here)."""
    p = s.players[seat]
    w = s._w
    if w is not None:
        if type(w) is set:
            key = -1 - seat
            if key not in w:
                p = _copy_player(p)
                s.players[seat] = p
                w.add(key)
        elif seat not in w.players:
            first = _copy_player(p)
            first._packed = p._packed
            first._memo = p._memo
            w.players[seat] = (p, first)
    p._packed = None
    p._memo = None
    s._board = None
    return p


def _plain(v: Any) -> Any:
    fields = getattr(v, "__dataclass_fields__", None)
    if fields is not None:
        return {name: _plain(getattr(v, name)) for name in _hashed(type(v))}
    if isinstance(v, dict):
        return {k: _plain(x) for k, x in v.items()}
    if isinstance(v, list | tuple):
        return [_plain(x) for x in v]
    return v


def to_plain(state: State) -> dict[str, Any]:
    """The state as plain dicts and lists (what ``state_hash`` digests)."""
    out: dict[str, Any] = _plain(state)
    return out


_FIELDS: Final[dict[type, tuple[str, ...]]] = {}


def _hashed(cls: type) -> tuple[str, ...]:
    """The fields of a state dataclass that are part of the state (not caches), in order."""
    names = _FIELDS.get(cls)
    if names is None:
        names = _FIELDS[cls] = tuple(f.name for f in dataclasses.fields(cls) if not f.metadata.get("cache"))
    return names


def field_values(o: Any) -> Sequence[Any]:
    """msgpack hook: a state dataclass packs as the list of its field values (not its caches),
    in field order (a tuple or a list: the same msgpack array). ``state_hash`` packs with it
    (through ``_exact``), and so do snapshots (``server.match.snapshots``)."""
    values = _VALUES.get(type(o))
    if values is None:
        if not hasattr(o, "__dataclass_fields__"):
            raise TypeError(f"cannot pack a {type(o).__name__}")
        names = _hashed(type(o))
        if len(names) == 1:
            only = names[0]
            values = _VALUES[type(o)] = lambda x: (getattr(x, only),)
        else:
            values = _VALUES[type(o)] = operator.attrgetter(*names)
    got: Sequence[Any] = values(o)
    return got


_VALUES: Final[dict[type, Callable[[Any], Sequence[Any]]]] = {}
"""Per state dataclass: its field values (not caches) as a tuple or a list, in field order."""


def full_state_hash(state: State) -> str:
    """``state_hash`` computed from scratch (msgpack of the whole state, then sha256): the
    definition, kept as the cross-check of the cached one."""
    packed = msgpack.packb(state, default=field_values, use_bin_type=True)
    return hashlib.sha256(packed).hexdigest()[:32]


_STATE_HASHED: Final = _hashed(State)
_BEFORE_CARDS: Final = _STATE_HASHED[: _STATE_HASHED.index("cards")]
_AFTER_PLAYERS: Final = _STATE_HASHED[_STATE_HASHED.index("players") + 1 :]
assert _STATE_HASHED.index("players") == _STATE_HASHED.index("cards") + 1  # state_hash packs them in turn
_local = threading.local()


def _packer() -> msgpack.Packer:
    """``state_hash``'s packer (one per thread): it checks types exactly (``strict_types``).
    A lenient packer asks of every list and tuple whether it is an ``ExtType`` (a namedtuple):
    an ``isinstance`` that looks ``__class__`` up, 1.2 % of the engine's work per action
    (callgrind). Exactly, anything but None, bool, int, float, bytes, str, dict and list goes to
    ``_exact``, which gives the value the lenient packer would have packed in its place."""
    p: msgpack.Packer | None = getattr(_local, "packer", None)
    if p is None:
        p = _local.packer = msgpack.Packer(default=_exact, use_bin_type=True, strict_types=True)
    return p


def _exact(o: Any) -> Any:
    """``state_hash``'s msgpack hook (``_packer``): what the lenient packer of
    ``full_state_hash`` would have packed in the place of ``o`` (bool, None and exact plain
    values never come here), as a plain value: a state dataclass as the list of its field
    values, a tuple as a list, an enum member as its value, a subclass of int, str, dict or
    list as the plain value."""
    values = _VALUES.get(type(o))
    if values is not None:
        return list(values(o))
    if isinstance(o, Enum):
        o = o._value_  # packed as its value, which may itself come back here
    if isinstance(o, bool):
        return bool(o)
    if isinstance(o, int):
        return int(o)
    if isinstance(o, str):
        return str.__str__(o)
    if isinstance(o, tuple | list):
        return list(o)
    if isinstance(o, dict):
        return dict(o)
    return list(field_values(o))


_STATE_HEADER: Final = _packer().pack_array_header(len(_STATE_HASHED))
_before_cards = operator.attrgetter(*_BEFORE_CARDS)  # a tuple: ``_board_hash`` packs it as a list


def _after_players(s: State) -> list[Any]:
    """The state's fields after ``players``, in field order, its enums as plain strs (the
    same bytes as the members; ``full_state_hash`` is the cross-check the tests make: a field
    added to ``State`` and not here makes the two differ). A list: ``_packer`` packs a tuple
    through its hook; the chain, the attack and the rest as the lists of their field values,
    as ``field_values`` gives them, so that the packer calls no hook for them."""
    return [
        s.turn,
        s.turn_player,
        plain_value(s.phase),
        plain_value(s.step),
        plain_value(s.damage_step),
        s.battle_phases,
        s.extra_battle_phases,
        s.skip,
        s.skipped_main1,
        s.priority,
        s.passes,
        s.intent,
        s.event,
        [_link_values(x) for x in s.chain],
        None if s.resolving is None else _resolving_values(s.resolving),
        s.chains_in_timing,
        s.chain_no,
        s.next_turn,
        None if s.attack is None else _attack_values(s.attack),
        [_modifier_values(x) for x in s.modifiers],
        [_trigger_values(x) for x in s.triggers],
        s.choice,
        s.start_step_monsters,
        s.used,
        s.winner,
        s.end_reason,
        s.seq,
    ]


def _card_values(c: Card) -> list[Any]:
    """``field_values`` of a card, written out (its enums as plain strs: the same bytes). A
    list, as ``_after_players``."""
    return [
        c.id,
        c.code,
        c.owner,
        c.controller,
        plain_value(c.zone),
        c.slot,
        c.face_up,
        plain_value(c.position),
        c.set_turn,
        c.summoned_turn,
        c.position_turn,
        c.attacks,
        c.attacked_turn,
        c.counters,
        c.equipped_to,
        c.materials,
        c.flags,
    ]


def _link_values(o: Link) -> list[Any]:
    return [o.card, o.effect, o.controller, o.targets, o.negated, o.effect_negated, o.data, o.trigger]


def _attack_values(o: Attack) -> list[Any]:
    return [
        o.attacker,
        o.target,
        o.snapshot,
        o.responded,
        o.replay,
        o.flipped,
        o.calculated,
        o.stopped,
        o.destroyed,
        o.damage,
    ]


def _modifier_values(o: Modifier) -> list[Any]:
    return [o.card, o.stat, o.op, o.value, o.until, o.source, o.turn]


def _trigger_values(o: Trigger) -> list[Any]:
    return [o.card, o.effect, o.controller, o.event, o.mandatory]


def _resolving_values(o: Resolving) -> list[Any]:
    return [o.was, o.destroyed, o.started]


# ``field_values`` written out for the classes a state holds many of or hashes at every action
# (``tests/engine/test_state_packer.py`` checks each against the fields it lists)
_VALUES[Card] = _card_values
_VALUES[Link] = _link_values
_VALUES[Attack] = _attack_values
_VALUES[Modifier] = _modifier_values
_VALUES[Trigger] = _trigger_values
_VALUES[Resolving] = _resolving_values
assert len(_AFTER_PLAYERS) == 27 and len(_hashed(Card)) == 17  # the two functions above list them all
_SKIP_BEFORE: Final = len(_packer().pack_array_header(len(_BEFORE_CARDS)))
_SKIP_AFTER: Final = len(_packer().pack_array_header(len(_AFTER_PLAYERS)))


def _card_bytes(c: Card, packer: msgpack.Packer) -> bytes:
    """The card's entry in the packed ``cards`` map (its id, then the card), cached on the
    card until it is next written (``write_card`` clears ``_packed``)."""
    b: bytes = packer.pack(c.id) + packer.pack(_card_values(c))
    c._packed = b
    return b


def _player_bytes(p: Player, packer: msgpack.Packer) -> bytes:
    b: bytes = packer.pack(p)
    p._packed = b
    return b


def state_hash(state: State) -> str:
    """A stable digest of the whole state (same bytes in every process): sha256 of the
    msgpack of the state, each dataclass packed as the list of its field values.

    Exactly ``full_state_hash``, computed faster: the packed bytes of each card are kept on
    the card while it does not change (most of an action leaves most cards alone, and a
    state shares its unchanged card objects with the state before it), so only the cards an
    action wrote (the players likewise) and the small rest of the state are packed again.
    The digest of the board (everything up to the players) is kept in ``State._memo`` until
    the next fact, and ``engine.decide`` carries it over an action that changes only what
    follows the players (a pass, a new phase: ``carry_board_hash``)."""
    memo = state.memo()
    board = memo.board_hash
    if board is None:
        board = memo.board_hash = BoardDigest(_board_hash(state))
    h = board.sha.copy()
    h.update(_packer().pack(_after_players(state))[_SKIP_AFTER:])
    digest: str = h.hexdigest()[:32]
    return digest


class BoardDigest:
    """A sha256 object fed the packed state up to the end of the players, as ``state_hash``
    keeps it. Never updated: ``state_hash`` updates a copy. So states may share it, and a deep
    copy with it, as any immutable value (a hash object cannot be deep-copied itself)."""

    __slots__ = ("sha",)

    def __init__(self, sha: Any) -> None:
        self.sha = sha

    def __deepcopy__(self, memo: dict[int, Any]) -> BoardDigest:
        return self


def carry_board_hash(old: State, new: State) -> None:
    """Give ``new`` the board digest kept for ``old`` (``state_hash``) if ``new``'s board is
    ``old``'s: ``new`` is the state a Ctx made from ``old`` (``derive``, then a journal closed
    by ``end_in_place``) and owns none of its cards and players, so it wrote none (every write
    goes through ``write_card`` / ``write_player``, which make it own what they write: the same
    rule the cached bytes of each card rely on), and the fields before the cards are the same
    (the options are replaced by the facts, never written)."""
    board = None if old._memo is None else old._memo.board_hash
    if board is None or new._w or len(new.cards) != len(old.cards):
        return
    if new.started != old.started or new.options is not old.options or new.rng != old.rng:
        return
    new.memo().board_hash = board


def _board_hash(state: State) -> Any:
    """A sha256 object fed the packed state up to the end of the players (the cards, the
    players and the fields before them: see ``state_hash``)."""
    packer = _packer()
    cards = state.cards
    parts = [
        _STATE_HEADER,
        packer.pack(list(_before_cards(state)))[_SKIP_BEFORE:],
        packer.pack_map_header(len(cards)),
    ]
    for c in cards.values():
        b = c._packed  # compared with None: ``or`` asks the bytes object for its truth
        parts.append(_card_bytes(c, packer) if b is None else b)
    players = state.players
    parts.append(packer.pack_array_header(len(players)))
    for p in players:
        pb = p._packed
        parts.append(_player_bytes(p, packer) if pb is None else pb)
    return hashlib.sha256(b"".join(parts))
