"""Gravity Bind (Continuous Trap): "Level 4 or higher monsters cannot attack."

A continuous effect while the card is face-up on the field; it applies to both players'
monsters. Xyz Monsters have a Rank, not a Level, so it does not stop them. A monster that must
attack (Berserk Gorilla) still forces its controller to enter the Battle Phase, though Gravity
Bind keeps it from attacking (ruling BP-4; seed 000)."""

from __future__ import annotations

from ..cards import by_name
from ..state import Card, State
from .base import Effect, Script, register


def _can_attack(s: State, src: Card, attacker: Card) -> bool:
    d = attacker.data
    return "xyz" in d.monster_kinds or d.level < 4


register(
    by_name("Gravity Bind").code,
    Script(effects=(Effect(kind="trap", speed=2),), can_attack=_can_attack),
)
