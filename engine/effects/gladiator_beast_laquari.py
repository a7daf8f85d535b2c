"""Gladiator Beast Laquari: "If this card was Special Summoned by the effect of a "Gladiator
Beast" monster, its original ATK becomes 2100. At the end of the Battle Phase, if this card
attacked or was attacked: You can shuffle it into the Deck; Special Summon 1 "Gladiator Beast"
monster from your Deck, except "Gladiator Beast Laquari"."

The original ATK change is applied as it is Summoned (rule bookkeeping in ``watch``: a
``set_original`` modifier that lasts while it is on the field). The end-of-Battle-Phase tag-out
is shared with Bestiari (``families.tag_out``; ruling ES-1; seed 003, TCG End Step)."""

from __future__ import annotations

from .api import (
    Card,
    Ctx,
    EventKind,
    GameEvent,
    Modifier,
    Script,
    Zone,
    by_name,
    register,
    summoned_by_gladiator,
    tag_out,
)


def _watch(ctx: Ctx, card: Card, ev: GameEvent) -> None:
    if ev.get("kind") == EventKind.SUMMONED and card.zone == Zone.MONSTERS and summoned_by_gladiator(ctx.s, card, ev):
        ctx.emit(Modifier(card=card.id, stat="atk", op="set_original", value=2100, until="permanent", source=card.id))


register(
    by_name("Gladiator Beast Laquari").code,
    Script(effects=(tag_out(),), watch=_watch, watch_on=frozenset({EventKind.SUMMONED})),
)
