"""Earthbound Immortal Uru: "There can only be 1 face-up "Earthbound Immortal" monster on the
field. If there is no face-up Field Spell Card on the field, destroy this card. Your opponent
cannot select this card as an attack target. This card can attack your opponent directly. Once
per turn, you can Tribute 1 monster, except this card, to select and take control of 1 face-up
monster your opponent controls, until the End Phase."

- It cannot be chosen as an attack target: when it is the opponent's only monster they have no
  valid attack target, may still enter the Battle Phase (seed 000, "Entering the Battle Phase"),
  and cannot attack directly (they control a monster).
- It may attack directly even while the opponent controls monsters.
- Without a face-up Field Spell on the field it destroys itself (continuous).
- The control effect is an Ignition Effect: the Tribute is its cost, the monster is chosen
  (targeted) at activation, control returns in the End Phase (``flow._return_control``).
- "Only 1 face-up Earthbound Immortal": the card pool holds no other Earthbound Immortal, so
  the rule is not enforced (documented)."""

from __future__ import annotations

from ..cards import by_name
from ..state import Card, State
from ..types import other
from .base import Effect, Script, register
from .common import each, face_up_monsters, take_control_until_end_phase, tribute_cost


def _self_destroy(s: State, card: Card) -> bool:
    return not any(s.cards[f].face_up for seat in (0, 1) if (f := s.players[seat].field_zone) is not None)


def _can_be_attacked(s: State, src: Card, target: Card, attacker: Card) -> bool:
    return not (target.id == src.id and attacker.controller != src.controller)


def _direct(s: State, src: Card, attacker: Card) -> bool:
    return attacker.id == src.id


def _targets(s: State, card: Card, seat: int) -> list[list[int]]:
    return each(face_up_monsters(s, other(seat)))


def _tribute_options(s: State, card: Card, seat: int) -> list[list[int]]:
    return [[c.id] for c in s.monsters(seat) if c.id != card.id]


register(
    by_name("Earthbound Immortal Uru").code,
    Script(
        effects=(
            Effect(
                kind="ignition",
                speed=1,
                once_per="turn",
                targets=_targets,
                cost_options=_tribute_options,
                cost=tribute_cost,
                resolve=take_control_until_end_phase,
                label="take control",
            ),
        ),
        self_destroy=_self_destroy,
        can_be_attacked=_can_be_attacked,
        direct_attack=_direct,
    ),
)
