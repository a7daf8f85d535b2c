"""Reinforcement of the Army (Normal Spell), in the wording of the duel's format (ruling FMT-5):
Goat (its ``text_goat``): "Add 1 Level 4 or lower Warrior-Type monster from your Deck to your hand.
Then shuffle your Deck."; today (its ``text``) the same without the last sentence.

The monster is selected in the Deck as it resolves (ruling SEL-1), shown to the opponent as it is
added to the hand (ruling SEL-5, ``ops.reveal_to``: a card searched from the Deck is shown, so that the opponent
knows it fits the text), and the Deck is shuffled, in both formats (a Deck that was searched is
shuffled: the two wordings do the same). It needs such a monster in the Deck (ruling GEN-4)."""

from __future__ import annotations

from .api import (
    Card,
    Ctx,
    Effect,
    Link,
    Script,
    State,
    by_name,
    deck_candidates,
    register,
    search_deck,
)


def _warrior(c: Card) -> bool:
    return c.data.is_monster and c.data.type == "Warrior" and 0 < c.data.level <= 4


def _condition(s: State, card: Card, seat: int) -> bool:
    return bool(deck_candidates(s, seat, _warrior))


def _resolve(ctx: Ctx, link: Link) -> None:
    search_deck(ctx, link, _warrior)


register(
    by_name("Reinforcement of the Army").code,
    Script(effects=(Effect(kind="spell", speed=1, condition=_condition, resolve=_resolve),)),
)
