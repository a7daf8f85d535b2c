"""Kuriboh: "During your opponent's turn, at damage calculation: You can discard this card; you
take no battle damage from that battle (this is a Quick Effect)." (ruling DS-5; seed 003, during damage
calculation)."""

from __future__ import annotations

from .api import (
    DURING_CALC,
    Card,
    Ctx,
    Effect,
    LingeringFlag,
    Link,
    Script,
    State,
    by_name,
    lingering_flag,
    register,
    send_self_cost,
)


def _condition(s: State, card: Card, seat: int) -> bool:
    return s.turn_player != seat and s.attack is not None


def _resolve(ctx: Ctx, link: Link) -> None:
    lingering_flag(ctx, LingeringFlag.NO_BATTLE_DAMAGE, link.controller, "end_of_damage_step", link.card)


register(
    by_name("Kuriboh").code,
    Script(
        effects=(
            Effect(
                kind="quick",
                speed=2,
                from_hand=True,
                damage_step=DURING_CALC,
                condition=_condition,
                cost=send_self_cost,
                resolve=_resolve,
                only_in_damage_step=True,
            ),
        )
    ),
)
