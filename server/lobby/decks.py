"""Decklist validation: 40-60 Main Deck cards, at most 3 copies of a card,
only known cards.  Errors name the offending card."""

from __future__ import annotations

from collections import Counter

from server import rules

MIN_MAIN = 40
MAX_MAIN = 60
MAX_COPIES = 3


class DeckError(Exception):
    """The decklist breaks a deck-building rule; the message says which."""


def validate_deck(deck: list[int]) -> list[int]:
    """Return the deck if it is legal, else raise :class:`DeckError`."""
    for passcode in deck:
        if not rules.known_card(passcode):
            raise DeckError(f"unknown card {passcode}")
    if not MIN_MAIN <= len(deck) <= MAX_MAIN:
        raise DeckError(f"the Main Deck has {len(deck)} cards; it must have {MIN_MAIN} to {MAX_MAIN}")
    for passcode, count in sorted(Counter(deck).items()):
        if count > MAX_COPIES:
            raise DeckError(
                f"{count} copies of {rules.card_name(passcode)} ({passcode}); at most {MAX_COPIES} are allowed"
            )
    return list(deck)


def deck_or_demo(deck: list[int] | None, seat: int) -> list[int]:
    """A validated deck, or the default demo deck of ``seat`` if none was given."""
    if deck is None:
        return rules.default_deck(seat)
    return validate_deck(deck)
