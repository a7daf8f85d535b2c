"""Side decking between the duels of a match (PROTOCOL.md section 5b): what a seat may play next.

A seat registers its deck and its Side Deck when it takes its seat (``create_match``, ``join``,
``quick_match``: ``deck`` and ``side``, checked together by the format: ``check_registered``).
Between two duels it may swap cards of its deck with cards of its Side Deck, one for one: the deck
it sends for the next duel (``side_deck``) must hold exactly the cards it registered (deck and Side
Deck together), with as many cards in its Main Deck, in its Extra (Fusion) Deck and in its Side
Deck as it registered, Extra Deck cards swapped only where the format allows it
(``DeckRules.side_extra``), and be legal in the format (``rules.check_deck``).

A refusal names only the sender's own cards, and only to the sender: nothing of a seat's deck is
ever told to the other seat but its counts (server.match.series).
"""

from __future__ import annotations

from collections import Counter

from server import rules
from server.lobby.decks import MAX_SHOWN, DeckError, format_named


def _name(code: int) -> str:
    data = rules.CARDS.get(code)
    return f"{data.name} ({code})" if data is not None else f"card {code}"


def _refuse(problems: list[str]) -> DeckError:
    more = len(problems) - MAX_SHOWN
    shown = problems[:MAX_SHOWN] + ([f"and {more} more problem(s)"] if more > 0 else [])
    return DeckError("; ".join(shown))


def check_registered(deck: list[int], side: list[int] | None, fmt: str | None) -> list[int]:
    """The Side Deck a seat registers with ``deck`` (already checked alone), if the two are legal
    together in the format (the Side Deck's size, the copies over all three): else DeckError."""
    if not side:
        return []
    f = format_named(fmt)
    split = rules.split_deck(deck)
    problems = rules.check_deck(rules.DeckList(split.main, split.extra, tuple(side)), f)
    if problems:
        raise _refuse(problems)
    return list(side)


def check_swap(
    registered: tuple[list[int], list[int]],
    deck: list[int],
    side: list[int],
    fmt: str | None,
) -> tuple[list[int], list[int]]:
    """The (deck, Side Deck) a seat sends between duels, if it is its ``registered`` (deck, Side
    Deck) with cards swapped one for one and legal in the format; else DeckError naming why."""
    f = format_named(fmt)
    before_deck, before_side = registered
    was, now = rules.split_deck(before_deck), rules.split_deck(deck)
    problems: list[str] = []
    have = Counter(before_deck) + Counter(before_side)
    sent = Counter(deck) + Counter(side)
    if sent != have:
        extra_cards = sorted((sent - have).elements())
        missing = sorted((have - sent).elements())
        if extra_cards:
            problems.append(
                "these cards are not in the deck and Side Deck you registered: "
                + ", ".join(_name(c) for c in dict.fromkeys(extra_cards))
            )
        if missing:
            problems.append(
                "these registered cards are missing: " + ", ".join(_name(c) for c in dict.fromkeys(missing))
            )
    if len(now.main) != len(was.main):
        problems.append(
            f"the Main Deck has {len(now.main)} cards; swap cards one for one: it must keep {len(was.main)}"
        )
    if len(now.extra) != len(was.extra):
        problems.append(
            f"the {f.deck.extra_name} has {len(now.extra)} cards; swap cards one for one: it must keep {len(was.extra)}"
        )
    elif not f.deck.side_extra and Counter(now.extra) != Counter(was.extra):
        problems.append(f"{f.title} does not allow siding the {f.deck.extra_name}")
    if len(side) != len(before_side):
        problems.append(f"the Side Deck has {len(side)} cards; swap cards one for one: it must keep {len(before_side)}")
    if not problems:
        problems = rules.check_deck(rules.DeckList(now.main, now.extra, tuple(side)), f)
    if problems:
        raise _refuse(problems)
    return list(deck), list(side)
