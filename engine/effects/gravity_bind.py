"""Gravity Bind (Continuous Trap): "Level 4 or higher monsters cannot attack."

A continuous effect while the card is face-up on the field; it applies to both players'
monsters. Xyz Monsters have a Rank, not a Level, so it does not stop them. A monster that must
attack (Berserk Gorilla) still forces its controller to enter the Battle Phase, though Gravity
Bind keeps it from attacking (ruling BP-4; seed 000). "Cannot attack" is more than "cannot
declare an attack": activated in answer to the attack of a Level 4 or higher monster, it stops
that attack (``Script.stops_attacks``; ruling BS-8; seed 003, Battle Step: play goes on to the
Damage Step only as long as the attack can continue). It is a Trap: Elemental HERO Wildheart,
unaffected by Trap effects, attacks anyway (ruling GEN-3)."""

from __future__ import annotations

from .api import Card, Effect, Script, State, by_name, register


def _can_attack(s: State, src: Card, attacker: Card) -> bool:
    d = attacker.data
    return "xyz" in d.monster_kinds or d.level < 4


register(
    by_name("Gravity Bind").code,
    Script(effects=(Effect(kind="trap", speed=2),), can_attack=_can_attack, stops_attacks=True),
)
