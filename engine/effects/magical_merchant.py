"""Magical Merchant: "FLIP: Pick up cards from the top of your Deck until you pick up a Spell Card
or Trap Card. Add that card to your hand. Send the remaining cards to the Graveyard."

A mandatory FLIP effect. Its controller picks up the top cards one by one, each shown to both
players (a public ``revealed`` note: the cards are turned over as they are picked up), until the
first Spell or Trap Card; that one goes to the hand, the others to the Graveyard. With no Spell or
Trap Card in the Deck it does not activate (ruling GEN-4: nothing to add)."""

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
    register,
    reveal,
    send_to_grave,
    to_hand,
)


def _flipped(s: State, card: Card, ev: GameEvent) -> bool:
    return ev.get("card") == card.id


def _spell_or_trap(c: Card) -> bool:
    return c.data.is_spell or c.data.is_trap


def _has_one(s: State, card: Card, seat: int) -> bool:
    return any(_spell_or_trap(s.cards[cid]) for cid in s.players[seat].deck)


def _resolve(ctx: Ctx, link: Link) -> None:
    s = ctx.s
    seat = link.controller
    picked: list[Card] = []
    for cid in list(s.players[seat].deck):
        c = s.cards[cid]
        reveal(ctx, c, seat)
        picked.append(c)
        if _spell_or_trap(c):
            break
    if not picked or not _spell_or_trap(picked[-1]):
        return  # no Spell or Trap left (it was there at activation): the cards stay where they are
    to_hand(ctx, picked[-1])
    for c in picked[:-1]:
        send_to_grave(ctx, c, reason="effect", by=link.card)


register(
    by_name("Magical Merchant").code,
    Script(
        effects=(
            Effect(
                kind="flip",
                speed=1,
                trigger_on=EventKind.FLIPPED,
                trigger_match=_flipped,
                optional=False,
                condition=_has_one,
                resolve=_resolve,
                label="pick up to a Spell or Trap",
            ),
        )
    ),
)
