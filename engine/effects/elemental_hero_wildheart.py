"""Elemental HERO Wildheart: "This card is unaffected by Trap effects." (card text; a Fusion
Material of Elemental HERO Wildedge.)

``Script.unaffected_by`` (``engine.stats.unaffected``): while it is face-up on the field, Trap
effects that destroy it or change its ATK/DEF do not apply to it. A Trap may still be
activated targeting it (Sakuretsu Armor); it then resolves without effect on it. Other kinds
of Trap effects (position changes, banishing, returning to the hand) are not yet covered."""

from __future__ import annotations

from .api import Script, by_name, register

register(by_name("Elemental HERO Wildheart").code, Script(unaffected_by=frozenset({"trap"})))
