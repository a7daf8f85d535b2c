"""Secret Barrel (Normal Trap): "Inflict damage to your opponent equal to the total number of cards
on your opponent's side of the field and in your opponent's hand x 200." (card text; ruling GEN-1).

The cards are counted as it resolves (every card of the opponent's Monster, Spell & Trap and Field
Zones, and of their hand); it needs one there to be activated (ruling GEN-4)."""

from __future__ import annotations

from .api import Card, Ctx, Effect, Link, Script, State, by_name, damage, other, register


def _count(s: State, seat: int) -> int:
    opp = other(seat)
    return len(s.field_cards(opp)) + len(s.players[opp].hand)


def _condition(s: State, card: Card, seat: int) -> bool:
    return _count(s, seat) > 0


def _resolve(ctx: Ctx, link: Link) -> None:
    damage(ctx, other(link.controller), 200 * _count(ctx.s, link.controller))


register(
    by_name("Secret Barrel").code,
    Script(effects=(Effect(kind="trap", speed=2, condition=_condition, resolve=_resolve),)),
)
