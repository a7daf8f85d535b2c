"""Dust Tornado (Normal Trap): "Target 1 Spell/Trap Card your opponent controls; destroy that
target, then you can Set 1 Spell/Trap Card from your hand." (card text; ruling GEN-1).

The target, face-up or face-down, in the opponent's Spell & Trap Zones or Field Zone, is chosen at
activation and checked as it resolves (ruling CH-3: gone, nothing happens). Then its controller
may Set a Spell or Trap Card from the hand (an optional selection made as it resolves, ruling
SEL-1: ``{do: choose, cards: []}`` declines), which cannot be activated this turn (ruling CH-2)."""

from __future__ import annotations

from typing import Any

from .api import (
    Answer,
    Card,
    Ctx,
    Effect,
    Link,
    Script,
    State,
    Zone,
    ask_cards,
    by_name,
    continuation,
    destroy,
    each,
    opponents_cards,
    register,
    set_from_hand,
    settable_spells_traps,
)


def _targets(s: State, card: Card, seat: int) -> list[list[int]]:
    return each(opponents_cards(s, seat, spells_traps_only=True))


def _resolve(ctx: Ctx, link: Link) -> None:
    s = ctx.s
    for t in link.targets:
        c = s.cards[t]
        if c.zone not in (Zone.SPELLS_TRAPS, Zone.FIELD) or c.controller == link.controller:
            return  # the target left (ruling CH-3): no effect
        destroy(ctx, c, reason="effect", by=link.card)
    seat = link.controller
    ask_cards(ctx, seat, settable_spells_traps(s, seat), "dust_tornado.set", optional=True, source=link.card)


@continuation("dust_tornado.set")
def _set(ctx: Ctx, seat: int, answer: Answer, d: dict[str, Any]) -> None:
    for cid in answer if isinstance(answer, list) else []:
        set_from_hand(ctx, ctx.s.cards[cid])


register(
    by_name("Dust Tornado").code,
    Script(effects=(Effect(kind="trap", speed=2, targets=_targets, resolve=_resolve),)),
)
