"""Chess clocks: time spent is in the log; a timeout appends the forced
outcome exactly once, even with two server processes watching the match."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import redis.asyncio as aioredis
from duel_helpers import quietly, run, running_server, start_match, url_of, wait_for_turn

from protocol.messages import Accepted, CreateMatch, Join, Reconnect, Seated, Update
from server.clients.client import DuelClient
from server.history.replay import verify_log
from server.storage.entry import LogEntry
from server.storage.store import RedisEventStore


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


def test_a_stalled_server_does_not_let_the_flag_fall(redis_url: str, tmp_path: Path) -> None:
    """The server's event loop is held for longer than the owing seat has left (here by a
    blocking call in its process; a SIGSTOP is the same to it: tests/faults/
    test_fault_clock_stalls.py). The stall is not the seat's: when the loop runs again the
    seat still has its time, its action is accepted, and its entry charges it well under the
    stall. Before, the timeout fired as soon as the loop ran again."""

    async def body() -> None:
        async with running_server(redis_url, tmp_path) as server:
            a, b, match_id, _ = await start_match(url_of(server), create=CreateMatch(clock_ms=1_500))
            actor = await wait_for_turn([a, b])
            assert actor is not None
            time.sleep(2.5)  # the whole loop (the server's with it) stands still
            reply = await actor.act(quietly(actor.legal))
            assert isinstance(reply, Accepted), reply
            entries = await _log(redis_url, match_id)
            assert entries[reply.seq - 1].client_action_id == reply.client_action_id
            assert entries[reply.seq - 1].time_ms < 1_000, entries[reply.seq - 1].time_ms
            for c in (a, b):
                await c.close()

    run(body())


def test_a_seat_that_leaves_is_charged_while_it_is_away(redis_url: str, tmp_path: Path) -> None:
    """Leaving does not stop a clock (PROTOCOL.md, section 7): the owing seat disconnects as
    soon as it has its decision and comes back on another server process a while later (which
    loads the match from the log); the time away is charged to it. And a seat that does not
    come back loses on time while its opponent waits."""

    async def body() -> None:
        async with running_server(redis_url, tmp_path) as s1, running_server(redis_url, tmp_path) as s2:
            a, b, match_id, tokens = await start_match(url_of(s1), create=CreateMatch(clock_ms=60_000))
            actor = await wait_for_turn([a, b])
            assert actor is not None
            seat = 0 if actor is a else 1
            legal, seq = quietly(actor.legal), actor.seq
            await actor.close()
            await asyncio.sleep(1.5)
            back = await DuelClient.connect(url_of(s2), "back")
            await back.send(Reconnect(token=tokens[seat], last_seq=seq))
            await back.expect(Seated)
            reply = await back.act(legal, expected_seq=seq)
            assert isinstance(reply, Accepted), reply
            entries = await _log(redis_url, match_id)
            assert entries[reply.seq - 1].time_ms >= 1_500, entries[reply.seq - 1].time_ms
            for c in (a, b, back):
                if c is not actor:
                    await c.close()

            c, d, match_id, _ = await start_match(url_of(s1), create=CreateMatch(clock_ms=1_000))
            leaver = await wait_for_turn([c, d])
            assert leaver is not None
            stayer = d if leaver is c else c
            await leaver.close()
            forced = await asyncio.wait_for(_next_entry(stayer), timeout=10)
            assert forced.actor == (0 if leaver is c else 1)
            await stayer.close()

    run(body())


async def _log(redis_url: str, match_id: str) -> list[LogEntry]:
    store = RedisEventStore(aioredis.Redis.from_url(redis_url))
    try:
        return await store.read(match_id)
    finally:
        await store.redis.aclose()
