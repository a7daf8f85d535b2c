"""The engine's work per action against the bare pipeline's server CPU per action, round by
round (issue 12: "at most one third of the bare pipeline's CPU per action measured in the same
run").

    .venv/bin/python -m bench.engine_share              # 5 rounds (~1 min)
    .venv/bin/python -m bench.engine_share --tiny       # 1 short round (make test)

``bench.all`` first divided the median of ``bench.engine_work`` by the median of
``bench.throughput``'s saturation rounds, run minutes apart. On a shared host whose speed
drifts, the two sides then saw different machines: the same engine read 0.44x at 20:50 and
0.62x at 23:19 (2026-11-24), when the engine's minute was hit harder than the saturation
rounds. Here each round measures both, back to back, and the ratio is taken per round:

- the engine's work per accepted action over the recorded duels (``bench/engine_worker.py``,
  this repository's engine alone: the new state, its hash, the per-viewer facts, a view and the
  pending decision per seat, the deciding seat's legal actions), timed just before and just
  after the bare round, the two averaged;
- the bare pipeline (``bench/pipeline.py``: websockets + msgpack + one Redis append + two
  sends) at saturation: its server's CPU per accepted action, ``--duels`` duels for
  ``--seconds``, driven by ``server/clients/load.py`` against an embedded Redis (``appendfsync always``).
  With ``--frame-bytes`` and ``--entry-bytes`` its frames and entries are made that size (issue 41:
  ``bench.all`` passes the real server's means as ``bench.throughput`` measured them in the same
  run); without, its own tiny ones, and the output says which.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
from pathlib import Path

from server.clients.load import LoadConfig
from server.storage.embedded_redis import EmbeddedRedis

from .engine_work import REPO, Worker
from .throughput import Bare, BareShape, Target, free_port, measure

TARGET = 1 / 3
"""Issue 12: the engine's work per action at most this share of the bare pipeline's."""


def main(argv: list[str] | None = None) -> list[float]:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--duels", type=int, default=200, help="bare pipeline duels at once")
    p.add_argument("--seconds", type=float, default=6.0, help="per bare saturation round")
    p.add_argument("--tiny", action="store_true", help="one short round, a small duel (make test)")
    p.add_argument("--frame-bytes", type=int, default=0, help="the bare pipeline's update frames (0: its own)")
    p.add_argument("--entry-bytes", type=int, default=0, help="the bare pipeline's appended entries (0: its own)")
    a = p.parse_args(argv)
    shape = BareShape(frame_bytes=a.frame_bytes, entry_bytes=a.entry_bytes)
    if a.tiny:
        a.rounds, a.duels, a.seconds = 1, 4, 1.0
    ratios: list[float] = []
    with tempfile.TemporaryDirectory() as d:
        rds = EmbeddedRedis(Path(d) / "redis", fsync="always").start()
        bare = Bare(rds.url, free_port(), shape=shape)
        worker = Worker(REPO, a.tiny)
        try:
            target = Target("bare", bare.url, bare.proc.pid, rds.pid)
            print(
                f"engine work per action vs the bare pipeline's server CPU per action at saturation, interleaved "
                f"({a.rounds} rounds; {a.duels} bare duels for {a.seconds:g} s each; "
                f"{shape.short() if a.frame_bytes else 'bare: its own tiny frames and entries'})"
            )
            for r in range(a.rounds):
                before = worker.round()["work_per_action"] * 1e6
                m = measure(target, LoadConfig(bare.url, duels=10**6, concurrency=a.duels, seconds=a.seconds))
                after = worker.round()["work_per_action"] * 1e6
                engine_us = (before + after) / 2
                bare_us = m["cpu_ms_per_action"] * 1000
                ratios.append(engine_us / bare_us if bare_us else float("inf"))
                print(
                    f"  round {r + 1}: engine {engine_us:6.1f} us (before {before:.1f}, after {after:.1f}), "
                    f"bare {bare_us:6.1f} us ({m['actions']} actions) -> {ratios[-1]:.2f}x"
                )
        finally:
            worker.close()
            bare.stop()
            rds.stop()
    share = statistics.median(ratios)
    met = "met" if share <= TARGET else "NOT met"
    print(
        f"engine share of the bare pipeline's CPU per action: {share:.2f}x (range {min(ratios):.2f}-"
        f"{max(ratios):.2f} over {len(ratios)} rounds) (target <= {TARGET:.2f}x: {met})"
    )
    return ratios


if __name__ == "__main__":
    main()
