"""Smashing Ground (Normal Spell): "Destroy the 1 face-up monster your opponent controls that has
the highest DEF. (If it's a tie, you get to choose)." (card text; ruling GEN-1).

It does not target: the face-up monsters the opponent controls are compared as it resolves, and on
a tie its controller selects one of them (``common.destroy_the_highest``, ruling SEL-1). It needs a
face-up monster there to be activated (ruling GEN-4)."""

from __future__ import annotations

from .api import (
    Card,
    Ctx,
    Effect,
    Link,
    Script,
    State,
    by_name,
    destroy_the_highest,
    face_up_monsters,
    other,
    register,
)


def _condition(s: State, card: Card, seat: int) -> bool:
    return bool(face_up_monsters(s, other(seat)))


def _resolve(ctx: Ctx, link: Link) -> None:
    destroy_the_highest(ctx, link, face_up_monsters(ctx.s, other(link.controller)), "def")


register(
    by_name("Smashing Ground").code,
    Script(effects=(Effect(kind="spell", speed=1, condition=_condition, resolve=_resolve),)),
)
