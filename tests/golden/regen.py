"""Regenerate the golden duel logs: ``.venv/bin/python -m tests.golden.regen``.

Run it only when a rules change is intended; the diff of the JSON files is then the
reviewable record of what the change does to real duels.
"""

from __future__ import annotations

import json
from pathlib import Path

from engine import state_hash
from engine.facts import wire_facts
from tests.engine.play import play

HERE = Path(__file__).parent
# (seed, max actions, share of random choices): short duels that still reach battles and a result
DUELS = ((11, 400, 0.0), (23, 400, 0.3), (37, 250, 1.0))


def record(seed: int, max_actions: int, randomness: float) -> dict[str, object]:
    from engine import fold

    _final, entries, actions = play(seed, max_actions=max_actions, policy_random=randomness)
    s = fold(entries[0])
    log = []
    for (seat, action), facts in zip(actions, entries[1:], strict=True):
        s = fold(facts, s)
        log.append({"seat": seat, "action": action, "facts": wire_facts(facts), "hash": state_hash(s)})
    genesis = wire_facts(entries[0])
    return {"seed": seed, "genesis": genesis, "genesis_hash": state_hash(fold(entries[0])), "log": log}


def main() -> None:
    for seed, n, r in DUELS:
        path = HERE / f"duel-{seed}.json"
        path.write_text(json.dumps(record(seed, n, r), separators=(",", ":")) + "\n", "utf-8")
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
