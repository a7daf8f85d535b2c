"""Fiend Skull Dragon (Fusion Monster): "(This card is always treated as an "Archfiend" card.)
"Cave Dragon" + "Lesser Fiend" / A Fusion Summon of this monster can only be done with the above
Fusion Material Monsters. Negate the effects of Flip Effect Monsters. Negate any Trap effects
that target this card on the field, and if you do, destroy that Trap Card." (card text).

- Its Fusion Summon condition names its materials only: Metamorphosis (Level 5) and Cyber-Stein
  may Special Summon it (ruling SUM-31).
- While it is face-up on the field, the effects of every Flip Effect Monster (either side) are
  negated (``Script.negates``): their continuous effects do not apply, a face-up one's FLIP effect
  does not activate (``ops.raise_event``), and one already on the chain resolves without effect
  while its monster is still face-up on the field then (ruling CH-8; ``chain._negated_on_field``).
- A Trap effect that targets it is negated as it starts to resolve, and the Trap Card destroyed
  (``Script.on_targeted``): no chain, no activation to negate."""

from __future__ import annotations

from .api import Card, Script, State, by_name, negate_targeting, register


def _negates(s: State, src: Card, card: Card) -> bool:
    return card.data.is_monster and "flip" in card.data.monster_kinds


register(
    by_name("Fiend Skull Dragon").code,
    Script(negates=_negates, on_targeted=negate_targeting("trap")),
)
