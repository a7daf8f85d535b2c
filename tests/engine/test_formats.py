"""Formats as data (engine/formats.py, docs/formats.md): each format's pool, Forbidden/Limited
list, card texts and rule options; a duel's format read from its genesis options."""

from __future__ import annotations

import pytest

from engine.apply import fold
from engine.cards import CARDS, CARDS_BY_NAME
from engine.decks import deck_named
from engine.format_data import GOAT_LISTS, list_names
from engine.formats import CURRENT, FORMATS, GOAT, TextVersion, UnknownFormat, card_text, format_of, named, rules_of
from engine.genesis import DuelConfig, create

THIRTEEN = {
    "Book of Moon",
    "Breaker the Magical Warrior",
    "Cipher Soldier",
    "D.D. Warrior Lady",
    "Gravity Bind",
    "Injection Fairy Lily",
    "Jinzo",
    "Mirror Force",
    "Mystical Space Typhoon",
    "Pot of Greed",
    "Raigeki Break",
    "Sakuretsu Armor",
    "Swords of Revealing Light",
}
"""The cards the engine knew before Goat that the nine lists use (the research pack's README)."""


def test_goat_pool_is_the_cards_of_its_nine_lists() -> None:
    assert len(GOAT_LISTS) == 9
    assert len(GOAT.pool) == 128
    goat_group = {c.code for c in CARDS.values() if c.group == "goat"}
    assert len(goat_group) == 115
    assert GOAT.pool == goat_group | {CARDS_BY_NAME[n].code for n in THIRTEEN}


def test_current_pool_is_every_card_known_before_goat() -> None:
    assert {c.code for c in CARDS.values()} - CURRENT.pool == {c.code for c in CARDS.values() if c.group == "goat"}
    assert CARDS_BY_NAME["Dark Magician"].code in CURRENT.pool
    assert CARDS_BY_NAME["Scapegoat"].code not in CURRENT.pool


def test_goat_limits_are_the_april_2005_list() -> None:
    by = CARDS_BY_NAME
    assert GOAT.limit(by["Pot of Greed"].code) == 1
    assert GOAT.limit(by["Monster Reborn"].code) == 0  # Forbidden in April 2005
    assert GOAT.limit(by["Dark Hole"].code) == 0
    assert GOAT.limit(by["Marauding Captain"].code) == 2
    assert GOAT.limit(by["Scapegoat"].code) == 3  # not on the list
    assert GOAT.limit(77585514) == 1  # Jinzo's alternate artwork counts as Jinzo
    assert GOAT.canonical(77585514) == by["Jinzo"].code
    assert CURRENT.limit(by["Pot of Greed"].code) == 3  # no list


def test_rule_options() -> None:
    assert GOAT.rules.first_player_draws and GOAT.rules.one_field_spell and GOAT.rules.ignition_priority
    assert not (CURRENT.rules.first_player_draws or CURRENT.rules.one_field_spell or CURRENT.rules.ignition_priority)
    # both play the position rule of 2005-06-01 on: an effect's change is not the player's own
    assert not GOAT.rules.effect_position_change_counts
    assert not CURRENT.rules.effect_position_change_counts
    assert GOAT.deck.side_full_or_empty and not CURRENT.deck.side_full_or_empty
    assert GOAT.deck.extra_name == "Fusion Deck"


def test_card_text_per_format() -> None:
    lily = CARDS_BY_NAME["Injection Fairy Lily"]
    assert lily.text_goat and lily.text_goat != lily.text
    assert card_text(lily, GOAT) == lily.text_goat
    assert card_text(lily, "goat") == lily.text_goat
    assert card_text(lily, CURRENT) == lily.text
    assert card_text(lily) == lily.text
    moon = CARDS_BY_NAME["Book of Moon"]  # no Goat-era wording: the same text in both
    assert card_text(moon, GOAT) == moon.text
    assert GOAT.text == TextVersion.GOAT


def test_named() -> None:
    assert named(None) is CURRENT
    assert named("goat") is GOAT
    assert set(FORMATS) == {"current", "goat"}
    with pytest.raises(UnknownFormat, match="the formats are: current, goat"):
        named("edison")


def test_list_names() -> None:
    assert list_names("goat-control_flc22_erkator") == ("goat-control-flc22", "Goat Control (FLC22)")
    assert list_names("empty-jar_2005-sjc-los-angeles_jonathan-navarro") == (
        "empty-jar-2005-sjc-los-angeles",
        "Empty Jar (2005 SJC Los Angeles)",
    )
    titles = [lst.title for lst in GOAT_LISTS]
    assert "Goat Control (2005 US Nationals)" in titles and "Reasoning Gate Turbo (FLC22)" in titles
    assert all(lst.description for lst in GOAT_LISTS)


def test_a_duel_folds_under_its_genesis_format() -> None:
    deck = deck_named("battle-step")
    plain = fold(create(DuelConfig(seed=1, decks=(deck, deck))))
    assert format_of(plain) is CURRENT  # no format option: the rules of before formats
    goat = fold(create(DuelConfig(seed=1, decks=(deck, deck), options={"format": "goat"})))
    assert format_of(goat) is GOAT and rules_of(goat).first_player_draws
