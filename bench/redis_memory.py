"""Redis memory per finished duel (issue 14): plays bot duels to the end against the real
server, then sums ``MEMORY USAGE`` over every key of each finished match (log, action ids,
meta, snapshots) and reports it per duel and per log entry.

    .venv/bin/python -m bench.redis_memory [--duels 50]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path

import redis

from server import keys
from server.embedded_redis import EmbeddedRedis
from server.load import LoadConfig, run

from .throughput import serve_for_load


def main(argv: list[str] | None = None) -> dict[str, float]:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--duels", type=int, default=50)
    a = p.parse_args(argv)
    with tempfile.TemporaryDirectory() as d:
        rds = EmbeddedRedis(Path(d) / "redis", fsync="everysec").start()
        srv = serve_for_load(Path(d) / "srv", rds.url)
        try:
            stats = asyncio.run(run(LoadConfig(srv.url, duels=a.duels, concurrency=min(a.duels, 20))))
            time.sleep(1.0)  # the end of a duel is recorded just after its last update goes out
            r = redis.Redis(unix_socket_path=rds.url.removeprefix("unix://"))
            finished = [m.decode() for m in r.zrange(keys.LOBBY_FINISHED, 0, -1)]  # type: ignore[union-attr]
            per_duel, per_entry, entries, after_day = [], [], [], []
            by_key: dict[str, list[int]] = {}
            for mid in finished:
                sizes = {k.split(":")[-1]: int(r.memory_usage(k, samples=0) or 0) for k in keys.match_keys(mid)}
                n = int(r.xlen(keys.log_key(mid)))
                total = sum(sizes.values())
                per_duel.append(total)
                after_day.append(total - sizes["actions"])
                entries.append(n)
                per_entry.append(total / max(1, n))
                for k, v in sizes.items():
                    by_key.setdefault(k, []).append(v)
            r.close()
        finally:
            srv.stop()
            rds.stop()
    out = {
        "duels_finished": float(len(finished)),
        "actions": float(stats.actions),
        "kib_per_duel_median": statistics.median(per_duel) / 1024 if per_duel else 0.0,
        "kib_per_duel_after_a_day": statistics.median(after_day) / 1024 if after_day else 0.0,
        "entries_per_duel_median": statistics.median(entries) if entries else 0.0,
        "bytes_per_entry_median": statistics.median(per_entry) if per_entry else 0.0,
    }
    print(f"{stats.finished} duels played ({stats.failed} failed, errors {dict(stats.errors)})")
    print(
        f"Redis memory per finished duel: median {out['kib_per_duel_median']:.1f} KiB over {len(finished)} duels "
        f"({out['kib_per_duel_after_a_day']:.1f} KiB once its action ids expire after a day; "
        f"median {out['entries_per_duel_median']:.0f} entries, {out['bytes_per_entry_median']:.0f} bytes per entry); "
        "by key (median KiB): " + ", ".join(f"{k} {statistics.median(v) / 1024:.1f}" for k, v in by_key.items())
    )
    return out


if __name__ == "__main__":
    main()
