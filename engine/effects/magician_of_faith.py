"""Magician of Faith: "FLIP: Target 1 Spell Card in your Graveyard; add that target to your hand."

The FLIP monsters' shared effect (``families.flip_adds_from_graveyard``): a mandatory FLIP effect
(flipped by a Flip Summon, by an attack after damage calculation, ruling DS-3, or by an effect)
that targets as it is activated: with several Spells its controller picks one, with none it does
not activate (ruling GEN-4); a target gone from the Graveyard when it resolves is not added
(ruling CH-3)."""

from __future__ import annotations

from .api import Card, Script, by_name, flip_adds_from_graveyard, register


def _spell(c: Card) -> bool:
    return c.data.is_spell


register(
    by_name("Magician of Faith").code,
    Script(effects=(flip_adds_from_graveyard(_spell, "add a Spell from the Graveyard"),)),
)
