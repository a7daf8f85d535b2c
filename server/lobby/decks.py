"""Deck validation for a match, per its format (docs/formats.md): a deck is one list of passcodes
(its Extra Deck monsters go to the Extra Deck), checked by the engine's deck rules
(``rules.check_deck``: 40-60 Main Deck cards, at most 15 in the Extra Deck, the format's
Forbidden/Limited list, its card pool, only cards the engine supports). Errors name the card and
the limit."""

from __future__ import annotations

from server import rules

MAX_SHOWN = 12
"""The most problems one refusal lists (a list of another game may have 60)."""


class DeckError(Exception):
    """The decklist breaks a deck-building rule; the message says which."""


def format_named(name: str | None) -> rules.Format:
    """The format a request names (None: the default), or :class:`DeckError` naming the formats."""
    try:
        return rules.named_format(name)
    except rules.UnknownFormat as exc:
        raise DeckError(str(exc)) from None


def validate_deck(deck: list[int], fmt: str | None = None) -> list[int]:
    """Return the deck if it is legal in format ``fmt`` (None: the default), else raise
    :class:`DeckError` listing its problems."""
    problems = rules.check_deck(rules.split_deck(deck), format_named(fmt))
    if problems:
        more = len(problems) - MAX_SHOWN
        shown = problems[:MAX_SHOWN] + ([f"and {more} more problem(s)"] if more > 0 else [])
        raise DeckError("; ".join(shown))
    return list(deck)


def deck_or_demo(deck: list[int] | None, seat: int, fmt: str | None = None) -> list[int]:
    """A validated deck, or the format's default demo deck of ``seat`` if none was given."""
    if deck is None:
        try:
            return rules.default_deck(seat, format_named(fmt).name)
        except rules.DeckUnavailable as exc:
            raise DeckError(str(exc)) from None
    return validate_deck(deck, fmt)
