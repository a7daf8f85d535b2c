"""``duel load``: many bot duels against a running server, with live progress.

    duel load --duels 200                         # 200 duels, 50 at a time, as fast as the server answers
    duel load --duels 2000 --think 2 --seconds 60 # hold 2,000 duels at a human pace for a minute
    duel load ... --server-pid PID                # also show the server's memory

It prints a progress line (duels running / finished, actions per second, p50 / p99 of
"action -> both clients", errors, server RSS), then a summary table and one JSON line for
scripts.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from typing import Any

from websockets.asyncio.client import connect
from websockets.exceptions import InvalidHandshake, InvalidURI


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser("load", help="run many bot duels against a server and measure it")
    p.add_argument(
        "--url",
        default="ws://127.0.0.1:8765",
        help="the server (default: ws://127.0.0.1:8765), or several, comma-separated: seats spread over them",
    )
    p.add_argument("--duels", type=int, default=100, help="duels in all (full speed) or held at once (--think)")
    p.add_argument("--concurrency", type=int, default=50, help="duels at once, at full speed (default 50)")
    p.add_argument("--think", type=float, default=0.0, help="seconds per decision per seat (0: full speed)")
    p.add_argument("--seconds", type=float, default=None, help="stop after this long (needed with --think)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--server-pid", type=int, default=None, help="show this process's resident memory")
    p.add_argument("--quiet", action="store_true", help="no progress line")
    p.set_defaults(func=run)


async def _probe(urls: str) -> None:
    """One connection to each server before the load: a wrong URL is one clear line, not N
    failed duels."""
    for url in urls.split(","):
        async with connect(url, open_timeout=10):
            pass


DRIVER_BUSY_PERCENT = 85.0
"""From this share of a core, ``duel load`` warns that the generator may be what limits the figures."""


def run(args: argparse.Namespace) -> int:
    from server.clients.load import LOAD_TEST_LIMITS, RATE_LIMITED, LoadConfig, Stats, rss_kib, summary
    from server.clients.load import run as run_load

    if args.think > 0 and args.seconds is None:
        print("duel load: --think needs --seconds (how long to hold the duels)", file=sys.stderr)
        return 2
    cfg = LoadConfig(
        args.url,
        duels=args.duels,
        concurrency=args.concurrency,
        think_s=args.think,
        seconds=args.seconds,
        seed=args.seed,
    )
    t0 = time.perf_counter()
    cpu0 = time.process_time()
    idle_rss = rss_kib(args.server_pid) if args.server_pid else None

    warned = False

    def tick(stats: Stats) -> None:
        nonlocal warned
        if not warned and stats.errors.get(RATE_LIMITED):
            # said as soon as it starts (a run can take minutes), not only in the note at the end
            warned = True
            print(
                f"\nduel load: the server is dropping frames for its rate limits: they are set for players and every "
                f"duel here comes from one address, so expect duels to fail. For a load test start it with "
                f"`duel serve {' '.join(LOAD_TEST_LIMITS)}`",
                file=sys.stderr,
                flush=True,
            )
        if args.quiet:
            return
        rss = rss_kib(args.server_pid) if args.server_pid else None
        line = (
            f"\rduels {stats.running:5} running {stats.finished:6} done {stats.failed:4} failed | "
            f"{stats.rate():8.0f} actions/s | p50 {stats.percentile(0.5) * 1000:6.1f} ms "
            f"p99 {stats.percentile(0.99) * 1000:6.1f} ms | errors {sum(stats.errors.values()):4}"
            + (f" | server {rss / 1024:6.1f} MiB" if rss else "")
            + f" | {time.perf_counter() - t0:5.0f} s"
        )
        print(line, end="", file=sys.stderr, flush=True)

    try:
        asyncio.run(_probe(args.url))
    except (OSError, InvalidURI, InvalidHandshake, TimeoutError) as exc:
        print(
            f"duel load: cannot reach a duel server at {args.url}: {getattr(exc, 'strerror', None) or exc}",
            file=sys.stderr,
        )
        return 1
    try:
        stats = asyncio.run(run_load(cfg, tick))
    except KeyboardInterrupt:
        return 130
    wall = time.perf_counter() - t0
    out = summary(stats, wall)
    # the generator is a process on some core too: past most of one, its own speed is what is
    # measured (the figures would not grow with the server's), so it says so
    out["driver_cpu_percent"] = round(100 * (time.process_time() - cpu0) / max(wall, 1e-9), 1)
    if args.server_pid:
        rss = rss_kib(args.server_pid)
        out["server_rss_kib"] = rss
        if rss and idle_rss and args.think > 0:
            # held at once: what the duels added to the server, per duel (a server that has run
            # other loads keeps memory it freed, so this reads low on a server not fresh)
            out["server_rss_kib_before"] = idle_rss
            out["server_rss_kib_per_duel"] = round((rss - idle_rss) / max(1, args.duels), 1)
    print(file=sys.stderr)
    rows = [
        (
            "duels started / finished / failed",
            f"{out['duels_started']} / {out['duels_finished']} / {out['duels_failed']}"
            + (f" ({out['duels_stopped']} still playing when time was up)" if out["duels_stopped"] else ""),
        ),
        ("accepted actions", f"{out['actions']} ({out['actions_per_s']}/s)"),
        ("action -> both clients, p50 / p99", f"{out['p50_ms']} ms / {out['p99_ms']} ms"),
        ("errors", ", ".join(f"{k}: {v}" for k, v in out["errors"].items()) or "none"),
        ("load generator CPU", f"{out['driver_cpu_percent']} % of a core"),
    ]
    if args.server_pid:
        per_duel = out.get("server_rss_kib_per_duel")
        rows.append(
            (
                "server RSS",
                f"{out.get('server_rss_kib')} KiB"
                + (f" ({per_duel} KiB per duel held, above {idle_rss} KiB before)" if per_duel is not None else ""),
            )
        )
    width = max(len(r[0]) for r in rows)
    for name, value in rows:
        print(f"{name:<{width}}  {value}")
    if out["driver_cpu_percent"] >= DRIVER_BUSY_PERCENT:
        print(
            f"note: the load generator used {out['driver_cpu_percent']} % of a core: these figures may be its own "
            "limit; split the duels over several `duel load` processes (or machines)",
            file=sys.stderr,
        )
    if out["errors"].get(RATE_LIMITED):
        print(
            f"note: the server dropped {out['errors'][RATE_LIMITED]} frames for its rate limits (each was sent again "
            "after a pause, which the latencies do not count): its limits are set for players, and every duel here "
            "comes from one address (a connection that keeps hitting them is closed, and its duel fails). For a "
            "load test start it with `duel serve " + " ".join(LOAD_TEST_LIMITS) + "` (from a checkout: "
            '`make run ARGS="' + " ".join(LOAD_TEST_LIMITS) + '"`)',
            file=sys.stderr,
        )
    print(json.dumps(out, sort_keys=True))
    return 0 if out["duels_failed"] == 0 else 1
