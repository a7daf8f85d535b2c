"""Graceful Charity (Normal Spell): "Draw 3 cards, then discard 2 cards." (card text; ruling
GEN-1).

The two cards are chosen from the hand after the draw, as the effect resolves (ruling SEL-1:
``{do: choose, cards: [...]}``), among all the cards then in the hand, the three drawn included.
It can be activated only while its controller has 3 or more cards in the Deck (ruling GEN-4)."""

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
    draw,
    register,
)


def _condition(s: State, card: Card, seat: int) -> bool:
    return len(s.players[seat].deck) >= 3


def _resolve(ctx: Ctx, link: Link) -> None:
    seat = link.controller
    draw(ctx, seat, 3)
    if ctx.s.finished:
        return
    ask_cards(ctx, seat, list(ctx.s.players[seat].hand), "graceful_charity.discard", count=2, source=link.card)


@continuation("graceful_charity.discard")
def _discard(ctx: Ctx, seat: int, answer: Answer, d: dict[str, Any]) -> None:
    discard(ctx, answer if isinstance(answer, list) else [])


register(
    by_name("Graceful Charity").code,
    Script(effects=(Effect(kind="spell", speed=1, condition=_condition, resolve=_resolve),)),
)
