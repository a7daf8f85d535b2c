"""Searches from the Deck show the opponent only what the card's text shows (issue 37): Sangan's
Goat text shows the added monster, Thunder Dragon's shows nothing. Checked through what
``Viewpoints`` sends seat B (the opponent of the searching player A) in the cards' scenarios."""

from __future__ import annotations

from pathlib import Path
from typing import Any, cast

import yaml

from engine.scenario import Runner
from tests.engine.test_secrecy_regressions import frames

CARDS = Path(__file__).parent.parent / "scenarios" / "cards"


def _run(name: str) -> tuple[dict[str, int], dict[int, int], list[list[dict[str, Any]]]]:
    """The scenario's labels, the codes of its cards, and the facts seat B was sent."""
    runner = Runner(yaml.safe_load((CARDS / name).read_text("utf-8")))
    result = runner.run()
    assert result.ok and result.state is not None, result.failure
    # ``frames`` takes the entries' facts (its annotation says maps)
    seen = [facts for facts, _view, _state in frames(cast(list[list[dict[str, Any]]], result.entries), 1)]
    codes = {cid: c.code for cid, c in result.state.cards.items()}
    return runner.labels, codes, seen


def test_sangan_shows_the_added_monster_to_the_opponent() -> None:
    labels, codes, seen = _run("sangan.yaml")
    code = codes[labels["elf"]]
    notes = [f for facts in seen for f in facts if f.get("t") == "note" and f.get("what") == "revealed"]
    assert [n.get("code") for n in notes] == [code]
    to_hand = [f for facts in seen for f in facts if f.get("t") == "moved" and f.get("to") == "hand"]
    assert len(to_hand) == 1


def test_thunder_dragon_shows_the_opponent_nothing_it_adds() -> None:
    _labels, _codes, seen = _run("thunder_dragon.yaml")
    to_hand = [f for facts in seen for f in facts if f.get("t") == "moved" and f.get("to") == "hand"]
    assert len(to_hand) == 2
    assert all("code" not in f for f in to_hand)
    assert not [f for facts in seen for f in facts if f.get("t") == "note" and f.get("what") == "revealed"]
