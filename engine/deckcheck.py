"""Deck validation per format (docs/formats.md, "Decks"): what a deck list must be to be played.

``check_deck(deck, fmt)`` lists every problem, one sentence each, naming the card and the limit:

* the Main Deck has ``main_min`` to ``main_max`` cards, the Extra (Goat: Fusion) Deck at most
  ``extra_max``, the Side Deck at most ``side_max`` (Goat: 0 or exactly 15);
* an Extra Deck monster (Fusion ...) is in the Extra Deck, never the Main Deck, and the Extra
  Deck holds nothing else;
* the copies of a card, counted over the Main, Extra and Side Deck together (an alternate
  artwork as its card), are within the format's Forbidden/Limited list (3 for a card it names not);
* every card is a known card, in the format's card pool, and supported by the engine (a
  Normal Monster, or a card whose script is registered: ``engine.catalog``).

A deck a server receives as one list of passcodes (the protocol's ``deck``) is split first:
Extra Deck monsters to the Extra Deck (``split_deck``); it has no Side Deck.
"""

from __future__ import annotations

from collections import Counter
from typing import Final

from .cards import CARDS
from .catalog import supported
from .formats import Format
from .ydk import DeckList

LIST_NAMES: Final = {0: "Forbidden", 1: "Limited", 2: "Semi-Limited"}


def supported_codes() -> frozenset[int]:
    """The passcodes the engine plays (every card whose script is registered, and Normal Monsters)."""
    return frozenset(c.code for c in supported())


def _name(code: int) -> str:
    data = CARDS.get(code)
    return f"{data.name} ({code})" if data is not None else f"card {code}"


def split_deck(codes: list[int] | tuple[int, ...]) -> DeckList:
    """One list of passcodes as a deck: Extra Deck monsters to the Extra Deck, the rest Main Deck
    (an unknown passcode stays in the Main Deck, where ``check_deck`` names it)."""
    main = tuple(c for c in codes if not (c in CARDS and CARDS[c].extra_deck))
    extra = tuple(c for c in codes if c in CARDS and CARDS[c].extra_deck)
    return DeckList(main, extra, ())


def _sizes(deck: DeckList, fmt: Format) -> list[str]:
    rules = fmt.deck
    out = []
    n = len(deck.main)
    if not rules.main_min <= n <= rules.main_max:
        out.append(f"the Main Deck has {n} cards; it must have {rules.main_min} to {rules.main_max}")
    if len(deck.extra) > rules.extra_max:
        out.append(f"the {rules.extra_name} has {len(deck.extra)} cards; it may have at most {rules.extra_max}")
    side = len(deck.side)
    if rules.side_full_or_empty and side not in (0, rules.side_max):
        out.append(f"the Side Deck has {side} cards; it must have 0 or {rules.side_max}")
    elif side > rules.side_max:
        out.append(f"the Side Deck has {side} cards; it may have at most {rules.side_max}")
    return out


def _places(deck: DeckList, fmt: Format) -> list[str]:
    out = []
    extra_name = fmt.deck.extra_name
    for code in dict.fromkeys(deck.main):
        data = CARDS.get(fmt.canonical(code))
        if data is not None and data.extra_deck:
            out.append(f"{_name(code)} is an Extra Deck monster: it goes in the {extra_name}, not the Main Deck")
    for code in dict.fromkeys(deck.extra):
        data = CARDS.get(fmt.canonical(code))
        if data is not None and not data.extra_deck:
            out.append(f"{_name(code)} is not an Extra Deck monster: it goes in the Main Deck, not the {extra_name}")
    return out


def _cards(deck: DeckList, fmt: Format, playable: frozenset[int]) -> list[str]:
    out = []
    counts = Counter(fmt.canonical(c) for c in deck.all())
    for code, n in counts.items():
        if code not in CARDS:
            out.append(f"unknown card {code}: no card has this passcode")
            continue
        limit = fmt.limit(code)
        if n > limit:
            if limit == 0:
                out.append(f"{_name(code)} is Forbidden in {fmt.title} ({fmt.banlist.title}); the deck has {n}")
            elif code in fmt.banlist.limits:
                out.append(
                    f"{n} copies of {_name(code)}: it is {LIST_NAMES[limit]} in {fmt.title}, at most {limit} "
                    "over the Main, Extra and Side Deck"
                )
            else:
                out.append(f"{n} copies of {_name(code)}: at most {limit} of a card over the Main, Extra and Side Deck")
        if code not in fmt.pool:
            out.append(f"{_name(code)} is not in the {fmt.title} card pool")
        elif code not in playable:
            out.append(f"{_name(code)} is not supported by the engine yet (its effect has no script)")
    return out


def check_deck(deck: DeckList, fmt: Format, playable: frozenset[int] | None = None) -> list[str]:
    """Every problem of ``deck`` under ``fmt``, one sentence each ([] when it may be played).
    ``playable``: the passcodes the engine supports (default: ``supported_codes()``)."""
    ok = supported_codes() if playable is None else playable
    return _sizes(deck, fmt) + _places(deck, fmt) + _cards(deck, fmt, ok)
