"""Zombie Mammoth: "Destroy this card if you do not have a Zombie-Type monster in your
Graveyard. When this face-up card is destroyed, inflict damage to its controller equal to its
original ATK."

- Self-destruction is a continuous effect (``self_destroy``). When a face-down Zombie Mammoth
  is flipped by an attack, it is not destroyed at once: damage calculation is still conducted;
  if it is destroyed by that battle the effect is not applied; if it survives it is destroyed
  by its effect after damage calculation (ruling DS-3; seed 003, TCG "Substep 2" and "Substep 5").
- The damage is a mandatory trigger when it is destroyed face-up."""

from __future__ import annotations

from .api import Card, Script, State, burn_when_destroyed_face_up, by_name, register


def _self_destroy(s: State, card: Card) -> bool:
    grave = s.players[card.controller].graveyard
    return not any(s.cards[c].data.is_monster and s.cards[c].data.type == "Zombie" for c in grave)


register(
    by_name("Zombie Mammoth").code,
    Script(
        effects=(burn_when_destroyed_face_up(),),
        self_destroy=_self_destroy,
    ),
)
