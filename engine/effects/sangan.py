"""Sangan, its Goat wording: "When this card is sent from the field to the Graveyard, select 1
monster with an ATK of 1500 or less from your Deck, show it to your opponent, and add it to your
hand. Then shuffle your Deck."

- A mandatory trigger, whatever sent it from the field (battle, an effect, a Tribute, a cost) and
  face-up or not; no once-per-turn limit and no lock on the added card's name (the Goat text has
  neither). Mandatory, it never misses its timing (ruling CH-12).
- The monster is selected in the Deck as it resolves (ruling SEL-1), shown to both players (a
  public ``revealed`` note: its identity reaches the opponent), added to the hand, then the Deck
  is shuffled. With no such monster in the Deck it does not activate (ruling GEN-4)."""

from __future__ import annotations

from typing import Any

from .api import (
    Answer,
    Card,
    Ctx,
    Effect,
    EventKind,
    GameEvent,
    Link,
    Script,
    State,
    Zone,
    ask_cards,
    by_name,
    continuation,
    deck_candidates,
    register,
    reveal,
    shuffle_deck,
    to_hand,
)


def _small(c: Card) -> bool:
    return c.data.is_monster and 0 <= c.data.atk <= 1500


def _match(s: State, card: Card, ev: GameEvent) -> bool:
    return ev.get("card") == card.id and bool(ev.get("from_field")) and card.zone == Zone.GRAVEYARD


def _condition(s: State, card: Card, seat: int) -> bool:
    return bool(deck_candidates(s, seat, _small))


def _resolve(ctx: Ctx, link: Link) -> None:
    seat = link.controller
    ask_cards(ctx, seat, deck_candidates(ctx.s, seat, _small), "sangan.add", source=link.card)


@continuation("sangan.add")
def _add(ctx: Ctx, seat: int, answer: Answer, d: dict[str, Any]) -> None:
    for cid in answer if isinstance(answer, list) else []:
        c = ctx.s.cards[cid]
        if c.zone == Zone.DECK and c.owner == seat:
            reveal(ctx, c, seat)
            to_hand(ctx, c)
    shuffle_deck(ctx, seat)


register(
    by_name("Sangan").code,
    Script(
        effects=(
            Effect(
                kind="trigger",
                speed=1,
                trigger_on=EventKind.SENT_TO_GRAVE,
                trigger_match=_match,
                optional=False,
                condition=_condition,
                resolve=_resolve,
                label="add a monster from the Deck",
            ),
        )
    ),
)
