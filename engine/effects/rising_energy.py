"""Rising Energy: "Discard 1 card, then target 1 face-up monster on the field; that target
gains 1500 ATK until the End Phase." An ATK changer: up to before damage calculation, never
during it (ruling DS-5; seed 003, Example 1)."""

from __future__ import annotations

from .api import (
    STAT_CHANGE_DS,
    Card,
    Ctx,
    Effect,
    Link,
    Script,
    State,
    by_name,
    discard_cost,
    discard_options,
    each,
    face_up_monsters,
    gain,
    register,
    target_ok,
)


def _targets(s: State, card: Card, seat: int) -> list[list[int]]:
    return each(face_up_monsters(s))


def _resolve(ctx: Ctx, link: Link) -> None:
    for t in link.targets:
        if target_ok(ctx.s, t, face_up=True):
            gain(ctx, ctx.s.cards[t], 1500, "end_phase", link.card)


register(
    by_name("Rising Energy").code,
    Script(
        effects=(
            Effect(
                kind="trap",
                speed=2,
                damage_step=STAT_CHANGE_DS,
                targets=_targets,
                cost_options=discard_options,
                cost=discard_cost,
                resolve=_resolve,
            ),
        )
    ),
)
