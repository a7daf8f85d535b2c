"""Golden duel logs: today's rules must re-decide every recorded action into exactly the
recorded facts and state hashes. A failure means a rules change altered real duels: if it is
intended, regenerate with ``python -m tests.golden.regen`` and review the JSON diff."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine import DuelConfig, create, decide, demo_deck, fold, state_hash

FILES = sorted(Path(__file__).parent.glob("duel-*.json"))


def test_golden_logs_exist() -> None:
    assert len(FILES) >= 3


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_golden_log_replays_exactly(path: Path) -> None:
    golden = json.loads(path.read_text("utf-8"))
    genesis = create(DuelConfig(seed=golden["seed"], decks=(demo_deck(0), demo_deck(1))))
    assert genesis == golden["genesis"], "shuffles or opening hands changed"
    s = fold(genesis)
    assert state_hash(s) == golden["genesis_hash"]
    for i, entry in enumerate(golden["log"]):
        facts = decide(s, entry["seat"], entry["action"])
        assert facts == entry["facts"], f"entry {i}: {entry['action']} now causes different facts"
        s = fold(facts, s)
        assert state_hash(s) == entry["hash"], f"entry {i}: state hash differs"
    assert s.turn > 3 and any(f["t"] == "battle" for e in golden["log"] for f in e["facts"])
