"""Spell Reproduction (Normal Spell): "Send 2 Spell Cards from your hand to the Graveyard, then
target 1 Spell Card in your Graveyard; add that target to your hand." (card text; ruling GEN-1).

Sending the 2 Spell Cards is the cost, paid at activation; the target is chosen after it, so one
of the Spells just sent may be the target (ruling SEL-4, ``Effect.fits``: a target in the hand is offered only
with a cost that sends it). The target is checked again as it resolves (ruling CH-3: a Spell
banished from the Graveyard in answer is not added)."""

from __future__ import annotations

from itertools import combinations
from typing import Any

from .api import (
    Card,
    Ctx,
    Effect,
    Link,
    Script,
    State,
    Zone,
    by_name,
    register,
    send_to_grave,
    target_ok,
    to_hand,
)


def _hand_spells(s: State, card: Card, seat: int) -> list[int]:
    return [cid for cid in s.players[seat].hand if cid != card.id and s.cards[cid].data.is_spell]


def _cost_options(s: State, card: Card, seat: int) -> list[list[int]]:
    return [list(pair) for pair in combinations(_hand_spells(s, card, seat), 2)]


def _targets(s: State, card: Card, seat: int) -> list[list[int]]:
    grave = [cid for cid in s.players[seat].graveyard if s.cards[cid].data.is_spell]
    return [[cid] for cid in grave + _hand_spells(s, card, seat)]


def _fits(s: State, card: Card, seat: int, targets: list[int], cost: list[int]) -> bool:
    return all(s.cards[t].zone == Zone.GRAVEYARD or t in cost for t in targets)


def _cost(ctx: Ctx, card: Card, seat: int, data: dict[str, Any]) -> None:
    for cid in data.get("cost", []):
        send_to_grave(ctx, ctx.s.cards[cid], reason="cost")


def _resolve(ctx: Ctx, link: Link) -> None:
    for t in link.targets:
        if target_ok(ctx.s, t, zone=Zone.GRAVEYARD):
            to_hand(ctx, ctx.s.cards[t])


register(
    by_name("Spell Reproduction").code,
    Script(
        effects=(
            Effect(
                kind="spell",
                speed=1,
                targets=_targets,
                cost_options=_cost_options,
                cost=_cost,
                fits=_fits,
                resolve=_resolve,
            ),
        )
    ),
)
