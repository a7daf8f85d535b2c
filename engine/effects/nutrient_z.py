"""Nutrient Z (Normal Trap): "This card can only be activated during your opponent's Damage
Step. During this turn, if you take Battle Damage of 2000 points or more, increase your Life
Points by 4000 points before the damage is subtracted from your Life Points."

Any timing of the opponent's Damage Step, damage calculation included (ruling DS-2; seed 003, OCG Damage
Step, "During damage calculation": "You can activate Nutrient Z"); not in the Battle Step.
The gain itself is applied by damage calculation (``engine.battle.damage_step.calculate``
reads the ``nutrient_z`` flag set here until the end of the turn)."""

from __future__ import annotations

from ..cards import by_name
from ..ctx import Ctx
from ..ops import lingering_flag
from ..state import Card, Link, State
from .base import ALL_DS, Effect, Script, register


def _condition(s: State, card: Card, seat: int) -> bool:
    return s.turn_player != seat and s.step == "damage" and s.attack is not None


def _resolve(ctx: Ctx, link: Link) -> None:
    lingering_flag(ctx, "nutrient_z", link.controller, "turn", link.card)


register(
    by_name("Nutrient Z").code,
    Script(effects=(Effect(kind="trap", speed=2, damage_step=ALL_DS, only_in_damage_step=True, condition=_condition, resolve=_resolve),)),
)
