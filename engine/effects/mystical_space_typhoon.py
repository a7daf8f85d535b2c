"""Mystical Space Typhoon (Quick-Play Spell): "Target 1 Spell/Trap Card on the field; destroy
that target." (card text). Either player's Spell & Trap Zones or Field Zone, face-up or
face-down; not itself. A Quick-Play Spell: from the hand only in its controller's turn, Set it
may be activated in either turn from the next turn on; not in the Damage Step."""

from __future__ import annotations

from .api import Card, Ctx, Effect, Link, Script, State, Zone, by_name, destroy, register


def _targets(s: State, card: Card, seat: int) -> list[list[int]]:
    out: list[list[int]] = []
    for sd in (seat, 1 - seat):
        for c in s.field_cards(sd):
            if c.zone in (Zone.SPELLS_TRAPS, Zone.FIELD) and c.id != card.id:
                out.append([c.id])
    return out


def _resolve(ctx: Ctx, link: Link) -> None:
    for t in link.targets:
        c = ctx.s.cards[t]
        if c.zone in (Zone.SPELLS_TRAPS, Zone.FIELD):
            destroy(ctx, c, reason="effect", by=link.card)


register(
    by_name("Mystical Space Typhoon").code,
    Script(effects=(Effect(kind="spell", speed=2, targets=_targets, resolve=_resolve),)),
)
