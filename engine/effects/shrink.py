"""Shrink: "Target 1 face-up monster on the field; the original ATK of that monster is halved
until the End Phase." It changes ATK, so it cannot be activated during damage calculation
(ruling DS-5; seed 003: "cards like Shrink ... cannot be activated")."""

from __future__ import annotations

from .api import (
    STAT_CHANGE_DS,
    Card,
    Ctx,
    Effect,
    Link,
    Modifier,
    Script,
    State,
    by_name,
    each,
    face_up_monsters,
    register,
    target_ok,
)


def _targets(s: State, card: Card, seat: int) -> list[list[int]]:
    return each(face_up_monsters(s))


def _resolve(ctx: Ctx, link: Link) -> None:
    for t in link.targets:
        if target_ok(ctx.s, t, face_up=True):
            ctx.emit(Modifier(card=t, stat="atk", op="half_original", value=0, until="end_phase", source=link.card))


register(
    by_name("Shrink").code,
    Script(effects=(Effect(kind="spell", speed=2, damage_step=STAT_CHANGE_DS, targets=_targets, resolve=_resolve),)),
)
