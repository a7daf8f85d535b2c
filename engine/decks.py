"""Demo decks, named, each of one format (docs/formats.md).

The ``current`` decks are built from the card pool, 40 cards each, at most 3 copies of a card.
The first two are the plain Normal Monster decks the project started with (kept for the golden
logs and the benchmarks); the others are built so that ordinary duels show what the engine is
about: attacks answered by Traps, replays, Damage Step cards, End Step effects and counters.
``DEFAULT_DECKS`` are what a player gets when it brings no deck.

The ``goat`` decks are the Goat format's nine tournament lists (``engine/data/goat/decks``: Main
and Fusion Deck; their Side Decks are not played). A demo deck is ``playable`` when the engine
supports every card of it; a Goat duel's default decks are its playable lists, if any.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Final

from .cards import CARDS, CARDS_BY_NAME
from .deckcheck import supported_codes
from .format_data import TournamentList
from .formats import CURRENT, FORMATS, GOAT, Format

Cards = tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class DemoDeck:
    name: str  # short key, e.g. "battle-step"
    title: str
    description: str
    cards: Cards  # the Main Deck
    public: bool = True  # offered to players (the classic decks are kept for old logs and benchmarks)
    format: str = CURRENT.name
    extra: Cards = ()  # the Extra (Fusion) Deck

    def main_codes(self) -> list[int]:
        return _codes(self.cards)

    def extra_codes(self) -> list[int]:
        return _codes(self.extra)

    def codes(self) -> list[int]:
        """The deck a match gets: its Main Deck, then its Extra Deck (a server splits them again:
        ``engine.deckcheck.split_deck``)."""
        return self.main_codes() + self.extra_codes()

    def playable(self, supported: frozenset[int] | None = None) -> bool:
        """Does the engine support every card of the deck (``supported``: those it supports)?"""
        ok = supported_codes() if supported is None else supported
        return all(c in ok for c in self.codes())


def _codes(cards: Cards) -> list[int]:
    out: list[int] = []
    for card, n in cards:
        out.extend([CARDS_BY_NAME[card].code] * n)
    return out


def _named(codes: tuple[int, ...]) -> Cards:
    return tuple((CARDS[code].name, n) for code, n in Counter(codes).items())


def list_deck(lst: TournamentList, fmt: Format) -> DemoDeck:
    """A format's tournament list as a demo deck (its Main and Extra Deck)."""
    return DemoDeck(
        lst.key,
        lst.title,
        lst.description,
        _named(lst.cards.main),
        format=fmt.name,
        extra=_named(lst.cards.extra),
    )


