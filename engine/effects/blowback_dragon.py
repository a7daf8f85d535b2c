"""Blowback Dragon: "Once per turn: You can target 1 card your opponent controls; toss a coin 3
times, and destroy that target if at least 2 of the results are Heads."

An Ignition effect (Spell Speed 1, ruling CH-1), once per turn for each copy, targeting any card
its controller's opponent controls (monster, Spell or Trap, face-up or face-down). As it resolves
the coin is tossed 3 times (``toss_coin``: the duel's PRNG, or results a scenario fixed); with 2 or
3 Heads the target is destroyed if it is still on the field (ruling CH-3)."""

from __future__ import annotations

from .api import (
    Card,
    Ctx,
    Effect,
    Link,
    Script,
    State,
    by_name,
    destroy,
    each,
    other,
    register,
    toss_coin,
)


def _targets(s: State, card: Card, seat: int) -> list[list[int]]:
    return each(s.field_cards(other(seat)))


def _resolve(ctx: Ctx, link: Link) -> None:
    me = ctx.s.cards[link.card]
    heads = sum(1 for _ in range(3) if toss_coin(ctx, me) == "heads")
    for t in link.targets:
        c = ctx.s.cards[t]
        if heads >= 2 and c.on_field and c.controller != link.controller:
            destroy(ctx, c, reason="effect", by=link.card)


register(
    by_name("Blowback Dragon").code,
    Script(
        effects=(
            Effect(
                kind="ignition",
                speed=1,
                once_per="turn",
                targets=_targets,
                resolve=_resolve,
                label="toss 3 coins: destroy a card",
            ),
        )
    ),
)
