"""Giant Trunade (Normal Spell): "Return all Spell and Trap Cards on the field to the hand."
(card text; ruling GEN-1).

Every Spell and Trap Card on the field goes back to its owner's hand: both players' Spell & Trap
Zones and Field Zones, face-up or face-down, a monster equipped as an Equip Spell Card too (a
Fusion Monster to the Fusion Deck, ruling LF-1), but not Giant Trunade itself, which is resolving
and goes to the Graveyard afterwards (``common.spells_traps_on_field``). It needs another Spell or
Trap Card on the field to be activated (ruling GEN-4). A card returned from face-down stays
unknown to the opponent (``ops.move``)."""

from __future__ import annotations

from .api import Card, Ctx, Effect, Link, Script, State, by_name, register, spells_traps_on_field, to_hand


def _condition(s: State, card: Card, seat: int) -> bool:
    return bool(spells_traps_on_field(s, but=card.id))


def _resolve(ctx: Ctx, link: Link) -> None:
    for c in spells_traps_on_field(ctx.s, but=link.card):
        if c.on_field:  # an Equip Card whose monster left with an earlier one is gone already
            to_hand(ctx, c, reason="return")


register(
    by_name("Giant Trunade").code,
    Script(effects=(Effect(kind="spell", speed=1, condition=_condition, resolve=_resolve),)),
)
