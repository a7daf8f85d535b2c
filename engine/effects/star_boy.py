"""Star Boy: "As long as this card remains face-up on the field, increase the ATK of all WATER
monsters by 500 points and decrease the ATK of all FIRE monsters by 400 points."

A continuous effect; when a face-down Star Boy is flipped face-up by an attack in the Damage
Step it applies at once, to that very battle (ruling DS-3; seed 003, TCG "Substep 2": "This includes the
Continuous Effects of monsters like Star Boy, Hoshiningen, Jinzo, and Spell Canceller")."""

from __future__ import annotations

from .api import Card, Script, State, attributes, by_name, register


def _stat(s: State, src: Card, c: Card) -> tuple[int, int]:
    attrs = attributes(s, c)
    return (500 if "WATER" in attrs else 0) - (400 if "FIRE" in attrs else 0), 0


register(by_name("Star Boy").code, Script(stat=_stat))
