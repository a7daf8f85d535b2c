"""Morphing Jar: "FLIP: Both players discard their entire hands, then draw 5 cards."

A mandatory FLIP effect, activated whatever the hands and Decks hold (it can always be applied:
ruling GEN-4 does not stop it). As it resolves both players discard their whole hands at the same
time, then each draws 5 (``common.each_player_draws``): a player with fewer than 5 cards in the
Deck loses; both at once, the Duel is a draw (ruling GEN-2)."""

from __future__ import annotations

from .api import (
    Card,
    Ctx,
    Effect,
    EventKind,
    GameEvent,
    Link,
    Script,
    State,
    by_name,
    each_player_draws,
    other,
    register,
    send_to_grave,
)


def _flipped(s: State, card: Card, ev: GameEvent) -> bool:
    return ev.get("card") == card.id


def _resolve(ctx: Ctx, link: Link) -> None:
    s = ctx.s
    for seat in (s.turn_player, other(s.turn_player)):
        for cid in list(s.players[seat].hand):
            send_to_grave(ctx, s.cards[cid], reason="discard", by=link.card)
    each_player_draws(ctx, {0: 5, 1: 5})


register(
    by_name("Morphing Jar").code,
    Script(
        effects=(
            Effect(
                kind="flip",
                speed=1,
                trigger_on=EventKind.FLIPPED,
                trigger_match=_flipped,
                optional=False,
                resolve=_resolve,
                label="discard hands, draw 5",
            ),
        )
    ),
)
