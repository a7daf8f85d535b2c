"""Thunder Dragon, its Goat wording: "Discard this card from your hand to the Graveyard to add up
to 2 "Thunder Dragon" cards from your Deck to your hand. Then shuffle your deck. You can only use
this effect during your Main Phase."

- An Ignition effect activated from the hand (Spell Speed 1: the turn player's Main Phase, an
  empty chain; ruling CH-1); its cost discards the card itself.
- The Thunder Dragons are selected as it resolves (ruling SEL-1), up to 2, none allowed; the text
  shows them to nobody, so they go to the hand unseen by the opponent; then the Deck is shuffled.
- It may be activated with no "Thunder Dragon" left in the Deck (ruling CARD-20, an exception to
  GEN-4: the 2005 ruling that lets it be discarded to search for none)."""

from __future__ import annotations

from typing import Any, Final

from .api import (
    Answer,
    Card,
    Ctx,
    Effect,
    Link,
    Script,
    Zone,
    ask_cards,
    by_name,
    continuation,
    register,
    send_to_grave,
    shuffle_deck,
    to_hand,
)

NAME: Final = "Thunder Dragon"


def _discard_self(ctx: Ctx, card: Card, seat: int, data: dict[str, Any]) -> None:
    send_to_grave(ctx, card, reason="discard")


def _resolve(ctx: Ctx, link: Link) -> None:
    seat = link.controller
    deck = ctx.s.players[seat].deck
    copies = [cid for cid in deck if ctx.s.cards[cid].data.name == NAME]
    ask_cards(ctx, seat, copies, "thunder_dragon.add", count=2, fewest=0, source=link.card)


@continuation("thunder_dragon.add")
def _add(ctx: Ctx, seat: int, answer: Answer, d: dict[str, Any]) -> None:
    for cid in answer if isinstance(answer, list) else []:
        c = ctx.s.cards[cid]
        if c.zone == Zone.DECK and c.owner == seat:
            to_hand(ctx, c)
    shuffle_deck(ctx, seat)


register(
    by_name(NAME).code,
    Script(
        effects=(
            Effect(
                kind="ignition",
                speed=1,
                from_hand=True,
                cost=_discard_self,
                resolve=_resolve,
                label="add Thunder Dragons",
            ),
        )
    ),
)
