"""Every benchmark runs once at a tiny size, so that none rots (issue 14).

Nothing here is timed: a benchmark passes when it runs to the end and prints the figures it
promises. The figures themselves come from ``make bench`` (docs/performance.md).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent

CASES = {
    "engine": (["bench.run", "--duels", "1"], ["clone:", "replay: fold facts", "state_hash:"]),
    "server": (
        ["bench.server", "--duels", "1", "--seconds", "1", "--engine-seconds", "0.3", "--appends", "50"],
        ["accepted"],
    ),
    "engine_share": (
        ["bench.engine_share", "--tiny"],
        ["round 1: engine", "engine share of the bare pipeline's CPU per action"],
    ),
    "gc": (["bench.gc", "--tiny"], ["gc saturation, actions/s", "gc collector pauses per action"]),
    "redis_memory": (["bench.redis_memory", "--duels", "2"], ["Redis memory per finished duel"]),
    # boardgame.io is installed by make (bench.peer --install-only) into var/bench-peer/
    "peer": (
        ["bench.peer", "--tiny"],
        [
            "boardgame.io",
            "4 long-lived matches at once: real",
            "ratio real/boardgame.io",
            "one match back to back: real",
            "  method: 4 long-lived matches at once on each side",
            "driver CPU per move: ours (Python)",
            "one durable append alone",
        ],
    ),
    "replays": (["bench.replays", "--entries", "120", "--rounds", "1"], ["load from snapshot", "view at a random seq"]),
    "search_strength": (
        ["bench.search_strength", "--tiny"],
        ["search vs greedy:", "95 % CI", "per pairing", "simulated actions/s", "p99", "search vs random:"],
    ),
    "throughput": (
        ["bench.throughput", "--tiny"],
        [
            "method: the real server (duel serve, full rules) against the bare pipeline",
            "the bare pipeline sends update frames of",
            "saturation: real",
            "  method: saturation, 4 duels at once",
            "Redis's own time per append (commandstats",
            "the rest of the machine per action: load driver real",
            "duels spread over two processes",
            "seats on two processes",
            "one duel back_to_back",
            "duels at a human pace",
            "Redis round trips (real)",
        ],
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_benchmark_runs_at_a_tiny_size(name: str) -> None:
    module, expected = CASES[name]
    done = subprocess.run([sys.executable, "-m", *module], cwd=REPO, capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stderr[-3000:]
    for words in expected:
        assert words in done.stdout, f"{name}: {words!r} missing from\n{done.stdout}"
