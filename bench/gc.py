"""The garbage collector's settings, measured (issue 14): ``duel serve --gc tuned`` against
``--gc default`` (CPython's own settings: the baseline), same Redis, same load, same run.

    .venv/bin/python -m bench.gc            # a few minutes
    .venv/bin/python -m bench.gc --tiny     # once, tiny (make test)

For each mode, alternating rounds: accepted actions/s and server CPU per action at saturation,
p99 with duels held at a human pace, the collector's own pauses (the server's
``duel_gc_pause_seconds`` histogram: total and count per generation, and the longest pause)
and RSS after the rounds (a leak of cyclic garbage would show there).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import urllib.request
from pathlib import Path
from typing import Any

from server.clients.load import LoadConfig, rss_kib, run
from server.storage.embedded_redis import EmbeddedRedis

from .throughput import Target, measure, serve_for_load

MODES = ("default", "tuned")


def gc_pauses(url: str) -> dict[str, float]:
    """Seconds spent in collections and how many, per generation, from the server's /metrics."""
    http = url.replace("ws://", "http://") + "/metrics"
    text = urllib.request.urlopen(http, timeout=10).read().decode()
    out: dict[str, float] = {}
    for line in text.splitlines():
        if line.startswith(("duel_gc_pause_seconds_sum", "duel_gc_pause_seconds_count")):
            name, value = line.rsplit(" ", 1)
            gen = name.split('generation="')[1].split('"')[0]
            out[("sum" if "_sum" in name else "count") + gen] = float(value)
    return out


def diff(after: dict[str, float], before: dict[str, float]) -> dict[str, float]:
    return {k: after[k] - before.get(k, 0.0) for k in after}


def main(argv: list[str] | None = None) -> dict[str, Any]:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--tiny", action="store_true")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--duels", type=int, default=200, help="duels at once at full speed")
    p.add_argument("--hold", type=int, default=1000, help="duels held at a human pace")
    p.add_argument("--seconds", type=float, default=15.0)
    a = p.parse_args(argv)
    if a.tiny:
        a.rounds, a.duels, a.hold, a.seconds = 1, 4, 4, 0.5
    res: dict[str, dict[str, list[float]]] = {m: {} for m in MODES}

    def add(mode: str, key: str, value: float) -> None:
        res[mode].setdefault(key, []).append(value)

    with tempfile.TemporaryDirectory() as d:
        rds = EmbeddedRedis(Path(d) / "redis", fsync="always").start()
        procs = {m: serve_for_load(Path(d) / m, rds.url, "--gc", m) for m in MODES}
        targets = {m: Target(m, pr.url, pr.proc.pid if pr.proc else 0) for m, pr in procs.items()}
        try:
            for _ in range(a.rounds):
                for m, t in targets.items():
                    before = gc_pauses(t.url)
                    sat = measure(t, LoadConfig(t.url, duels=10**6, concurrency=a.duels, seconds=a.seconds))
                    g = diff(gc_pauses(t.url), before)
                    add(m, "actions_per_s", sat["actions_per_s"])
                    add(m, "cpu_ms_per_action", sat["cpu_ms_per_action"])
                    add(
                        m,
                        "gc_ms_per_action",
                        sum(v for k, v in g.items() if k.startswith("sum")) * 1000 / max(1, sat["actions"]),
                    )
                    add(m, "full_collections", g.get("count2", 0.0))
                    held = asyncio.run(run(LoadConfig(t.url, duels=a.hold, think_s=2.0, seconds=max(a.seconds, 3.0))))
                    add(m, "human_pace_p99_ms", held.percentile(0.99) * 1000)
                    add(m, "human_pace_failed", float(held.failed))
                    add(m, "rss_kib", float(rss_kib(t.pid) or 0))
        finally:
            for pr in procs.values():
                pr.stop()
            rds.stop()
    report(res, a.hold)
    return res


def report(res: dict[str, dict[str, list[float]]], hold: int) -> None:
    base, tuned = res["default"], res["tuned"]
    for key, label in (
        ("actions_per_s", "saturation, actions/s"),
        ("cpu_ms_per_action", "server CPU per action, ms"),
        ("gc_ms_per_action", "collector pauses per action, ms"),
        ("full_collections", "full collections per round"),
        ("human_pace_p99_ms", f"{hold} duels at a human pace, p99 ms"),
        ("human_pace_failed", f"{hold} duels at a human pace, failed"),
        ("rss_kib", "RSS after the round, KiB"),
    ):
        b, t = statistics.median(base[key]), statistics.median(tuned[key])
        ratios = [x / y for x, y in zip(tuned[key], base[key], strict=True) if y]
        rng = f"(range {min(ratios):.2f}-{max(ratios):.2f})" if ratios else ""
        ratio = f"{t / b:5.2f}x {rng}" if b else "n/a"
        print(f"gc {label:38} default {b:10.3f}  tuned {t:10.3f}  -> tuned/default {ratio}")


if __name__ == "__main__":
    main()
