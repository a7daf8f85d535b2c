"""Golden duel logs: today's rules must re-decide every recorded action into exactly the
recorded facts (as the log has them: the wire maps, key order included, so log bytes do not
change) and state hashes. A failure means a rules change altered real duels: if it is
intended, regenerate with ``python -m tests.golden.regen`` and review the JSON diff."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine import DuelConfig, create, decide, demo_deck, fold, state_hash
from engine.facts import wire_facts

FILES = sorted(Path(__file__).parent.glob("duel-*.json"))


def _items(facts: list[dict[str, Any]]) -> list[list[tuple[str, Any]]]:
    """The facts with their key order (JSON keeps it)."""
    return [list(f.items()) for f in facts]


def test_golden_logs_exist() -> None:
    assert len(FILES) >= 3


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_golden_log_replays_exactly(path: Path) -> None:
    golden = json.loads(path.read_text("utf-8"))
    genesis = create(DuelConfig(seed=golden["seed"], decks=(demo_deck(0), demo_deck(1))))
    assert _items(wire_facts(genesis)) == _items(golden["genesis"]), "shuffles or opening hands changed"
    s = fold(genesis)
    assert state_hash(s) == golden["genesis_hash"]
    for i, entry in enumerate(golden["log"]):
        facts = decide(s, entry["seat"], entry["action"])
        assert _items(wire_facts(facts)) == _items(entry["facts"]), f"entry {i}: {entry['action']} differs"
        s = fold(facts, s)
        assert state_hash(s) == entry["hash"], f"entry {i}: state hash differs"
    assert s.turn > 3 and any(f["t"] == "battle" for e in golden["log"] for f in e["facts"])


REPLAYS = sorted(Path(__file__).parent.glob("*.duelreplay"))


@pytest.mark.parametrize("path", REPLAYS, ids=[p.stem for p in REPLAYS])
def test_golden_replay_files_rerun_to_their_facts(path: Path) -> None:
    """The golden replay files (what ``duel verify`` checks a kept duel against): today's rules
    re-decide every entry into the facts recorded (a choice's data included: a key added to it
    changes old duels), as for the JSON logs above."""
    from server.history.replay import verify_log
    from server.history.replay_file import read

    divergence, state = verify_log(read(path).entries, hashes=False)
    assert divergence is None, f"{path.name}: {divergence}"
    assert state is not None and state.finished
