"""Write the golden replay files: ``.venv/bin/python -m tests.golden.regen_replays``.

They are replay files (docs/replay-format.md) of whole duels made by the engine of the day
they were written; every later version must load and play them back
(tests/server/test_server_archive.py). Do not regenerate them to make a test pass: add new
ones beside them when the format or the rules change.
"""

from __future__ import annotations

from pathlib import Path

from engine.decks import deck_named
from server.history import replay_file
from tests.server.logs import engine_log

HERE = Path(__file__).parent
DUELS = (
    ("classic", 11, ("classic-a", "classic-b")),
    ("battle-step-vs-end-step", 5, ("battle-step", "end-step")),
    ("counters-vs-battle-step", 8, ("counters", "battle-step")),
)


def main() -> None:
    for name, seed, (d0, d1) in DUELS:
        log = engine_log(seed, decks=(deck_named(d0), deck_named(d1)), max_actions=5000)
        replay = replay_file.build(f"golden-{name}", log, players=("A", "B"), created_ms=log[0].ts_ms)
        assert replay.header["result"]["finished"], name
        path = HERE / f"{name}.duelreplay"
        size = replay_file.write(path, replay)
        print(f"wrote {path} ({len(log)} entries, {size} bytes)")


if __name__ == "__main__":
    main()
