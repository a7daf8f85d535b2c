"""Loading long matches, and the view at any seq (issue 13). Ratios against a baseline of the
same run.

    .venv/bin/python -m bench.replays

- load: a server process taking up a 2,000-entry match it does not hold yet, from the newest
  snapshot plus the entries after it, vs from entry 1 (baseline: the same match with its
  snapshots deleted);
- view at seq: one replay page (one entry, with its view) at a random seq of that finished
  match, folded from the cached checkpoints, vs folded from entry 1.

A real embedded Redis (unix socket), the real MatchService; nothing is mocked.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import redis.asyncio as aioredis

from engine import DuelConfig, apply_facts, create, decide, fold, legal_actions, pending, state_hash
from engine.decks import deck_named
from server.history import replays
from server.match import snapshots
from server.match.directory import MatchDirectory
from server.match.matches import MatchService
from server.runtime.metrics import Metrics
from server.storage import keys
from server.storage.embedded_redis import EmbeddedRedis
from server.storage.entry import LogEntry
from server.storage.store import RedisEventStore

TARGET = 2000
ALIAS_KEY = b"bench-alias-key"


def long_log(seed: int, target: int = TARGET) -> list[LogEntry]:
    """A duel of ``target`` entries: both players mostly pass and move on, now and then Set,
    summon or activate; with three demo decks each (a bench-only 120-card Deck, so that no
    Deck runs out first) the duel lasts well past ``target`` entries."""
    rnd = random.Random(seed)
    every = deck_named("counters") + deck_named("end-step") + deck_named("battle-step")
    decks = (list(every), list(reversed(every)))
    genesis = create(DuelConfig(seed=seed, decks=decks))
    state = fold(genesis)
    log = [LogEntry(1, None, {"do": "start", "seed": seed, "decks": list(decks)}, genesis, state_hash(state))]
    while len(log) < target and (owed := pending(state)) is not None:
        seat = int(owed["seat"])
        legal = legal_actions(state, seat)
        busy = [a for a in legal if a["do"] in ("activate", "set", "flip_summon", "change_position", "summon")]
        quiet = [a for a in legal if a["do"] in ("pass", "next_phase", "end_turn")]
        action = rnd.choice(busy) if busy and rnd.random() < 0.3 else rnd.choice(quiet or legal)
        facts = decide(state, seat, action)
        state = apply_facts(state, facts)
        log.append(LogEntry(len(log) + 1, seat, action, facts, state_hash(state), time_ms=50))
    return log


def _timed(fn: Any, rounds: int) -> list[float]:
    out = []
    for _ in range(rounds):
        t = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t)
    return out


async def _load_times(url: str, match_id: str, rounds: int) -> list[float]:
    client = aioredis.Redis.from_url(url)
    store = RedisEventStore(client)
    out = []
    for _ in range(rounds):
        service = MatchService(store, MatchDirectory(client), Metrics(), lambda m: ALIAS_KEY)
        t = time.perf_counter()
        lm = await service.load(match_id)
        out.append(time.perf_counter() - t)
        assert lm.seq > 0
    await client.aclose()
    return out


async def _store(url: str, match_id: str, log: list[LogEntry]) -> None:
    client = aioredis.Redis.from_url(url)
    store = RedisEventStore(client)
    vp_state = None
    from server import rules

    vp = rules.viewpoints(ALIAS_KEY)
    for e in log:
        assert (await store.append(match_id, e)).status == "ok"
        vp.apply(e.facts)
        vp_state = rules.fold(e.facts, vp_state)
        if e.seq % snapshots.EVERY == 0:
            snap = snapshots.Snapshot(e.seq, e.state_hash, e.ts_ms, vp_state, vp.book, None)
            await store.put_snapshot(match_id, e.seq, snapshots.dumps(snap))
    await client.aclose()


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--entries", type=int, default=TARGET, help="length of the match")
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args(argv)
    rounds = args.rounds
    log = next(log for seed in range(100) if len(log := long_log(seed, args.entries)) == args.entries)
    print(f"a match of {len(log)} entries (snapshot every {snapshots.EVERY})")
    with tempfile.TemporaryDirectory() as d:
        redis = EmbeddedRedis(Path(d) / "r", fsync="everysec").start()
        try:
            asyncio.run(_store(redis.url, "benchlong", log))
            with_snap = asyncio.run(_load_times(redis.url, "benchlong", rounds))

            async def drop() -> None:
                client = aioredis.Redis.from_url(redis.url)
                await client.delete(keys.snapshots_key("benchlong"))
                await client.aclose()

            asyncio.run(drop())
            scratch = asyncio.run(_load_times(redis.url, "benchlong", rounds))
        finally:
            redis.stop()
    a, b = statistics.median(with_snap), statistics.median(scratch)
    print(
        f"load from snapshot + tail: {a * 1000:8.1f} ms   from scratch: {b * 1000:8.1f} ms   "
        f"-> {b / a:.1f}x faster (median of {rounds}; range {min(scratch) / max(with_snap):.1f}-"
        f"{max(scratch) / min(with_snap):.1f}x)"
    )

    rnd = random.Random(1)
    seqs = [rnd.randint(1, len(log)) for _ in range(40)]
    checkpoints: dict[int, replays.Checkpoint] = {}
    replays.page(log, ALIAS_KEY, "0", 1, len(log), False, checkpoints)
    fast = [t for s in seqs for t in _timed(lambda s=s: replays.page(log, ALIAS_KEY, "0", s, 1, True, checkpoints), 1)]
    slow = [t for s in seqs[:8] for t in _timed(lambda s=s: replays.page(log, ALIAS_KEY, "0", s, 1, True), 1)]
    f, sl = statistics.median(fast), statistics.median(slow)
    print(
        f"view at a random seq: {f * 1000:7.2f} ms (p99 {sorted(fast)[int(len(fast) * 0.99) - 1] * 1000:.2f} ms) "
        f"from checkpoints, {sl * 1000:7.1f} ms from entry 1 -> {sl / f:.1f}x"
    )


if __name__ == "__main__":
    main()
