"""Hoshiningen: "As long as this card remains face-up on the field, increase the ATK of all
LIGHT monsters by 500 points and decrease the ATK of all DARK monsters by 400 points."

A continuous effect; when a face-down Hoshiningen is flipped face-up by an attack in the Damage
Step it applies at once, to that very battle (ruling DS-3; seed 003, TCG "Substep 2"). A monster with both
Attributes (Light and Darkness Dragon, also DARK while face-up) gets both changes."""

from __future__ import annotations

from .api import Card, Script, State, attributes, by_name, register


def _stat(s: State, src: Card, c: Card) -> tuple[int, int]:
    attrs = attributes(s, c)
    return (500 if "LIGHT" in attrs else 0) - (400 if "DARK" in attrs else 0), 0


register(by_name("Hoshiningen").code, Script(stat=_stat))
