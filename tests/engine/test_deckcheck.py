"""Deck validation per format (engine/deckcheck.py): every problem named, with the card and the
limit; the nine Goat lists are legal but for the cards the engine does not play yet."""

from __future__ import annotations

from engine.cards import CARDS, CARDS_BY_NAME
from engine.deckcheck import check_deck, split_deck, supported_codes
from engine.decks import deck_named
from engine.format_data import GOAT_LISTS
from engine.formats import CURRENT, GOAT
from engine.ydk import DeckList

EVERY_CARD = frozenset(CARDS)
"""Every card counted as supported: the checks other than the engine's support."""
FILLER = (
    "Asura Priest",
    "Newdoria",
    "Soul Release",
    "Chaos Sorcerer",
    "Gyaku-Gire Panda",
    "Byser Shock",
    "Ninja Grandmaster Sasuke",
    "Mobius the Frost Monarch",
    "Dark Scorpion - Cliff the Trap Remover",
    "Dragged Down into the Grave",
    "Nobleman of Extermination",
    "Dimension Fusion",
    "Gravekeeper's Spy",
    "Blowback Dragon",
)
"""Goat Main Deck cards no list restricts, none of them used by the tests below."""


def code(name: str) -> int:
    return CARDS_BY_NAME[name].code


def goat_deck(*main: int, extra: tuple[int, ...] = (), side: tuple[int, ...] = ()) -> DeckList:
    """A Goat deck of 40 Main Deck cards: ``main`` and three of each filler card after them."""
    filler = [code(n) for n in FILLER for _ in range(3)]
    return DeckList(tuple(main) + tuple(filler[: 40 - len(main)]), extra, side)


def current_deck(*more: int) -> DeckList:
    """The Battle Step Ambush demo deck (40 cards: two Kuriboh, three Vorse Raider ...), its
    last cards replaced by ``more``."""
    cards = deck_named("battle-step")
    return DeckList(tuple(cards[: 40 - len(more)]) + more)


def test_the_goat_lists_are_legal_but_for_unscripted_cards() -> None:
    playable = supported_codes()
    for lst in GOAT_LISTS:
        assert check_deck(lst.cards, GOAT, playable=EVERY_CARD) == [], lst.title
        problems = check_deck(lst.cards, GOAT)
        missing = {c for c in lst.cards.all() if c not in playable}
        assert len(problems) == len(missing)  # none once every card of the list is scripted
        assert all(p.endswith("is not supported by the engine yet (its effect has no script)") for p in problems)


def test_a_legal_deck_has_no_problem() -> None:
    assert check_deck(goat_deck(), GOAT, EVERY_CARD) == []
    assert check_deck(current_deck(), CURRENT) == []


def test_main_deck_size() -> None:
    short = DeckList(goat_deck().main[:39])
    assert check_deck(short, GOAT, EVERY_CARD) == ["the Main Deck has 39 cards; it must have 40 to 60"]
    long = DeckList(goat_deck().main * 2)
    assert check_deck(long, GOAT, EVERY_CARD)[0] == "the Main Deck has 80 cards; it must have 40 to 60"


def test_side_deck_size() -> None:
    two = (code("Sakuretsu Armor"),) * 2
    assert check_deck(goat_deck(side=two), GOAT, EVERY_CARD) == ["the Side Deck has 2 cards; it must have 0 or 15"]
    kuriboh = code("Kuriboh")
    assert check_deck(DeckList(current_deck().main, (), (kuriboh,)), CURRENT) == []  # today: 0 to 15
    sixteen = tuple(code(n) for n in ("Dark Magician", "Skyscraper", "Trap Hole", "Waboku", "Kozaky", "Jinzo")) * 3
    problems = check_deck(DeckList(current_deck().main, (), sixteen[:16]), CURRENT)
    assert problems == ["the Side Deck has 16 cards; it may have at most 15"]


def test_fusion_deck_size() -> None:
    fusions = tuple(c for c in sorted(GOAT.pool) if CARDS[c].extra_deck)
    assert len(fusions) == 17
    assert check_deck(goat_deck(extra=fusions[:15]), GOAT, EVERY_CARD) == []
    assert check_deck(goat_deck(extra=fusions), GOAT, EVERY_CARD) == [
        "the Fusion Deck has 17 cards; it may have at most 15"
    ]


def test_the_april_2005_list_counts_over_main_extra_and_side() -> None:
    pot = code("Pot of Greed")
    side = (pot,) + tuple(code(n) for n in ("Book of Moon", "Just Desserts", "Spirit Reaper", "Reload")) * 3
    side += (code("Airknight Parshath"),) * 2
    assert len(side) == 15
    assert check_deck(goat_deck(pot, side=side), GOAT, EVERY_CARD) == [
        "2 copies of Pot of Greed (55144522): it is Limited in Goat (April 2005), at most 1 over the Main, Extra "
        "and Side Deck"
    ]
    jinzo, jinzo_alt = code("Jinzo"), 77585514  # an alternate artwork is the same card
    assert check_deck(goat_deck(jinzo, jinzo_alt), GOAT, EVERY_CARD) == [
        "2 copies of Jinzo (77585513): it is Limited in Goat (April 2005), at most 1 over the Main, Extra and Side Deck"
    ]


def test_forbidden_and_out_of_pool_cards_are_named() -> None:
    assert check_deck(goat_deck(code("Dark Hole")), GOAT, EVERY_CARD) == [
        "Dark Hole (53129443) is Forbidden in Goat (April 2005) (TCG Advanced Format Forbidden/Limited list effective "
        "2005-04-01, as used for Goat Format); the deck has 1",
        "Dark Hole (53129443) is not in the Goat (April 2005) card pool",
    ]
    assert check_deck(current_deck(code("Scapegoat")), CURRENT) == [
        "Scapegoat (73915051) is not in the Current rules card pool"
    ]


def test_at_most_three_of_a_card() -> None:
    vorse = code("Vorse Raider")  # the demo deck has three
    assert check_deck(current_deck(vorse), CURRENT) == [
        "4 copies of Vorse Raider (14898066): at most 3 of a card over the Main, Extra and Side Deck"
    ]


def test_wrong_part_of_the_deck_and_unknown_cards() -> None:
    ter = code("Thousand-Eyes Restrict")
    assert check_deck(goat_deck(ter), GOAT, EVERY_CARD) == [
        "Thousand-Eyes Restrict (63519819) is an Extra Deck monster: it goes in the Fusion Deck, not the Main Deck"
    ]
    assert check_deck(goat_deck(extra=(code("Sangan"),)), GOAT, EVERY_CARD) == [
        "Sangan (26202165) is not an Extra Deck monster: it goes in the Main Deck, not the Fusion Deck"
    ]
    assert check_deck(goat_deck(12345), GOAT, EVERY_CARD) == ["unknown card 12345: no card has this passcode"]


def test_unsupported_cards_are_refused() -> None:
    problems = check_deck(goat_deck(), GOAT)
    scripted = supported_codes()
    for name in FILLER:
        said = f"{name} ({code(name)}) is not supported by the engine yet (its effect has no script)"
        assert (said in problems) == (code(name) not in scripted)


def test_split_deck() -> None:
    ter, sangan = code("Thousand-Eyes Restrict"), code("Sangan")
    assert split_deck([sangan, ter, 12345]) == DeckList((sangan, 12345), (ter,), ())
