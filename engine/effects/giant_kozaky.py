"""Giant Kozaky: "If there is no face-up "Kozaky" on the field, destroy this card. If this
face-up card is destroyed, inflict damage equal to the original ATK of this card to its
current controller."

- Self-destruction is a continuous effect (``self_destroy``), applied by the rules loop. When
  a face-down Giant Kozaky is flipped by an attack, it is not destroyed at once: damage
  calculation is still conducted; if it is destroyed by that battle the effect is not applied;
  if it survives it is destroyed by its effect after damage calculation (ruling DS-3; seed 003, TCG
  "Substep 2" and "Substep 5").
- The damage is a mandatory trigger when it is destroyed face-up (by battle, by an effect or
  by itself)."""

from __future__ import annotations

from typing import Final

from .api import Card, Script, State, burn_when_destroyed_face_up, by_name, register

KOZAKY: Final = by_name("Kozaky").code


def _self_destroy(s: State, card: Card) -> bool:
    return not any(c.code == KOZAKY and c.face_up for c in s.monsters(0) + s.monsters(1))


register(
    by_name("Giant Kozaky").code,
    Script(
        effects=(burn_when_destroyed_face_up(),),
        self_destroy=_self_destroy,
    ),
)
