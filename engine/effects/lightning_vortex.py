"""Lightning Vortex (Normal Spell): "Discard 1 card; destroy all face-up monsters your opponent
controls." (card text; ruling GEN-1).

Discarding is the cost. It does not target: the face-up monsters the opponent controls as it
resolves are destroyed at the same time. It needs one there to be activated (ruling GEN-4)."""

from __future__ import annotations

from .api import (
    Card,
    Ctx,
    Effect,
    Link,
    Script,
    State,
    by_name,
    destroy_all,
    discard_cost,
    discard_options,
    face_up_monsters,
    other,
    register,
)


def _condition(s: State, card: Card, seat: int) -> bool:
    return bool(face_up_monsters(s, other(seat)))


def _resolve(ctx: Ctx, link: Link) -> None:
    destroy_all(ctx, face_up_monsters(ctx.s, other(link.controller)), by=link.card)


register(
    by_name("Lightning Vortex").code,
    Script(
        effects=(
            Effect(
                kind="spell",
                speed=1,
                condition=_condition,
                cost_options=discard_options,
                cost=discard_cost,
                resolve=_resolve,
            ),
        )
    ),
)
