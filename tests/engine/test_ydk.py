"""Deck lists as players write them (engine/ydk.py): .ydk files and ydke:// addresses."""

from __future__ import annotations

import base64
import struct

import pytest

from engine.format_data import GOAT_LISTS
from engine.ydk import MAX_BYTES, MAX_LINE, MAX_LINES, DeckList, DeckListError, parse_deck_list, parse_ydk, parse_ydke


def test_sections_comments_and_blank_lines() -> None:
    text = "#created by someone\n#main\n123\n\n 456 \r\n#extra\n789\n!side\n111\n111\n"
    assert parse_ydk(text) == DeckList((123, 456), (789,), (111, 111))


def test_cards_before_a_header_are_main_deck() -> None:
    assert parse_ydk("5\n#extra\n6\n") == DeckList((5,), (6,), ())


def test_every_bad_line_is_named() -> None:
    with pytest.raises(DeckListError) as err:
        parse_ydk("#main\n12\nDark Magician\n34\n0\n")
    assert err.value.problems == [
        "line 3: 'Dark Magician' is not a passcode (a card is its passcode on a line)",
        "line 5: 0 is not a passcode",
    ]


def test_limits_are_checked_before_anything_else() -> None:
    with pytest.raises(DeckListError, match=f"at most {MAX_BYTES} are read"):
        parse_ydk("1\n" * (MAX_BYTES // 2 + 1))
    with pytest.raises(DeckListError, match=f"at most {MAX_LINES} are read"):
        parse_ydk("\n" * (MAX_LINES + 1))
    with pytest.raises(DeckListError, match=f"line 2: longer than {MAX_LINE} characters"):
        parse_ydk("#main\n#" + "x" * MAX_LINE + "\n")


def test_round_trip_of_the_goat_lists() -> None:
    for lst in GOAT_LISTS:
        assert parse_ydk(lst.cards.to_ydk("a comment")) == lst.cards


def _ydke(*lists: tuple[int, ...]) -> str:
    parts = [base64.b64encode(b"".join(struct.pack("<I", c) for c in lst)).decode() for lst in lists]
    return "ydke://" + "".join(p + "!" for p in parts)


def test_ydke() -> None:
    url = _ydke((46986414, 46986414), (), (5318639,))
    assert parse_ydke(url) == DeckList((46986414, 46986414), (), (5318639,))
    assert parse_deck_list("  " + url + "\n") == parse_ydke(url)
    with pytest.raises(DeckListError, match="three lists"):
        parse_ydke("ydke://AAAA!")
    with pytest.raises(DeckListError, match="not base64"):
        parse_ydke("ydke://***!!!")
    with pytest.raises(DeckListError, match="4-byte passcodes"):
        parse_ydke("ydke://AAA=!!!")
