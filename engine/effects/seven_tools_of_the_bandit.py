"""Seven Tools of the Bandit: "When a Trap Card is activated: Pay 1000 LP; negate the
activation, and if you do, destroy it." (ruling CH-3; seed 002, Example 4)."""

from __future__ import annotations

from typing import Any

from .api import (
    ALL_DS,
    Card,
    Ctx,
    Effect,
    Script,
    State,
    by_name,
    link_is_card_activation,
    negate_previous,
    pay_lp,
    register,
)


def _condition(s: State, card: Card, seat: int) -> bool:
    return bool(s.chain) and link_is_card_activation(s, s.chain[-1], "trap") and s.players[seat].lp > 1000


def _cost(ctx: Ctx, card: Card, seat: int, data: dict[str, Any]) -> None:
    pay_lp(ctx, seat, 1000)


register(
    by_name("Seven Tools of the Bandit").code,
    Script(
        effects=(
            Effect(
                kind="trap",
                speed=3,
                condition=_condition,
                cost=_cost,
                resolve=negate_previous,
                negates=True,
                damage_step=ALL_DS,
            ),
        )
    ),
)
