"""Plain-data aliases shared by the whole engine.

Actions (what a player asks for) are the classes of ``engine.actions``; ``WireAction`` is an
action as the wire and the Redis log have it (a map, ``engine.actions.parse`` / ``wire``).
Facts (what happened) are the classes of ``engine.facts``; ``WireFact`` is a fact as the wire
and the Redis log have it (``engine.facts.to_wire`` / ``from_wire``).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Final

from .actions import WireAction as WireAction
from .decisions import ChoiceKind as ChoiceKind
from .events import EventKind as EventKind
from .facts import Fact as Fact
from .facts import WireFact as WireFact
from .plain import register

SEATS: Final[tuple[int, ...]] = (0, 1)


def other(seat: int) -> int:
    """The opponent of ``seat``."""
    return 1 - seat


class IllegalAction(Exception):
    """An action the rules do not allow now. Nothing changes.

    ``code`` is namespaced (``action/illegal``, ``action/not_your_priority``,
    ``action/malformed``, ``match/finished``); ``reason`` is for humans.
    """

    def __init__(self, code: str, reason: str) -> None:
        super().__init__(f"{code}: {reason}")
        self.code = code
        self.reason = reason


class CardFlag(StrEnum):
    """Card flags (``Card.flags``, the ``flag`` fact) that the rules read; card modules set them
    through ``engine.ops`` (their own bookkeeping flags are theirs to name)."""

    RETURN_TO = "return_to"  # control returns to this seat when the End Phase starts (ops.take_control)
    BANISH_ON_LEAVE = "banish_on_leave"  # banished whenever it leaves the field (ops.banish_when_it_leaves)
    CANNOT_ATTACK_TURN = "cannot_attack_turn"  # cannot declare an attack in this turn (ops.forbid_attack_this_turn)
    MUST_ATTACK = "must_attack"  # [turn, Battle Phase]: must attack in it (ops.restrict_attack)
    ATTACK_ONLY = "attack_only"  # [turn, Battle Phase, card]: may attack only that card (ops.restrict_attack)
    EQUIP_ATK = "equip_atk"  # an Equip Card "with this effect": the equipped monster gains this (ops.equip)
    EQUIP_DEF = "equip_def"
    ACTIVATE_FROM_GRAVE = "activate_from_grave"  # turn: its activation may be made from the Graveyard
    EXTRA_ATTACK = "extra_attack"  # [turn, Battle Phase]: it may attack once more in it (Black Luster Soldier)
    NO_TRIBUTE = "no_tribute"  # turn: it cannot be Tributed in this turn (Mind Control)
    NO_POSITION_CHANGE = "no_position_change"  # turn: it cannot change its battle position in this turn (Creature Swap)
    # Normal Summoned or Set without the Tributes its Level needs (Fusilier Dragon): its original
    # ATK and DEF are halved while it is on the field (a hidden flag: a Set card shows nothing)
    HALVED_ORIGINAL = "halved_original"
    # kept by the fold (``engine.apply``) for every card: [turn, Battle Phase] in which it declared
    # an attack or was chosen as an attack target; the monsters it attacked in this Battle Phase;
    # [turn, Battle Phase] in which it was sent to the Graveyard from the field by battle
    BATTLED = "battled"
    ATTACKED_TARGETS = "attacked_targets"
    BATTLE_SENT = "battle_sent"


class LingeringFlag(StrEnum):
    """Lingering flags (``ops.lingering_flag``: a ``modifier`` fact with op "flag") that the rules
    read; the value names a seat or a card."""

    NO_BATTLE_DAMAGE = "no_battle_damage"  # seat: takes no battle damage (Kuriboh, Waboku)
    BATTLE_INDESTRUCTIBLE_ALL = "battle_indestructible_all"  # seat: its monsters cannot be destroyed by battle (Waboku)
    NO_ATTACK_DECLARATION = "no_attack_declaration"  # seat: its monsters cannot declare an attack (Threatening Roar)
    RESUME_PHASE = "resume_phase"  # index in the turn (flow.PHASE_ORDER): a special Battle Phase returns to it
    NO_SUMMONS = "no_summons"  # seat: may not Normal Summon, Set, Flip Summon or Special Summon (Scapegoat)


# The names of the turn's parts, of places and of positions. Their values are the strings of the
# logs and the wire (``State.phase`` ... hold them); the members let mypy catch a misspelt one.
# ``tests/engine/test_turn_table.py`` keeps them equal to ``engine.state``'s tuples.


class Phase(StrEnum):
    DRAW = "draw"
    STANDBY = "standby"
    MAIN1 = "main1"
    BATTLE = "battle"
    MAIN2 = "main2"
    END = "end"


class Step(StrEnum):
    """The steps of the Battle Phase (``State.step``)."""

    START = "start"
    BATTLE = "battle"
    DAMAGE = "damage"
    END = "end"


class Timing(StrEnum):
    """The five timings of the Damage Step (``State.damage_step``; ruling DS-1)."""

    START = "start_of_damage_step"
    BEFORE_CALC = "before_damage_calculation"
    DURING_CALC = "during_damage_calculation"
    AFTER_CALC = "after_damage_calculation"
    END = "end_of_damage_step"


class Zone(StrEnum):
    DECK = "deck"
    HAND = "hand"
    MONSTERS = "monsters"
    SPELLS_TRAPS = "spells_traps"
    FIELD = "field"
    GRAVEYARD = "graveyard"
    BANISHED = "banished"
    EXTRA = "extra"
    XYZ_MATERIAL = "xyz_material"
    GONE = "gone"  # a Token that left the field: it no longer exists (in no zone; ``ops.move``)


class Position(StrEnum):
    ATTACK = "attack"
    DEFENSE = "defense"


register((CardFlag, LingeringFlag, Phase, Step, Timing, Zone, Position, ChoiceKind, EventKind))  # engine.plain's table

FINISH: Final = "finish"
"""The intent of ``finish_turn`` (``State.intent``): the turn player passes every window of the
turn left to it (``engine.flow``); carried from phase to phase by ``Priority`` facts."""

MAIN_PHASES: Final = frozenset({Phase.MAIN1, Phase.MAIN2})  # Spell Speed 1 and Main Phase actions
