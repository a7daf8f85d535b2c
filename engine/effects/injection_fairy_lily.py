"""Injection Fairy Lily: "If this card attacks or is attacked, during damage calculation (in
either player's turn): You can pay 2000 Life Points once per battle; this card gains 3000 ATK
during that damage calculation only." (ruling DS-5; seed 003, Examples 1-3)."""

from __future__ import annotations

from typing import Any

from .api import (
    DURING_CALC,
    Card,
    Ctx,
    Effect,
    Link,
    Script,
    State,
    by_name,
    gain,
    in_battle,
    pay_lp,
    register,
    still_face_up,
)


def _condition(s: State, card: Card, seat: int) -> bool:
    return in_battle(s, card) and s.players[seat].lp > 2000


def _cost(ctx: Ctx, card: Card, seat: int, data: dict[str, Any]) -> None:
    pay_lp(ctx, seat, 2000)


def _resolve(ctx: Ctx, link: Link) -> None:
    c = ctx.s.cards[link.card]
    if still_face_up(c):
        gain(ctx, c, 3000, "damage_calculation", c.id)


register(
    by_name("Injection Fairy Lily").code,
    Script(
        effects=(
            Effect(
                kind="quick",
                speed=2,
                damage_step=DURING_CALC,
                condition=_condition,
                cost=_cost,
                resolve=_resolve,
                once_per="battle",
                only_in_damage_step=True,
            ),
        )
    ),
)
