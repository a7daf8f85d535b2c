"""Trap Dustshoot (Normal Trap): "Activate only if your opponent has 4 or more cards in their hand.
Look at your opponent's hand, select 1 Monster Card in it, and return that card to its owner's
Deck." (card text; ruling GEN-1).

It can be activated only while the opponent holds 4 or more cards. As it resolves, the opponent's
whole hand is shown to its controller alone (``ops.reveal_to``: the opponent knows it, the spectators
learn only how many), who selects a Monster Card among them (ruling SEL-1; the question names the
revealed cards); it goes back to its owner's Deck, which is shuffled. With no Monster Card in that
hand, the hand is looked at and nothing else happens."""

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
    Zone,
    ask_cards,
    by_name,
    continuation,
    move,
    other,
    register,
    reveal_to,
    shuffle_deck,
)


def _condition(s: State, card: Card, seat: int) -> bool:
    return len(s.players[other(seat)].hand) >= 4


def _resolve(ctx: Ctx, link: Link) -> None:
    opp = other(link.controller)
    hand = list(ctx.s.players[opp].hand)
    reveal_to(ctx, opp, hand, to=link.controller)
    monsters = [cid for cid in hand if ctx.s.cards[cid].data.is_monster]
    ask_cards(ctx, link.controller, monsters, "trap_dustshoot.return", source=link.card, revealed=True)


@continuation("trap_dustshoot.return")
def _return(ctx: Ctx, seat: int, answer: Answer, d: dict[str, Any]) -> None:
    for cid in answer if isinstance(answer, list) else []:
        c = ctx.s.cards[cid]
        if c.zone == Zone.HAND:
            move(ctx, c, "deck", reason="return")
            shuffle_deck(ctx, c.owner)


register(
    by_name("Trap Dustshoot").code,
    Script(effects=(Effect(kind="trap", speed=2, condition=_condition, resolve=_resolve),)),
)
