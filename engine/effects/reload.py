"""Reload (Quick-Play Spell): "Add all the cards in your hand to your Deck and shuffle it. Then
draw the same number of cards that you added to your Deck." (card text; ruling GEN-1).

The hand is the one its controller holds as it resolves (Reload itself is on the field); it needs
another card in the hand to be activated (ruling GEN-4). The cards go to the Deck unseen by the
opponent (``ops.move``), the Deck is shuffled with the duel's PRNG, then as many are drawn. A
Quick-Play Spell: from the hand only in its controller's own turn, Set in either turn from the next
(ruling CH-2); not in the Damage Step."""

from __future__ import annotations

from .api import Card, Ctx, Effect, Link, Script, State, by_name, draw, move, register, shuffle_deck


def _condition(s: State, card: Card, seat: int) -> bool:
    return any(cid != card.id for cid in s.players[seat].hand)


def _resolve(ctx: Ctx, link: Link) -> None:
    seat = link.controller
    hand = list(ctx.s.players[seat].hand)
    for cid in hand:
        move(ctx, ctx.s.cards[cid], "deck", reason="effect")
    shuffle_deck(ctx, seat)
    draw(ctx, seat, len(hand))


register(
    by_name("Reload").code,
    Script(effects=(Effect(kind="spell", speed=2, condition=_condition, resolve=_resolve),)),
)
