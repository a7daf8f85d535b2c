"""Upstart Goblin (Normal Spell): "Draw 1 card, then your opponent gains 1000 Life Points."
(card text; ruling GEN-1). It can be activated only while its controller has a card in the Deck
(ruling GEN-4)."""

from __future__ import annotations

from .api import Card, Ctx, Effect, Link, Script, State, by_name, draw, gain_lp, other, register


def _condition(s: State, card: Card, seat: int) -> bool:
    return len(s.players[seat].deck) >= 1


def _resolve(ctx: Ctx, link: Link) -> None:
    draw(ctx, link.controller, 1)
    if not ctx.s.finished:
        gain_lp(ctx, other(link.controller), 1000)


register(
    by_name("Upstart Goblin").code,
    Script(effects=(Effect(kind="spell", speed=1, condition=_condition, resolve=_resolve),)),
)
