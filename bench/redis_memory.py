"""Redis memory per finished duel (issue 14): plays bot duels to the end against the real
server (its own sealing off), sums ``MEMORY USAGE`` over every key of each finished match (log,
action ids, meta, snapshots), then seals every log as a server does after a duel's end
(``server.match.sealing``) and sums again: both figures, per duel and per log entry, in one run.

    .venv/bin/python -m bench.redis_memory [--duels 50]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import redis
import redis.asyncio as aioredis

from server.clients.load import LoadConfig, run
from server.match.sealing import seal_finished
from server.storage import keys
from server.storage.embedded_redis import EmbeddedRedis

from .throughput import serve_for_load


def measure(r: redis.Redis, finished: list[str]) -> dict[str, list[float]]:
    """Per finished match: bytes in all, once its action ids expire, entries, and by key."""
    out: dict[str, list[float]] = {"total": [], "after_day": [], "entries": [], "per_entry": []}
    for mid in finished:
        sizes = {k.split(":")[-1]: int(r.memory_usage(k, samples=0) or 0) for k in keys.match_keys(mid)}
        top: Any = r.xrevrange(keys.log_key(mid), count=1)
        n = int(top[0][0].split(b"-")[0]) if top else 0  # the log's top: how many entries it holds
        total = sum(sizes.values())
        out["total"].append(total)
        out["after_day"].append(total - sizes["actions"])
        out["entries"].append(n)
        out["per_entry"].append(total / max(1, n))
        for k, v in sizes.items():
            out.setdefault("key:" + k, []).append(v)
    return out


async def load_ms(url: str, finished: list[str]) -> float:
    """Median time to load a finished duel's final position as a server does (a player or a
    spectator coming back to it): the newest snapshot and the entries after it, or the log."""
    from server.match.directory import MatchDirectory
    from server.match.matches import MatchService
    from server.runtime.metrics import Metrics
    from server.storage.store import RedisEventStore

    client = aioredis.Redis(unix_socket_path=url.removeprefix("unix://"))
    service = MatchService(RedisEventStore(client), MatchDirectory(client), Metrics(), lambda m: m.encode() * 2)
    took = []
    for mid in finished:
        t0 = time.perf_counter()
        lm = await service.load(mid)
        took.append(time.perf_counter() - t0)
        assert lm.finished
    await client.aclose()
    return 1000 * statistics.median(took) if took else 0.0


def kib(values: list[float]) -> float:
    return statistics.median(values) / 1024 if values else 0.0


def main(argv: list[str] | None = None) -> dict[str, float]:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--duels", type=int, default=50)
    a = p.parse_args(argv)
    with tempfile.TemporaryDirectory() as d:
        rds = EmbeddedRedis(Path(d) / "redis", fsync="everysec").start()
        srv = serve_for_load(Path(d) / "srv", rds.url, "--seal-after", "never")
        try:
            stats = asyncio.run(run(LoadConfig(srv.url, duels=a.duels, concurrency=min(a.duels, 20))))
            time.sleep(1.0)  # the end of a duel is recorded just after its last update goes out
            r = redis.Redis(unix_socket_path=rds.url.removeprefix("unix://"))
            finished = [m.decode() for m in r.zrange(keys.LOBBY_FINISHED, 0, -1)]  # type: ignore[union-attr]
            plain = measure(r, finished)
            load_plain = asyncio.run(load_ms(rds.url, finished))

            async def seal() -> float:
                client = aioredis.Redis(unix_socket_path=rds.url.removeprefix("unix://"))
                t0 = time.perf_counter()
                done = await seal_finished(client, finished)
                took = time.perf_counter() - t0
                await client.aclose()
                assert all(s.status == "ok" for s in done.values()), done
                return took

            seal_s = asyncio.run(seal())
            sealed = measure(r, finished)
            load_sealed = asyncio.run(load_ms(rds.url, finished))
            r.close()
        finally:
            srv.stop()
            rds.stop()
    out = {
        "duels_finished": float(len(finished)),
        "actions": float(stats.actions),
        "kib_per_duel_median": kib(sealed["total"]),
        "kib_per_duel_after_a_day": kib(sealed["after_day"]),
        "kib_per_duel_unsealed": kib(plain["total"]),
        "kib_per_duel_unsealed_after_a_day": kib(plain["after_day"]),
        "entries_per_duel_median": statistics.median(plain["entries"]) if finished else 0.0,
        "bytes_per_entry_median": statistics.median(sealed["per_entry"]) if finished else 0.0,
        "bytes_per_entry_unsealed": statistics.median(plain["per_entry"]) if finished else 0.0,
        "seal_ms_per_duel": 1000 * seal_s / max(1, len(finished)),
        "load_ms_unsealed": load_plain,
        "load_ms_sealed": load_sealed,
    }

    def by_key(m: dict[str, list[float]]) -> str:
        return ", ".join(f"{k[4:]} {kib(v):.1f}" for k, v in m.items() if k.startswith("key:"))

    print(f"{stats.finished} duels played ({stats.failed} failed, errors {dict(stats.errors)})")
    print(
        f"Redis memory per finished duel: median {out['kib_per_duel_median']:.1f} KiB over {len(finished)} duels "
        f"({out['kib_per_duel_after_a_day']:.1f} KiB once its action ids expire after a day; "
        f"median {out['entries_per_duel_median']:.0f} entries, {out['bytes_per_entry_median']:.0f} bytes per entry); "
        f"by key (median KiB): {by_key(sealed)}"
    )
    ratio = out["kib_per_duel_after_a_day"] / max(1e-9, out["kib_per_duel_unsealed_after_a_day"])
    print(
        f"  the same duels before their logs were sealed: {out['kib_per_duel_unsealed']:.1f} KiB "
        f"({out['kib_per_duel_unsealed_after_a_day']:.1f} after a day, {out['bytes_per_entry_unsealed']:.0f} bytes "
        f"per entry; by key: {by_key(plain)}) -> sealed / unsealed after a day {ratio:.2f}x; "
        f"sealing took {out['seal_ms_per_duel']:.1f} ms per duel (read, compress, write; one client, in order)"
    )
    print(
        f"  loading a finished duel's final position (median): {load_plain:.2f} ms before sealing "
        f"(its newest snapshot and the entries after it), {load_sealed:.2f} ms sealed (folded from the segment)"
    )
    return out


if __name__ == "__main__":
    main()
