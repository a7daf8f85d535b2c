"""Exiled Force: "You can Tribute this card to target 1 monster on the field; destroy that target."

An Ignition effect (Spell Speed 1, ruling CH-1) whose cost Tributes Exiled Force itself; it targets
another monster on the field, either side, face-up or face-down, and destroys it if it is still
there (ruling CH-3). In a Goat duel it may be activated right after a Summon, before the opponent
responds (Goat priority, ruling PRI-1)."""

from __future__ import annotations

from typing import Any

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
    register,
    send_to_grave,
    target_ok,
)


def _tribute_self(ctx: Ctx, card: Card, seat: int, data: dict[str, Any]) -> None:
    send_to_grave(ctx, card, reason="tribute")


def _targets(s: State, card: Card, seat: int) -> list[list[int]]:
    return each([c for sd in (0, 1) for c in s.monsters(sd) if c.id != card.id])


def _destroy(ctx: Ctx, link: Link) -> None:
    for t in link.targets:
        if target_ok(ctx.s, t):
            destroy(ctx, ctx.s.cards[t], reason="effect", by=link.card)


register(
    by_name("Exiled Force").code,
    Script(
        effects=(
            Effect(
                kind="ignition",
                speed=1,
                cost=_tribute_self,
                targets=_targets,
                resolve=_destroy,
                label="Tribute: destroy a monster",
            ),
        )
    ),
)
