"""``duel deck check --format F FILE...``: every problem of a deck list on its own line, exit
status 1 when a list has one (docs/formats.md)."""

from __future__ import annotations

import base64
import struct
from pathlib import Path

import pytest

from engine import CARDS_BY_NAME
from engine.ydk import parse_ydk
from server import rules
from server.cli import main

GOAT_DECKS = Path(__file__).resolve().parents[2] / "engine" / "data" / "goat" / "decks"


def _ydk(path: Path, main_deck: list[int], side: tuple[int, ...] = ()) -> Path:
    path.write_text(rules.DeckList(tuple(main_deck), (), side).to_ydk("made by a test"), "utf-8")
    return path


def test_a_legal_deck(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    deck = _ydk(tmp_path / "ambush.ydk", rules.default_deck(0))
    assert main(["deck", "check", str(deck)]) == 0
    assert capsys.readouterr().out == f"{deck}: legal in Current rules (40 Main, 0 Extra Deck, 0 Side)\n"


def test_each_problem_on_its_own_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pot = CARDS_BY_NAME["Pot of Greed"].code  # the demo deck has one: four in all
    deck = _ydk(tmp_path / "bad.ydk", [*rules.default_deck(0)[:38], pot, pot], side=(pot,))
    assert main(["deck", "check", "--format", "current", str(deck)]) == 1
    assert capsys.readouterr().out.splitlines() == [
        "4 copies of Pot of Greed (55144522): at most 3 of a card over the Main, Extra and Side Deck",
        f"{deck}: not legal in Current rules: 1 problem(s)",
    ]
    assert main(["deck", "check", "--format", "goat", str(deck)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert "the Side Deck has 1 cards; it must have 0 or 15" in lines
    limited = "it is Limited in Goat (April 2005), at most 1 over the Main, Extra and Side Deck"
    assert f"4 copies of Pot of Greed (55144522): {limited}" in lines
    assert "Vorse Raider (14898066) is not in the Goat (April 2005) card pool" in lines
    assert lines[-1] == f"{deck}: not legal in Goat (April 2005): {len(lines) - 1} problem(s)"


def test_a_goat_list_names_the_cards_the_engine_does_not_play_yet(capsys: pytest.CaptureFixture[str]) -> None:
    path = GOAT_DECKS / "goat-control_flc22_erkator.ydk"
    every = all(c in rules.supported_codes() for c in parse_ydk(path.read_text("utf-8")).all())
    assert main(["deck", "check", "--format", "goat", str(path)]) == (0 if every else 1)
    lines = capsys.readouterr().out.splitlines()
    if every:  # every card of the list is scripted: it is legal
        assert lines == [f"{path}: legal in Goat (April 2005) (40 Main, 15 Fusion Deck, 15 Side)"]
        return
    assert "Scapegoat (73915051) is not supported by the engine yet (its effect has no script)" in lines or (
        CARDS_BY_NAME["Scapegoat"].code in rules.supported_codes()
    )
    assert all("not supported by the engine yet" in line for line in lines[:-1])


def test_unreadable_lists(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    junk = tmp_path / "junk.ydk"
    junk.write_text("#main\nDark Magician\n", "utf-8")
    assert main(["deck", "check", str(junk)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "line 2: 'Dark Magician' is not a passcode (a card is its passcode on a line)"
    huge = tmp_path / "huge.ydk"
    huge.write_text("1\n" * 100_000, "utf-8")
    assert main(["deck", "check", str(huge)]) == 1
    assert (
        capsys.readouterr().out.splitlines()[0]
        == f"the list has {rules.DECK_LIST_MAX_BYTES + 1} bytes; at most 32768 are read"
    )
    assert main(["deck", "check", str(tmp_path / "missing.ydk")]) == 2
    assert main(["deck", "check", "--format", "edison", str(junk)]) == 2
    assert "no format 'edison'; the formats are: current, goat" in capsys.readouterr().err


def test_a_ydke_address(capsys: pytest.CaptureFixture[str]) -> None:
    def part(codes: list[int]) -> str:
        return base64.b64encode(b"".join(struct.pack("<I", c) for c in codes)).decode() + "!"

    url = "ydke://" + part(rules.default_deck(0)) + part([]) + part([])
    assert main(["deck", "check", url]) == 0
    assert capsys.readouterr().out.endswith(": legal in Current rules (40 Main, 0 Extra Deck, 0 Side)\n")


def test_duel_cards_per_format(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["cards", "--format", "goat"]) == 0
    lines = capsys.readouterr().out.splitlines()
    supported = len(rules.supported_codes() & rules.named_format("goat").pool)
    assert lines[0] == f"{supported}/128 supported in Goat (April 2005)"
    assert len(lines) == 129
    assert sum(line.endswith("(not supported yet)") for line in lines) == 128 - supported
    scapegoat = "73915051  Scapegoat"
    assert any(line.strip().startswith(scapegoat) for line in lines)
    assert main(["cards", "--format", "current"]) == 0
    pool = rules.named_format("current").pool
    n = len(pool)
    assert (
        capsys.readouterr().out.splitlines()[0]
        == f"{len(pool & rules.supported_codes())}/{n} supported in Current rules"
    )
    assert main(["cards", "--format", "edison"]) == 2
