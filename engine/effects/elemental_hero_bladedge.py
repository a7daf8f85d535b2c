"""Elemental HERO Bladedge: "If this card attacks a Defense Position monster, inflict piercing
battle damage to your opponent." (card text; a Fusion Material of Elemental HERO Wildedge.)

Piercing is applied by damage calculation (``Script.piercing``)."""

from __future__ import annotations

from .api import Script, by_name, register

register(by_name("Elemental HERO Bladedge").code, Script(piercing=True))
