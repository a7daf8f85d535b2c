"""The duel state: plain, serializable data.

Cards are kept by instance id in ``State.cards``; zones hold ids. Nothing here
has behaviour beyond small lookups: the rules live in the other modules and
change the state only through facts (``engine.apply``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from .card_data import CardData
from .cards import CARDS
from .decisions import PendingChoice
from .events import GameEvent
from .kernel.caches import CACHE, SHARED_CACHE, Board, Memo, Roster, equips_of, face_up_field, field_cards, monsters
from .types import Phase, Position, Step, Timing, Zone

IMMUTABLE: Final = {"shared": True}
"""Field metadata of a container that is replaced, never changed in place: copies share it."""
NO_COUNTERS: Final[Mapping[str, int]] = {}
NO_MATERIALS: Final[Sequence[int]] = []
NO_FLAGS: Final[Mapping[str, Any]] = {}
"""The empty values a card starts with (shared: a ``Mapping``/``Sequence`` cannot be written)."""


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
    # the kernel's (engine.kernel; never hashed, compared, shown or snapshotted): what was worked
    # out from this card while it does not change, and its card data looked up once
    _memo: dict[Any, Any] | None = field(default=None, init=False, repr=False, compare=False, metadata=CACHE)
    _packed: bytes | None = field(default=None, init=False, repr=False, compare=False, metadata=CACHE)
    _data: CardData | None = field(default=None, init=False, repr=False, compare=False, metadata=SHARED_CACHE)

    @property
    def data(self) -> CardData:
        """The card's printed facts (``engine.cards.CARDS`` by its passcode)."""
        d = self._data
        if d is None:
            d = self._data = CARDS[self.code]
        return d

    @property
    def on_field(self) -> bool:
        return self.zone in (Zone.MONSTERS, Zone.SPELLS_TRAPS, Zone.FIELD)


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
    # the kernel's (engine.kernel), as ``Card``'s
    _packed: bytes | None = field(default=None, init=False, repr=False, compare=False, metadata=CACHE)
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
    event: GameEvent
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
    event: GameEvent | None = None  # the event the current chain answers
    chain: list[Link] = field(default_factory=list)
    resolving: Resolving | None = None  # the chain is resolving (see Resolving)
    chains_in_timing: int = 0
    chain_no: int = 0  # chains resolved so far in the duel ("once per chain")
    next_turn: list[dict[str, Any]] = field(default_factory=list)  # effects waiting for a player's next turn
    attack: Attack | None = None
    modifiers: list[Modifier] = field(default_factory=list)
    triggers: list[Trigger] = field(default_factory=list)
    choice: PendingChoice | None = None  # a pending choice: {"seat", "kind", ...}
    # the monsters each player controlled at the start of the current Battle Phase (Tualatin)
    start_step_monsters: list[list[int]] = field(default_factory=lambda: [[], []])
    used: dict[str, int] = field(default_factory=dict)  # once-per-turn/battle keys -> turn
    winner: int | str | None = None
    end_reason: str | None = None
    seq: int = 0  # facts applied
    # the kernel's (engine.kernel; never hashed, compared or snapshotted): how facts may write
    # this state (copy-on-write, ADR 0006) and what was worked out from it and is kept with it
    _w: Any = field(default=None, init=False, repr=False, compare=False, metadata=CACHE)
    _memo: Memo | None = field(default=None, init=False, repr=False, compare=False, metadata=CACHE)
    _roster: Roster | None = field(default=None, init=False, repr=False, compare=False, metadata=SHARED_CACHE)
    _board: Board | None = field(default=None, init=False, repr=False, compare=False, metadata=SHARED_CACHE)

    @property
    def finished(self) -> bool:
        return self.winner is not None

    def card(self, cid: int) -> Card:
        return self.cards[cid]

    def monsters(self, seat: int) -> list[Card]:
        """The monsters ``seat`` controls, in zone order (a new list)."""
        return monsters(self, seat)

    def spells_traps(self, seat: int) -> list[Card]:
        cards = self.cards
        return [cards[c] for c in self.players[seat].spells_traps if c is not None]

    def field_cards(self, seat: int | None = None) -> list[Card]:
        """The cards on ``seat``'s side of the field (both sides: None), a new list."""
        return field_cards(self, seat)

    def equips_of(self, card: Card) -> list[Card]:
        """The cards equipped to ``card`` (wherever they are), in card order (a new list)."""
        return equips_of(self, card)

    def face_up_field(self) -> list[Card]:
        """The face-up cards on both sides of the field. Read only: never change the list."""
        return face_up_field(self)
