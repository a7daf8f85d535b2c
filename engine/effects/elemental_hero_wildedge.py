"""Elemental HERO Wildedge: ""Elemental HERO Wildheart" + "Elemental HERO Bladedge". Must be
Fusion Summoned and cannot be Special Summoned by other ways. This card can attack every
monster your opponent controls (one attack on each monster per Battle Phase)."

The attack rule is ``Script.attack_all`` (``engine.battle.battle_step``; ruling BS-6): one attack on each monster
the opponent controls, never twice on the same one, and no direct attack once it has attacked.
Its Summon rule (ruling SUM-1, ``stats.can_summon``): only Polymerization's Fusion Summon brings
it from the Extra Deck; another effect (Monster Reborn, Time Machine, Goyo Guardian) may
Special Summon it only once it was properly Summoned."""

from __future__ import annotations

from .api import Script, by_name, register

register(by_name("Elemental HERO Wildedge").code, Script(attack_all=True))
