"""Guessing a player's deck list from the cards of it seen so far (a searching bot's view of the
other seat: ``engine.determinize``).

The guess is one of the demo decks (``engine.decks``: today's and the Goat lists), the one that
holds the most of the cards seen (a card seen more often than a list has it counts once per
copy the list has), among the decks of the duel's format when it is known; ties are broken by
the given ``Draws`` (engine.rng: a seeded stream), never by anything hidden. A deck that holds none of the cards seen
is still a guess: what the format's players bring. Cards seen that the guess lacks are added
to it, in place of cards of the guess not seen (the Main Deck keeps its size).

Pure: the same arguments (and the same state of ``rnd``) give the same guess.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from .cards import CARDS
from .decks import DEMO_DECKS, DemoDeck
from .rng import Draws


@dataclass(frozen=True, slots=True)
class DeckGuess:
    """A deck list: its Main Deck and its Extra (Fusion) Deck, as passcodes."""

    main: tuple[int, ...]
    extra: tuple[int, ...]
    name: str  # the demo deck it is based on ("" when none)

    def cards(self) -> Counter[int]:
        return Counter(self.main) + Counter(self.extra)


def split(codes: Iterable[int]) -> DeckGuess:
    """A list of passcodes (a deck as a match gets it) as Main and Extra Deck."""
    main: list[int] = []
    extra: list[int] = []
    for c in codes:
        (extra if c in CARDS and CARDS[c].extra_deck else main).append(c)
    return DeckGuess(tuple(main), tuple(extra), "")


def candidates(fmt: str | None) -> list[DemoDeck]:
    """The demo decks a player of format ``fmt`` may have brought (None: any format)."""
    return [d for d in DEMO_DECKS if fmt is None or d.format == fmt]


def fit(deck: DemoDeck, seen: Mapping[int, int]) -> int:
    """How many of the cards seen the deck holds (each copy once)."""
    have = Counter(deck.codes())
    return sum(min(n, have.get(code, 0)) for code, n in seen.items())


def guess_deck(seen: Mapping[int, int], fmt: str | None, rnd: Draws) -> DeckGuess:
    """The deck a player most likely holds, given the passcodes seen of it (``seen``: how many
    copies at most were seen at once) and the duel's format (None: unknown)."""
    decks = candidates(fmt) or candidates(None)
    best = max(fit(d, seen) for d in decks)
    top = [d for d in decks if fit(d, seen) == best]
    # public decks first among equals: they are the ones offered to players
    public = [d for d in top if d.public]
    among = public or top
    chosen = among[rnd.below(len(among))]
    return completed(chosen, seen)


def completed(deck: DemoDeck, seen: Mapping[int, int]) -> DeckGuess:
    """``deck`` with every card seen in it: a card seen more often than the deck holds replaces a
    card of the deck not seen (the last ones first), so that the Main Deck keeps its size."""
    main = list(deck.main_codes())
    extra = list(deck.extra_codes())
    have = Counter(main) + Counter(extra)
    missing: list[int] = []
    for code, n in sorted(seen.items()):
        missing.extend([code] * max(0, n - have.get(code, 0)))
    unseen = Counter(main) - Counter({c: n for c, n in seen.items()})
    for code in missing:
        if code in CARDS and CARDS[code].extra_deck:
            extra.append(code)
            continue
        spare = next((i for i in range(len(main) - 1, -1, -1) if unseen.get(main[i], 0) > 0), None)
        if spare is not None:
            unseen[main[spare]] -= 1
            main[spare] = code
        else:
            main.append(code)
    return DeckGuess(tuple(main), tuple(extra), deck.name)