CURRENT_DECKS: Final[tuple[DemoDeck, ...]] = (
    DemoDeck(
        "classic-a",
        "Classic A",
        "Normal Monsters only: the plain duel the project started with.",
        (
            ("Celtic Guardian", 3),
            ("Gemini Elf", 3),
            ("Vorse Raider", 3),
            ("Alexandrite Dragon", 3),
            ("Luster Dragon", 3),
            ("Archfiend Soldier", 3),
            ("Mystical Elf", 2),
            ("Summoned Skull", 2),
            ("Dark Magician", 1),
            ("Giant Soldier of Stone", 2),
            ("Battle Ox", 3),
            ("Feral Imp", 3),
            ("Mad Dog of Darkness", 3),
            ("Neo the Magic Swordsman", 3),
            ("Silver Fang", 3),
        ),
        public=False,
    ),
    DemoDeck(
        "classic-b",
        "Classic B",
        "Normal Monsters only, with Blue-Eyes and the Elemental HEROes.",
        (
            ("Beaver Warrior", 3),
            ("Gene-Warped Warwolf", 3),
            ("La Jinn the Mystical Genie of the Lamp", 3),
            ("Archfiend Soldier", 3),
            ("Luster Dragon", 3),
            ("Mystical Elf", 3),
            ("Blue-Eyes White Dragon", 2),
            ("Summoned Skull", 1),
            ("Elemental HERO Avian", 3),
            ("Elemental HERO Burstinatrix", 3),
            ("Elemental HERO Sparkman", 3),
            ("Elemental HERO Clayman", 3),
            ("Battle Ox", 3),
            ("Vorse Raider", 3),
            ("Gemini Elf", 1),
        ),
        public=False,
    ),
    DemoDeck(
        "battle-step",
        "Battle Step Ambush",
        "Warriors and Traps: attacks answered by Sakuretsu Armor, Mirror Force and Negate Attack, "
        "targets taken away by Raigeki Break (a replay), Honest and Shrink in the Damage Step, "
        "Sword Hunter and Scrap Worm at the end of the Battle Phase.",
        (
            ("D.D. Warrior Lady", 2),
            ("Command Knight", 2),
            ("Marauding Captain", 2),
            ("Celtic Guardian", 3),
            ("Vorse Raider", 3),
            ("Gemini Elf", 3),
            ("Honest", 2),
            ("Kuriboh", 2),
            ("Battle Fader", 1),
            ("Sword Hunter", 2),
            ("Scrap Worm", 2),
            ("Book of Moon", 1),
            ("Mystical Space Typhoon", 2),
            ("Shrink", 2),
            ("Enemy Controller", 1),
            ("Pot of Greed", 1),
            ("Sakuretsu Armor", 2),
            ("Mirror Force", 1),
            ("Negate Attack", 1),
            ("Raigeki Break", 2),
            ("Trap Jammer", 1),
            ("Rising Energy", 2),
        ),
    ),
    DemoDeck(
        "end-step",
        "Gladiator Arena",
        "Gladiator Beasts that tag out at the end of the Battle Phase, Drillroid and Ehren before "
        "damage calculation, Injection Fairy Lily during it, Hydrogeddon and Time Machine at the end "
        "of the Damage Step, Prideful Roar and Defense Draw.",
        (
            ("Gladiator Beast Laquari", 3),
            ("Gladiator Beast Bestiari", 3),
            ("Gladiator Beast Andal", 3),
            ("Drillroid", 2),
            ("Ehren, Lightsworn Monk", 2),
            ("Injection Fairy Lily", 1),
            ("Hydrogeddon", 2),
            ("Jurrac Guaiba", 1),
            ("Scrap Worm", 2),
            ("Giant Soldier of Stone", 3),
            ("Mystical Space Typhoon", 2),
            ("Shrink", 1),
            ("Pot of Greed", 1),
            ("Monster Reborn", 1),
            ("Prideful Roar", 2),
            ("Defense Draw", 2),
            ("Time Machine", 1),
            ("Michizure", 1),
            ("Sakuretsu Armor", 2),
            ("Waboku", 1),
            ("Trap Hole", 2),
            ("Nutrient Z", 2),
        ),
    ),
    DemoDeck(
        "counters",
        "Counter Machine",
        "Counters that change battles: B.E.S. Big Core's and Des Mosquito's counters taken off by "
        "battle, Alien Grey's A-Counters weakening what battles an Alien, Spacegate's Gate Counters; "
        "Giant Kozaky and Zombie Mammoth that destroy themselves after damage calculation, Honest "
        "for the LIGHT Hoshiningen, Kuriboh and Rising Energy in the Damage Step, Scrap Worm and Sword Hunter at "
        "the end of the Battle Phase.",
        (
            ("B.E.S. Big Core", 2),
            ("Des Mosquito", 3),
            ("Alien Grey", 3),
            ("Alien Mother", 2),
            ("Giant Kozaky", 1),
            ("Zombie Mammoth", 1),
            ("Star Boy", 2),
            ("Hoshiningen", 2),
            ("Honest", 2),
            ("Scrap Worm", 3),
            ("Sword Hunter", 1),
            ("Vorse Raider", 2),
            ("Mystical Space Typhoon", 2),
            ("Shrink", 2),
            ("Pot of Greed", 1),
            ("Kuriboh", 2),
            ("Spacegate", 2),
            ("Mirror Force", 1),
            ("Sakuretsu Armor", 2),
            ("Gravity Bind", 1),
            ("Raigeki Break", 1),
            ("Rising Energy", 2),
        ),
    ),
)

GOAT_DECKS: Final = tuple(list_deck(lst, GOAT) for lst in GOAT.lists)
DEMO_DECKS: Final[tuple[DemoDeck, ...]] = CURRENT_DECKS + GOAT_DECKS
"""Every demo deck: today's, then the Goat lists."""

DECKS_BY_NAME: Final[dict[str, DemoDeck]] = {d.name: d for d in DEMO_DECKS}

DEFAULT_DECKS: Final[tuple[str, ...]] = ("battle-step", "end-step")
"""The decks the two seats of a ``current`` duel get when they bring none."""


def decks_of(fmt: Format | str) -> list[DemoDeck]:
    """The public demo decks of a format."""
    name = fmt.name if isinstance(fmt, Format) else fmt
    return [d for d in DEMO_DECKS if d.public and d.format == name]


def format_default_deck(seat: int, fmt: Format | str) -> list[int] | None:
    """The demo deck seat ``seat`` plays in a duel of ``fmt`` when it brings none: the default
    decks in ``current``, else the format's playable demo decks in turn (None: none is playable)."""
    f = fmt if isinstance(fmt, Format) else FORMATS[fmt]
    if f is CURRENT:
        return default_deck(seat)
    ok = supported_codes()
    playable = [d for d in decks_of(f) if d.playable(ok)]
    return playable[seat % len(playable)].codes() if playable else None


def demo_deck(index: int) -> list[int]:
    """The passcodes of ``current`` demo deck ``index`` (0 and 1: the classic Normal Monster decks)."""
    return CURRENT_DECKS[index % len(CURRENT_DECKS)].codes()


def deck_named(name: str) -> list[int]:
    """The passcodes of the demo deck called ``name`` (KeyError if there is none)."""
    return DECKS_BY_NAME[name].codes()


def default_deck(seat: int) -> list[int]:
    return deck_named(DEFAULT_DECKS[seat % 2])
