"""Photon Strike Bounzer (Xyz): "2 Level 6 monsters. Once per turn, during either player's turn,
when a monster effect is activated on your opponent's side of the field: You can detach 1 Xyz
Material from this card; negate the effect, and if you do, inflict 1000 damage to your
opponent."

It negates the effect, not the activation, yet it may be used in the Damage Step, damage
calculation included (ruling DS-5; seed 003, TCG Damage Step: Quick Effects that negate the activation of a
card/effect, "with the exception of Photon Strike Bounzer, which may also chain")."""

from __future__ import annotations

from typing import Any

from .api import ALL_DS, Card, Ctx, Effect, Link, Negated, Script, State, Zone, by_name, damage, detach, other, register


def _condition(s: State, card: Card, seat: int) -> bool:
    if not s.chain or not card.materials:
        return False
    top = s.chain[-1]
    src = s.cards[top.card]
    return top.controller != seat and src.data.is_monster and src.zone == Zone.MONSTERS and src.controller != seat


def _cost(ctx: Ctx, card: Card, seat: int, data: dict[str, Any]) -> None:
    detach(ctx, card, 1)


def _resolve(ctx: Ctx, link: Link) -> None:
    s = ctx.s
    n = int(link.data.get("answers", 0))
    if not 1 <= n <= len(s.chain):
        return
    prev = s.chain[n - 1]
    if prev.negated or prev.effect_negated:
        return
    ctx.emit(Negated(link=n, what="effect", card=prev.card, code=s.cards[prev.card].code))
    damage(ctx, other(link.controller), 1000)


register(
    by_name("Photon Strike Bounzer").code,
    Script(
        effects=(
            Effect(
                kind="quick",
                speed=2,
                damage_step=ALL_DS,
                negates=True,
                once_per="turn",
                condition=_condition,
                cost=_cost,
                resolve=_resolve,
            ),
        )
    ),
)
