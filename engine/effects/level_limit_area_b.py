"""Level Limit - Area B (Continuous Spell): "Change all face-up Level 4 or higher monsters to Defense
Position." (card text; ruling GEN-1).

A continuous effect (``Script.forces_defense``): once its activation has resolved and while it is
face-up on the field (ruling CH-7), every face-up Level 4 or higher monster on the field, either
player's, is changed to Defense Position at once whenever it is in Attack Position (one Normal or
Flip Summoned in Attack Position, one flipped by an effect: no chain, ``flow``), and its controller
may not change it to Attack Position (``stats.position_locked``). Being changed by an effect, it is
not the player's once-per-turn change (ruling FMT-3). Its activation needs nothing: it may be
activated with no such monster on the field."""

from __future__ import annotations

from .api import Card, Effect, Script, State, by_name, register


def _forces(s: State, src: Card, monster: Card) -> bool:
    return monster.data.level >= 4


register(
    by_name("Level Limit - Area B").code,
    Script(effects=(Effect(kind="spell", speed=1),), forces_defense=_forces),
)
