"""Chess clocks: time spent is in the log; a timeout appends the forced
outcome exactly once, even with two server processes watching the match."""

from __future__ import annotations

import asyncio
from pathlib import Path

import redis.asyncio as aioredis
from duel_helpers import run, running_server, url_of

from protocol.messages import CreateMatch, Join, Seated, Update
from server.client import DuelClient
from server.replay import verify_log
from server.store import RedisEventStore


def test_timeout_forces_one_outcome_across_two_servers(redis_url: str, tmp_path: Path) -> None:
    async def body() -> None:
        async with running_server(redis_url, tmp_path) as s1, running_server(redis_url, tmp_path) as s2:
            a = await DuelClient.connect(url_of(s1), "A")
            b = await DuelClient.connect(url_of(s2), "B")
            await a.send(CreateMatch(clock_ms=1_000, increment_ms=0))
            match_id = (await a.expect(Seated)).match_id
            await b.send(Join(match_id=match_id))
            await b.expect(Seated)
            first = await a.expect(Update)
            assert first.clocks == [1_000, 1_000] and first.pending is not None
            owing = first.pending["seat"]
            # nobody acts: the owing seat's flag falls after about a second
            forced = await asyncio.wait_for(_next_entry(a), timeout=5)
            assert forced.seq == 2 and forced.actor == owing
            assert forced.clocks is not None and forced.clocks[owing] <= 0
            await asyncio.sleep(0.3)
            for c in (a, b):
                await c.close()
            await asyncio.sleep(0.2)
            store = RedisEventStore(aioredis.Redis.from_url(redis_url))
            log = await store.read(match_id)
            timeouts = [e.client_action_id for e in log if e.client_action_id.startswith("timeout:")]
            assert timeouts[0] == "timeout:1" and len(timeouts) == len(set(timeouts))
            assert [e.seq for e in log] == list(range(1, len(log) + 1))
            assert log[1].seat == owing and log[1].action["do"] in ("pass", "concede")
            assert 900 <= log[1].time_ms <= 3_000
            divergence, _ = verify_log(log)
            assert divergence is None, divergence
            await store.redis.aclose()

    run(body())


async def _next_entry(c: DuelClient) -> Update:
    while True:
        update = await c.expect(Update, timeout=5)
        if update.view is not None:
            return update


def test_matches_without_clock_send_no_clocks(redis_url: str, tmp_path: Path) -> None:
    async def body() -> None:
        async with running_server(redis_url, tmp_path) as server:
            a = await DuelClient.connect(url_of(server), "A")
            b = await DuelClient.connect(url_of(server), "B")
            await a.send(CreateMatch())
            match_id = (await a.expect(Seated)).match_id
            await b.send(Join(match_id=match_id))
            update = await b.expect(Update)
            assert update.clocks is None
            for c in (a, b):
                await c.close()

    run(body())
