"""The events of the rules: what trigger effects answer and "When ..." effects respond to.

``ops.raise_event`` raises a ``GameEvent`` for the trigger effects that answer its kind; the
event a chain may answer is ``State.event`` (the ``event`` fact). Both are plain dicts at run
time (the ``event`` and ``triggered`` facts hold them as they are, so the log does not change);
``GameEvent`` and ``LeftCard`` type their keys.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Required, TypedDict


class EventKind(StrEnum):
    """The kinds of event (``ops.raise_event``'s ``kind``, ``State.event``'s): what trigger effects
    answer (``Effect(trigger_on=...)``) and "When ..." effects respond to (``Effect(event=...)``).
    Their values are the strings of the ``event`` fact."""

    ATTACK_DECLARED = "attack_declared"
    SUMMONED = "summoned"
    SUMMONING = "summoning"
    """A monster would be Summoned (``main_phase.summon``, ``flip_summon``, a Summon by a card's own
    procedure): it is on the field, its Summon not yet done. Only effects that negate a Summon
    (``Effect(negates_summon=True)``: Solemn Judgment) may be activated in this window; when both
    players pass it, or its chain has resolved without negating it, the monster is Summoned
    (``main_phase.complete_summon``) and the ``summoned`` window follows."""
    FLIPPED = "flipped"
    ACTIVATED = "activated"
    CHAIN_RESOLVED = "chain_resolved"
    DESTROYED = "destroyed"  # with ``reason`` (battle/effect), ``by``, ``to``
    SENT_TO_GRAVE = "sent_to_grave"
    PHASE_START = "phase_start"  # with ``phase``
    BATTLE_PHASE_START = "battle_phase_start"
    BATTLE_PHASE_END = "battle_phase_end"
    DAMAGE_STEP_START = "damage_step_start"
    BEFORE_DAMAGE_CALCULATION = "before_damage_calculation"
    DAMAGE_CALCULATION = "damage_calculation"
    AFTER_DAMAGE_CALCULATION = "after_damage_calculation"
    BATTLE_DAMAGE = "battle_damage"
    DAMAGE_STEP_END = "damage_step_end"
    LEFT_FIELD = "left_field"
    """The "When ... leaves the field" window after a move (``chain.note_left_field``): the
    ``event`` fact's ``cards`` lists every card that left, for the Traps that answer it
    (``Effect(event=EventKind.LEFT_FIELD)``)."""
    CARD_LEFT_FIELD = "card_left_field"
    """One card left the field (``ops.move``; its ``card``, ``to``, ``controller``): raised for
    trigger effects of that card only (``Effect(trigger_on=EventKind.CARD_LEFT_FIELD)``, Alien
    Mother); never a window a Trap answers."""


class LeftCard(TypedDict, total=False):
    """One card of a ``left_field`` window (``chain.note_left_field``): where it was and went."""

    card: int
    controller: int
    owner: int
    to: str
    position: str
    face_up: bool
    reason: str
    destroyed: bool
    by: int | None


class GameEvent(TypedDict, total=False):
    """An event; which keys it has depends on its ``kind`` (docs/cards-howto.md lists them)."""

    kind: Required[str]  # an EventKind value
    card: int
    seat: int
    controller: int
    how: str  # summoned: normal, tribute, special, flip, fusion, set
    came_from: str  # summoned by an effect: the zone it was Special Summoned from (Card of Safe Return)
    summoner: int  # summoned (a Token): the player who Summoned it, maybe not its controller (Ojama Trio)
    link: int  # activated: its chain link
    phase: str  # phase_start
    attacker: int
    target: int | None
    by_attack: bool  # flipped: by an attack
    to: str  # where the card went
    reason: str  # destroyed, sent_to_grave: battle, effect, cost, rule ...
    by: int | None  # the card that destroyed or sent it
    from_field: bool
    from_zone: str  # sent_to_grave: the zone it was sent from (Night Assailant: "from the hand")
    face_up: bool
    position: str
    equip_spell: bool  # it left the field as an Equip Spell Card (ruling EQ-1)
    equipped_to: int  # destroyed, card_left_field: the monster the card equipped as it left
    amount: int  # battle_damage
    destroyed: list[int]  # after_damage_calculation, damage_step_end: the monsters battle destroyed
    calculated: bool
    cards: list[LeftCard]  # left_field: every card that left
    left: list[LeftCard]  # another window's event: the cards that left the field meanwhile
    soft: bool  # a window the next action closes unless it answers it
    was: list[list[Any]]  # summoning: the monsters on the field before the Summon (its Tributes' window)
