"""Skyscraper (Field Spell): "When an "Elemental HERO" monster attacks, if its ATK is lower than
the ATK of the attack target, the attacking monster gains 1000 ATK during damage calculation
only." A continuous effect, re-checked as the damage-calculation chain resolves: after
Injection Fairy Lily reaches 3400 ATK, Wildedge becomes 3600 (ruling DS-10; seed 003, Example 3).
A face-down attack target shows no ATK to compare with (ruling DS-13)."""

from __future__ import annotations

from typing import Final

from .api import Card, Effect, Script, State, Timing, Zone, atk, by_name, register

CODE: Final = by_name("Skyscraper").code


def _stat(s: State, src: Card, c: Card) -> tuple[int, int]:
    a = s.attack
    if a is None or a.attacker != c.id or a.target is None or s.damage_step != Timing.DURING_CALC:
        return 0, 0
    if not c.data.name.startswith("Elemental HERO"):
        return 0, 0
    target = s.cards[a.target]
    if target.zone != Zone.MONSTERS or not target.face_up:
        return 0, 0
    # compare without any Skyscraper's bonus (two copies, one per player, must not recurse)
    skies = frozenset(x.id for x in s.face_up_field() if x.code == CODE)
    if atk(s, c, exclude=skies) < atk(s, target, exclude=skies):
        return 1000, 0
    return 0, 0


register(CODE, Script(effects=(Effect(kind="spell", speed=1),), stat=_stat))
