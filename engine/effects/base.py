"""The effect framework: a card is its facts plus a ``Script`` of effects.

An ``Effect`` is data (kind, spell speed, the event or timing it answers,
where in the Damage Step it may be activated, once-per limits) plus four small
functions: ``condition``, ``targets``, ``cost`` and ``resolve``. Cost and
resolve emit facts through the context; none of them mutates state directly.

Continuous effects are hooks on the ``Script`` (``stat``, ``can_attack``,
``locks`` ...) that the rules query; they are computed from the face-up cards
every time, never stored, so removing the source removes the effect.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

from ..events import GameEvent
from ..state import Card, Link, State
from ..types import EventKind, Timing

if TYPE_CHECKING:
    from ..ctx import Ctx

Condition = Callable[[State, Card, int], bool]
Targets = Callable[[State, Card, int], list[list[int]]]
Cost = Callable[["Ctx", Card, int, dict[str, Any]], None]
Resolve = Callable[["Ctx", Link], None]
CostOptions = Callable[[State, Card, int], list[list[int]]]

ALL_DS: Final = frozenset(Timing)
STAT_CHANGE_DS: Final = frozenset({Timing.START, Timing.BEFORE_CALC})
# from the start of the Damage Step up to the end of damage calculation (Honest: "during either
# player's Damage Step, up to the end of the Damage Calculation")
UP_TO_CALC: Final = frozenset({Timing.START, Timing.BEFORE_CALC, Timing.DURING_CALC})
DURING_CALC: Final = frozenset({Timing.DURING_CALC})
AFTER_CALC: Final = frozenset({Timing.AFTER_CALC})
# "When ... is destroyed by battle and sent to the Graveyard" cards: the window at the end of the
# Damage Step (ruling DS-9, LF-3)
END_OF_DS: Final = frozenset({Timing.END})


def always(state: State, card: Card, seat: int) -> bool:
    return True


def no_targets(state: State, card: Card, seat: int) -> list[list[int]]:
    return [[]]


def nothing(ctx: Ctx, link: Link) -> None:
    return None


@dataclass(frozen=True)
class Effect:
    """One activatable or trigger effect of a card.

    kind: ``spell`` / ``trap`` (the card's own activation), ``quick``,
    ``ignition``, ``trigger``, ``flip``.
    event: for "When ..." effects, the event kind it answers
    (``attack_declared``, ``trap_activated``, ``activation``, ...); it may
    then be activated only while a chain answers that event.
    damage_step: the Damage Step timings in which it may be activated
    (ruling DS-2; seed 003: only cards that say so, or that negate them).
    """

    kind: str
    speed: int = 1
    event: EventKind | None = None
    damage_step: frozenset[Timing] = frozenset()
    condition: Condition = always
    targets: Targets = no_targets
    cost_options: CostOptions | None = None
    cost: Cost | None = None
    resolve: Resolve = nothing
    once_per: str | None = None  # turn | battle | duel | chain
    optional: bool = True  # triggers: mandatory when False
    negates: bool = False  # negates an activation (may answer "during damage calculation")
    # negates a Summon: may be activated while a monster would be Summoned (the ``summoning``
    # window, where nothing else may be; Solemn Judgment); its resolve calls ``ops.negate_summon``
    negates_summon: bool = False
    # with ``event=SUMMONED``: it may also answer a Special Summon made while a chain resolved, in
    # the window after that chain (ruling SUM-4: Torrential Tribute; Trap Hole may not)
    answers_chain_summons: bool = False
    # usable only inside the Damage Step, in its ``damage_step`` timings ("during damage
    # calculation" cards such as Injection Fairy Lily and Kuriboh; Honest)
    only_in_damage_step: bool = False
    from_hand: bool = False  # activated from the hand (Kuriboh, Honest)
    from_grave: bool = False
    trigger_on: EventKind | None = None  # trigger effects: the event kind
    trigger_match: Callable[[State, Card, GameEvent], bool] | None = None
    label: str = ""
    # what the player picks at activation without targeting (an Attribute, a battle position,
    # a card from the Deck): options like ``targets`` (each inner list is one choice of card ids
    # or values; [] = cannot be activated); the pick is ``link.data["choose"]``. Also offered
    # for trigger effects. Only for selections the text makes at activation: the others are
    # made as the effect resolves (``choices.ask_cards``, ruling SEL-1).
    choices: Callable[[State, Card, int], list[list[Any]]] | None = None
    # "Target up to N": after the first target (``targets`` lists the single ones), its player may
    # pick up to this many more, one at a time, as it is activated (``chain``: the ``targeted``
    # fact); an "up to 5" list of every combination would be too long to offer (Soul Release)
    more_targets: int = 0
    # (s, card, seat, targets, cost): whether a choice of targets goes with a choice of cost, for a
    # text that pays its cost before it targets ("Send 2 Spell Cards ..., then target 1 Spell Card
    # in your Graveyard": Spell Reproduction may target a Spell it sent); None: any pair goes
    fits: Callable[[State, Card, int, list[int], list[int]], bool] | None = None
    # event kinds whose pending trigger effects this card may be activated ahead of (Flashbang:
    # "battle_damage", ruling DS-8); they wait while its chain resolves
    ahead_of: frozenset[str] = frozenset()
    # an optional "When ...: You can" trigger: it activates only if its event was the last thing
    # that happened; when something else happens before it could be activated (the next link of
    # the chain resolves, or the effect goes on after the event: ``ops.miss_timing``), it misses
    # the timing (ruling CH-12). Mandatory triggers and "If ..." triggers never miss it.
    misses_timing: bool = False
    # the ways to activate it when its choice decides whether it targets (Dark Scorpion - Cliff
    # the Trap Remover: "activate 1 of these effects"): each one (targets, choose); it replaces
    # ``targets`` x ``choices``
    modes: Callable[[State, Card, int], list[tuple[list[int], list[Any]]]] | None = None


@dataclass(frozen=True)
class Lingering:
    """A rule that a resolved effect leaves in force after its card has gone: the effect sets the
    lingering flag ``name`` for a seat (``ops.lingering_flag(ctx, name, seat, until, source)``)
    and the rules call these hooks while the flag holds for that seat, once per flag name."""

    name: str
    # (ctx, seat, amount): just before ``amount`` battle damage is subtracted from ``seat``'s LP
    # (Nutrient Z gains 4000 LP first; ruling DS-7)
    before_battle_damage: Callable[[Ctx, int, int], None] | None = None


@dataclass(frozen=True)
class Script:
    effects: tuple[Effect, ...] = ()
    # continuous effects, computed on demand (the source card is face-up on the field)
    stat: Callable[[State, Card, Card], tuple[int, int]] | None = None
    can_attack: Callable[[State, Card, Card], bool] | None = None  # False forbids
    # its ``can_attack`` says "cannot attack" (Gravity Bind), not only "cannot declare an
    # attack" (Swords of Revealing Light): an attack declared before it applied stops (BS-8)
    stops_attacks: bool = False
    can_be_attacked: Callable[[State, Card, Card, Card], bool] | None = None  # (src, target, attacker)
    locks: Callable[[State, Card, Card, int], bool] | None = None  # True forbids activation
    must_attack: Callable[[State, Card, Card], bool] | None = None
    direct_attack: Callable[[State, Card, Card], bool] | None = None
    banish_instead_of_grave: bool = False
    self_destroy: Callable[[State, Card], bool] | None = None  # while face-up on the field
    # continuous negation of other cards' effects (Jinzo: Trap effects; Spell Canceller: Spells)
    negates: Callable[[State, Card, Card], bool] | None = None
    # this card (or, with a source, another) cannot be destroyed by battle
    battle_indestructible: Callable[[State, Card, Card], bool] | None = None
    # (src, card): the card cannot be destroyed by card effects (Tiras, Keeper of Genesis)
    effect_indestructible: Callable[[State, Card, Card], bool] | None = None
    # replaces destruction by battle (Des Mosquito removes a counter instead): returns True if replaced
    replace_battle_destruction: Callable[[Ctx, Card], bool] | None = None
    # extra Attributes while face-up (Light and Darkness Dragon is also DARK)
    attributes: Callable[[State, Card], tuple[str, ...]] | None = None
    # rule bookkeeping: called for every raised event of a kind in ``watch_on`` (empty: of every
    # kind), from any zone; emits facts only, no chain
    watch: Callable[[Ctx, Card, GameEvent], None] | None = None
    # the event kinds ``watch`` looks at: ``raise_event`` calls it for those only (it is called
    # for every event of the duel otherwise; tests/engine/test_watchers.py keeps it the kinds the
    # function compares the event's kind with)
    watch_on: frozenset[EventKind] = frozenset()
    # called (from any zone) as a chain link that targets this card starts to resolve, with the
    # link's 1-based number; may negate it (Desrook Archfiend's die roll)
    on_targeted: Callable[[Ctx, Card, Link, int], None] | None = None
    # (src, monster): True forbids the monster's controller to change its battle position (a
    # change of position or a Flip Summon; Thousand-Eyes Restrict: "other monsters cannot change
    # their battle positions"); effects may still change it
    no_position_change: Callable[[State, Card, Card], bool] | None = None
    # (src, target, card, seat): True when ``seat`` may not target ``target`` with an effect of
    # ``card`` (King Dragun: "Your opponent cannot select any Dragon-Type monsters as the target(s)
    # of Spell, Trap, or Monster Card effects"); the activation's target choices leave it out
    untargetable: Callable[[State, Card, Card, Card, int], bool] | None = None
    # (src, seat): the Monster Zones (slots 0-4) of ``seat`` that cannot be used while the card
    # is face-up on the field (Ojama King; ``stats.free_zone_slots``)
    locks_zones: Callable[[State, Card, int], tuple[int, ...]] | None = None
    # called (from any zone) once a chain link that targeted this card has resolved, unless its
    # activation was negated (Spirit Reaper: "Destroy this card when it is targeted")
    after_targeted: Callable[[Ctx, Card, Link], None] | None = None
    # (src, monster): the face-up monster must be in Defense Position (Level Limit - Area B): the
    # rules change it to Defense Position at once (``flow``) and its controller may not change it
    forces_defense: Callable[[State, Card, Card], bool] | None = None
    # continuous: (src, card, seat): True forbids ``seat`` to Set ``card``, a monster or a Spell/Trap
    # (Prohibition)
    cannot_set: Callable[[State, Card, Card, int], bool] | None = None
    # continuous: True forbids ``seat`` to Summon ``monster`` ("normal" or "special") (Tualatin)
    cannot_summon: Callable[[State, Card, Card, int, str], bool] | None = None
    # a Special Summon from the hand by the card's own procedure (Fenrir): the cost choices
    # (cards to banish/tribute; [] = not possible now), and paying the chosen one
    procedure: Callable[[State, Card, int], list[list[int]]] | None = None
    procedure_cost: Callable[[Ctx, Card, int, list[int]], None] | None = None
    # rules that this card's resolved effects leave in force (Nutrient Z), by lingering flag name
    lingering: tuple[Lingering, ...] = ()
    # properties of the card itself, read by the rules
    piercing: bool = False  # "inflict piercing battle damage" (Elemental HERO Bladedge; damage calculation)
    # "can attack every monster your opponent controls (one attack on each)" (Wildedge; ruling BS-6)
    attack_all: bool = False
    # "After this card's activation, it remains on the field" (Swords of Revealing Light)
    remains_on_field: bool = False
    cannot_special_summon: bool = False  # "Cannot be Special Summoned" (Light and Darkness Dragon)
    # "There can only be 1 face-up <name> monster on the field" (Earthbound Immortal; ruling SUM-2)
    unique_face_up: str | None = None
    # "unaffected by Trap effects" (Wildheart): the card kinds (trap, spell, monster) whose effects
    # do not apply to it while it is face-up on the field
    unaffected_by: frozenset[str] = frozenset()
    spell_counters: int = 0  # Spell Counters it can hold ("max. 1": Breaker the Magical Warrior)
    # "Any damage to this card's controller caused as a result of battle involving this monster
    # becomes 0" (Dark Flare Knight; ``stats.no_battle_damage``)
    shields_controller: bool = False
    # "cannot be Tributed for a Tribute Summon" (Scapegoat's Sheep Tokens, Ojama Trio's Ojama Tokens)
    no_tribute_summon: bool = False
    # "If this face-up card would leave the field, banish it instead" (Dark Magician of Chaos)
    banished_when_leaving: bool = False
    # "Banish any monster this card destroys by battle, instead of sending it to the Graveyard"
    banishes_battle_destroyed: bool = False
    # "You can Normal Summon or Set this card without Tributing. If you do, its original ATK and
    # DEF are halved" (Fusilier Dragon, the Dual-Mode Beast; ``main_phase``)
    summon_without_tribute: bool = False
    # "This card cannot attack a player directly" (Zombyra the Dark; ``battle_step.targets_for``)
    no_direct_attack: bool = False
    # (src, seat): ``seat`` cannot banish cards from either Graveyard while ``src`` is face-up
    # (Kycoo the Ghost Destroyer; ``stats.may_banish_from_grave``)
    forbids_banish_from_grave: Callable[[State, Card, int], bool] | None = None
    # derived from ``effects`` (never passed): the effects a player activates (not trigger or
    # FLIP effects, which activate by themselves), each with its 1-based index
    activatable: tuple[tuple[int, Effect], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        mine = tuple((i, e) for i, e in enumerate(self.effects, start=1) if e.kind not in ("trigger", "flip"))
        object.__setattr__(self, "activatable", mine)  # a frozen dataclass sets its derived fields so

    def __deepcopy__(self, memo: dict[int, Any]) -> Script:
        return self  # one per card, registered once: a deep copy of a state that reaches it shares it


SCRIPTS: Final[dict[int, Script]] = {}


# lingering rules by flag name (``Script.lingering``), in registration order
LINGERING: Final[dict[str, Lingering]] = {}


def register(code: int, script: Script) -> Script:
    SCRIPTS[code] = script
    for rule in script.lingering:
        LINGERING[rule.name] = rule
    return script


def script_of(card: Card) -> Script | None:
    return SCRIPTS.get(card.data.key)  # the passcode as an object (``CardData.key``): no new int


def effects_of(card: Card) -> tuple[Effect, ...]:
    sc = SCRIPTS.get(card.data.key)
    return sc.effects if sc else ()
