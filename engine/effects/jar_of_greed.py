"""Jar of Greed (Normal Trap): "Draw 1 card." (card text; ruling GEN-1). It can be activated only
while its controller has a card in the Deck (ruling GEN-4)."""

from __future__ import annotations

from .api import Card, Ctx, Effect, Link, Script, State, by_name, draw, register


def _condition(s: State, card: Card, seat: int) -> bool:
    return bool(s.players[seat].deck)


def _resolve(ctx: Ctx, link: Link) -> None:
    draw(ctx, link.controller, 1)


register(
    by_name("Jar of Greed").code,
    Script(effects=(Effect(kind="trap", speed=2, condition=_condition, resolve=_resolve),)),
)
