"""Delinquent Duo (Normal Spell): "Pay 1000 Life Points. Your opponent randomly selects and
discards 1 card from his/her hand and then selects and discards another card from his/her hand."
(card text; ruling GEN-1).

The 1000 Life Points are the cost (its controller must have more than 1000). As it resolves, a
card of the opponent's hand is picked at random with the duel's PRNG and discarded
(``common.discard_at_random``), then the opponent selects a second card of their hand and
discards it (ruling SEL-1); with one card, only the random discard happens. It needs a card in the
opponent's hand to be activated (ruling GEN-4)."""

from __future__ import annotations

from typing import Any

from .api import (
    Answer,
    Card,
    Ctx,
    Effect,
    Link,
    Script,
    State,
    ask_cards,
    by_name,
    continuation,
    discard,
    discard_at_random,
    other,
    pay_lp,
    register,
)


def _condition(s: State, card: Card, seat: int) -> bool:
    return s.players[seat].lp > 1000 and bool(s.players[other(seat)].hand)


def _cost(ctx: Ctx, card: Card, seat: int, data: dict[str, Any]) -> None:
    pay_lp(ctx, seat, 1000)


def _resolve(ctx: Ctx, link: Link) -> None:
    opp = other(link.controller)
    if discard_at_random(ctx, opp, by=link.card) is None:
        return
    ask_cards(ctx, opp, list(ctx.s.players[opp].hand), "delinquent_duo.discard", source=link.card)


@continuation("delinquent_duo.discard")
def _discard(ctx: Ctx, seat: int, answer: Answer, d: dict[str, Any]) -> None:
    discard(ctx, answer if isinstance(answer, list) else [])


register(
    by_name("Delinquent Duo").code,
    Script(effects=(Effect(kind="spell", speed=1, condition=_condition, cost=_cost, resolve=_resolve),)),
)
