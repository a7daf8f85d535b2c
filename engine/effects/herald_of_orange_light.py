"""Herald of Orange Light: "During either player's turn, when an effect of an opponent's
monster is activated: You can send this card and 1 other Fairy-Type monster from your hand to
the Graveyard; negate the activation, and if you do, destroy it."

A Quick Effect that negates an activation, so it may answer a chain in every timing of the
Damage Step, damage calculation included (ruling DS-5; seed 003, TCG Damage Step: "Quick Effect Monster
Effects that negate the activation of a card/effect"; "Substep 4": "effects that negate them,
such as Counter Trap Cards and the effects of cards like Herald of Orange Light")."""

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
    link_is_monster_effect,
    negate_previous,
    register,
    send_to_grave,
)


def _condition(s: State, card: Card, seat: int) -> bool:
    if not s.chain:
        return False
    top = s.chain[-1]
    return top.controller != seat and link_is_monster_effect(s, top)


def _fairies(s: State, card: Card, seat: int) -> list[list[int]]:
    out: list[list[int]] = []
    for cid in s.players[seat].hand:
        c = s.cards[cid]
        if cid != card.id and c.data.is_monster and c.data.type == "Fairy":
            out.append([cid])
    return out


def _cost(ctx: Ctx, card: Card, seat: int, data: dict[str, Any]) -> None:
    send_to_grave(ctx, card, reason="cost")
    for cid in data.get("cost", []):
        send_to_grave(ctx, ctx.s.cards[cid], reason="cost")


register(
    by_name("Herald of Orange Light").code,
    Script(
        effects=(
            Effect(
                kind="quick",
                speed=2,
                from_hand=True,
                damage_step=ALL_DS,
                negates=True,
                condition=_condition,
                cost_options=_fairies,
                cost=_cost,
                resolve=negate_previous,
            ),
        )
    ),
)
