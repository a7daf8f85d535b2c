"""Formats: what a duel is played under, as data (docs/formats.md).

A format names its card pool, its Forbidden/Limited list, the version of the card texts it plays
and its rule options (``Rules``), and its deck-building rules (``DeckRules``). A duel's format is
named in its genesis fact (``DuelStarted.options["format"]``, or a scenario's ``setup`` fact), so
a log folds under the rules it was played with; a log without one was played under ``current``,
the rules the engine had before formats existed.

Two formats: ``current`` (today's rules; its pool is every card the engine knew before Goat, with
no Forbidden/Limited list) and ``goat`` (the TCG Advanced format of April 2005: its pool is the
cards of its nine tournament lists, its list the April 2005 one, its texts the Goat-era wordings).
A new format is one more ``Format`` here and its data under ``engine/data/<name>/``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from .card_data import CardData
from .cards import CARDS
from .format_data import GOAT_BANLIST, GOAT_LISTS, NO_BANLIST, Banlist, TournamentList
from .state import State

FORMAT_KEY: Final = "format"
"""The genesis option naming a duel's format (absent: ``current``)."""


@dataclass(frozen=True, slots=True)
class Rules:
    """The rule options a format sets (each cited in docs/formats.md)."""

    first_player_draws: bool = False
    """The player who goes first draws in the first turn's Draw Phase (Goat: yes)."""
    one_field_spell: bool = False
    """One face-up Field Spell between both players: a Field Spell whose activation resolves
    destroys the other player's face-up one, and one placed over its controller's own destroys
    it (Goat). Without it each player keeps one: a new one sends its controller's old one to the
    Graveyard (not destroyed) and leaves the opponent's (today's rules)."""
    effect_position_change_counts: bool = False
    """A position changed by a card effect uses the monster's once-per-turn change. Neither
    format sets it: Goat plays the rule of 2005-06-01 on, which is today's (docs/formats.md); it
    is the rule before that date."""
    ignition_priority: bool = False
    """Right after a Summon or a resolved chain the turn player may activate an Ignition
    effect before the opponent may respond (docs/adr, Goat priority)."""


class TextVersion(StrEnum):
    """Which wording of a card a format plays (``CardData.text`` / ``text_goat``)."""

    CURRENT = "current"
    """``text``: the database wording the project's card list has."""
    GOAT = "goat"
    """``text_goat`` where the card has one (the Goat-era wording Goat play uses), else ``text``."""


@dataclass(frozen=True, slots=True)
class DeckRules:
    """What a deck of the format must be (``engine.deckcheck``)."""

    main_min: int = 40
    main_max: int = 60
    extra_max: int = 15
    side_max: int = 15
    side_full_or_empty: bool = False
    """The Side Deck has 0 or exactly ``side_max`` cards (Goat)."""
    copies: int = 3
    """Copies of a card a deck may hold (over Main, Extra and Side Deck) when its list names it not."""
    extra_name: str = "Extra Deck"
    """What the format calls the Extra Deck (Goat: the Fusion Deck)."""
    side_extra: bool = True
    """Between the duels of a match, Extra (Fusion) Deck cards may be swapped with Side Deck cards
    one for one, as Main Deck cards are (server.lobby.siding)."""


@dataclass(frozen=True, slots=True, eq=False)
class Format:
    name: str
    title: str
    rules: Rules
    pool: frozenset[int]
    """The passcodes a deck of the format may hold."""
    banlist: Banlist
    text: TextVersion
    deck: DeckRules
    lists: tuple[TournamentList, ...] = ()
    """The format's tournament deck lists (its demo decks: ``engine.decks``)."""
    description: str = ""
    best_of: int = 1
    """The duels of the format's usual match (quick match plays it): 1, 3 or 5."""

    def limit(self, code: int) -> int:
        """The copies of card ``code`` a deck may hold (Forbidden: 0)."""
        return self.banlist.limits.get(self.canonical(code), self.deck.copies)

    def canonical(self, code: int) -> int:
        """The passcode a card is counted as (an alternate artwork is its card)."""
        return self.banlist.aliases.get(code, code)


def _pool_of(lists: tuple[TournamentList, ...], banlist: Banlist) -> frozenset[int]:
    """Every card of the lists (alternate artworks as their card); each must be a known card."""
    codes = {banlist.aliases.get(c, c) for lst in lists for c in lst.cards.all()}
    unknown = sorted(c for c in codes if c not in CARDS)
    if unknown:
        raise ValueError(f"the format's lists name unknown passcodes: {unknown}")
    return frozenset(codes)


CURRENT: Final = Format(
    "current",
    "Current rules",
    Rules(),
    pool=frozenset(c.code for c in CARDS.values() if c.group != "goat"),
    banlist=NO_BANLIST,
    text=TextVersion.CURRENT,
    deck=DeckRules(),
    description="Today's rules and card texts; every card the engine knew before the Goat cards; no "
    "Forbidden/Limited list.",
)
GOAT: Final = Format(
    "goat",
    "Goat (April 2005)",
    Rules(first_player_draws=True, one_field_spell=True, effect_position_change_counts=False, ignition_priority=True),
    pool=_pool_of(GOAT_LISTS, GOAT_BANLIST),
    banlist=GOAT_BANLIST,
    text=TextVersion.GOAT,
    deck=DeckRules(side_full_or_empty=True, extra_name="Fusion Deck"),
    lists=GOAT_LISTS,
    description="The TCG Advanced format of April 2005: the cards of its nine tournament lists, the April 2005 "
    "Forbidden/Limited list, the Goat-era card texts, the first player draws, one Field Spell, priority.",
    best_of=3,
)
FORMATS: Final[dict[str, Format]] = {f.name: f for f in (CURRENT, GOAT)}
DEFAULT: Final = CURRENT


class UnknownFormat(ValueError):
    """No format has that name; the message lists the formats. (A ``ValueError``: the compiled
    build cannot override a ``KeyError``'s ``__str__``, which quotes its message.)"""


def named(name: str | None) -> Format:
    """The format called ``name`` (None: the default); :class:`UnknownFormat` if there is none."""
    if name is None:
        return DEFAULT
    fmt = FORMATS.get(name)
    if fmt is None:
        raise UnknownFormat(f"no format {name!r}; the formats are: {', '.join(FORMATS)}")
    return fmt


def format_of(s: State) -> Format:
    """The format ``s`` is played under (``current`` when its genesis names none)."""
    name = s.options.get(FORMAT_KEY)
    return DEFAULT if name is None else FORMATS[str(name)]


def rules_of(s: State) -> Rules:
    """The rule options ``s`` is played under."""
    return format_of(s).rules


def card_text(card: CardData, fmt: Format | str | None = None) -> str:
    """The text of ``card`` as format ``fmt`` plays it (a name, or None: the default format):
    in Goat its Goat-era wording where it has one."""
    f = fmt if isinstance(fmt, Format) else named(fmt)
    if f.text == TextVersion.GOAT and card.text_goat:
        return card.text_goat
    return card.text
