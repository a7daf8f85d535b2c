"""Players' latency while the server's bots search (issue 40): ``duel serve`` with ``--bot-policy
search`` against the same with ``greedy``, rounds alternating, same Redis, same load.

    .venv/bin/python -m bench.search_load                 # 50 bot matches, 2 rounds of each
    .venv/bin/python -m bench.search_load --tiny          # one short round of each (make test)

Each round starts a fresh server, then holds ``--bots`` matches against the server's own bot
(each played by a client at a human pace: ``--think`` seconds per decision) and, beside them,
``--duels`` duels between two load-driver clients at the same pace (``server.clients.load``):
the latency of those duels' actions (action -> both seats updated) is what the players of the
server feel, and the one figure compared. The search bots think in the server's worker pool
(``--search-workers``), so the event loop, which serves the players, should not notice them
beyond the CPU the workers take from the machine.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import tempfile
import time
from pathlib import Path
from typing import Any

from protocol.messages import CreateMatch, Seated, Update
from server.clients.bot import greedy
from server.clients.client import DuelClient
from server.clients.load import LoadConfig, run, summary
from server.storage.embedded_redis import EmbeddedRedis

from .throughput import serve_for_load

POLICIES = ("greedy", "search")


async def against_bot(url: str, think: float, seed: int, stop: asyncio.Event, count: list[int]) -> None:
    """One match against the server's bot, played at a human pace until ``stop`` (new matches
    after each end)."""
    rnd = random.Random(seed)
    while not stop.is_set():
        me = await DuelClient.connect(url, f"p{seed}")
        try:
            await me.send(CreateMatch(opponent="bot", name=f"P{seed}"))
            await me.expect(Seated, timeout=30)
            while not stop.is_set() and not me.finished:
                if me.legal and me.view is not None:
                    await asyncio.sleep(think * (0.5 + rnd.random()))
                    if me.legal and me.view is not None:
                        with contextlib.suppress(Exception):
                            await me.act(greedy(me.view, me.legal, rnd), timeout=30)
                            count[0] += 1
                else:
                    me.changed.clear()
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(me.changed.wait(), 1.0)
            count[1] += sum(1 for m in me.inbox if isinstance(m, Update))
        finally:
            with contextlib.suppress(Exception):
                await me.close()


async def one_round(url: str, bots: int, duels: int, think: float, seconds: float) -> dict[str, Any]:
    stop = asyncio.Event()
    count = [0, 0]
    players = [asyncio.create_task(against_bot(url, think, 100 + i, stop, count)) for i in range(bots)]
    await asyncio.sleep(min(5.0, seconds / 4))  # the bot matches under way
    began = time.perf_counter()
    stats = await run(LoadConfig(url, duels=duels, think_s=think, seconds=seconds, seed=7))
    took = time.perf_counter() - began
    stop.set()
    await asyncio.gather(*players, return_exceptions=True)
    out = summary(stats, took)
    out["bot_match_actions"] = count[0]
    return out


def main(argv: list[str] | None = None) -> dict[str, list[dict[str, Any]]]:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--bots", type=int, default=50, help="matches against the server's bot (default 50)")
    p.add_argument("--duels", type=int, default=50, help="player-vs-player duels measured beside them (default 50)")
    p.add_argument("--think", type=float, default=1.0, help="seconds per decision of each client (default 1)")
    p.add_argument("--seconds", type=float, default=40.0, help="seconds each round is measured (default 40)")
    p.add_argument("--rounds", type=int, default=2)
    p.add_argument("--search-workers", type=int, default=1)
    p.add_argument("--tiny", action="store_true")
    a = p.parse_args(argv)
    if a.tiny:
        a.bots, a.duels, a.seconds, a.rounds, a.think = 2, 2, 4.0, 1, 0.2
    results: dict[str, list[dict[str, Any]]] = {policy: [] for policy in POLICIES}
    print(
        f"{a.bots} matches against the server's bot and {a.duels} player duels, {a.think} s per decision, "
        f"{a.seconds:.0f} s per round, {a.search_workers} search worker(s)"
    )
    with tempfile.TemporaryDirectory() as d:
        rds = EmbeddedRedis(Path(d) / "redis", fsync="always").start()
        try:
            for r in range(a.rounds):
                for policy in POLICIES:
                    extra = ("--bot-policy", policy, "--bot-think", "0.6", "--search-workers", str(a.search_workers))
                    server = serve_for_load(Path(d) / f"{policy}{r}", rds.url, *extra)
                    try:
                        got = asyncio.run(one_round(server.url, a.bots, a.duels, a.think, a.seconds))
                    finally:
                        server.stop()
                    results[policy].append(got)
                    print(
                        f"  round {r + 1} {policy:7s} bots: players' p50 {got['p50_ms']:.2f} ms, "
                        f"p99 {got['p99_ms']:.2f} ms over {got['actions']} actions; "
                        f"{got['bot_match_actions']} actions against the bots; errors {got['errors']}",
                        flush=True,
                    )
        finally:
            rds.stop()
    p99 = {policy: sorted(x["p99_ms"] for x in rows)[len(rows) // 2] for policy, rows in results.items()}
    ratio = p99["search"] / p99["greedy"] if p99["greedy"] else float("nan")
    print(
        f"players' p99 with search bots {p99['search']:.2f} ms, with greedy bots {p99['greedy']:.2f} ms "
        f"-> {ratio:.2f}x (median of {a.rounds} round(s) each)"
    )
    return results


if __name__ == "__main__":
    main()
