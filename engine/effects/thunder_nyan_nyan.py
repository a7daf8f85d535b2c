"""Thunder Nyan Nyan: "If there is a non-LIGHT monster on your side of the field, destroy this
face-up card."

A continuous self-destruction (``self_destroy``; face-down monsters have no Attribute to
count). When a face-down Thunder Nyan Nyan is flipped by an attack it is not destroyed at once:
damage calculation is still conducted; if it is destroyed by that battle the effect is not
applied (it is destroyed by battle); if it survives it is destroyed by its effect after damage
calculation (ruling DS-3; seed 003, TCG "Substep 2" and "Substep 5")."""

from __future__ import annotations

from .api import Card, Script, State, attributes, by_name, register


def _self_destroy(s: State, card: Card) -> bool:
    return any(m.face_up and "LIGHT" not in attributes(s, m) for m in s.monsters(card.controller) if m.id != card.id)


register(by_name("Thunder Nyan Nyan").code, Script(self_destroy=_self_destroy))
