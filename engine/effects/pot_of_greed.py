"""Pot of Greed (Normal Spell): "Draw 2 cards." (card text). It can be activated only while
its controller has at least 2 cards in the Deck (it must be able to resolve)."""

from __future__ import annotations

from .api import Card, Ctx, Effect, Link, Script, State, by_name, draw, register


def _condition(s: State, card: Card, seat: int) -> bool:
    return len(s.players[seat].deck) >= 2


def _resolve(ctx: Ctx, link: Link) -> None:
    draw(ctx, link.controller, 2)


register(
    by_name("Pot of Greed").code,
    Script(effects=(Effect(kind="spell", speed=1, condition=_condition, resolve=_resolve),)),
)
