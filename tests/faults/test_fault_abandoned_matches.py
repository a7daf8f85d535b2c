"""Abandoned matches and a creating flood from one address, against a real server process
(issue 34; tests/server/test_server_abandoned.py has the same at a small scale, in-process).

* ``DUEL_FAULT_ABANDONED_BOTS`` times (300 in ``make faults``): connect, hello, create a
  vs-bot match, close, from one address whose connection limit is
  ``DUEL_FAULT_ADDRESS_LIMIT`` (256, the default, in ``make faults``). Before the fix the
  bots stayed, counted against that address: from the 257th, every connection from it was
  refused and every bot failed to join. Now every connection is let in (with more bots
  running at once than the address may hold connections), every bot leaves its abandoned
  match (``bot_abandoned_after``, 5 s here), and afterwards a client of that address plays
  against a new bot.
* ``DUEL_FAULT_CREATE_ATTEMPTS`` ``create_match`` requests (2,000 in ``make faults``) from
  20 connections of one address, spread over 6 s (each connection that got a seat closes
  and opens another), with the default creation limits (30 a minute, 8 waiting) and a
  grace shortened to 1 s, so that the flood's abandoned matches expire while it goes on and
  the per-minute limit is reached too: what was created, what was refused and with which
  code, how many of its matches the lobby lists, and that they are gone once the grace has
  passed; in the middle of the flood a player from another address creates a match and
  another joins it.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from websockets.exceptions import ConnectionClosed, InvalidStatus

from protocol import errors as E
from protocol.messages import CreateMatch, Error, Join, ListMatches, MatchList, Seated, Update
from server.clients.client import DuelClient
from server.process.config import ServerConfig
from tests.faults.fault_helpers import ConfigServeProcess, knob, report
from tests.faults.test_fault_hostile_clients import metric

BOTS = knob("DUEL_FAULT_ABANDONED_BOTS", 20)
ADDRESS_LIMIT = knob("DUEL_FAULT_ADDRESS_LIMIT", 8)
ATTEMPTS = knob("DUEL_FAULT_CREATE_ATTEMPTS", 100)
FLOOD_CONNECTIONS = 20
LEAVE_AFTER_S = 5.0  # longer than the abandoning takes: every bot is there at once, beyond the address's limit
GRACE_S = 1.0
FLOOD_S = 6.0


async def _until(check: Callable[[], bool], what: str, timeout: float) -> float:
    """Wait until ``check()`` holds; how long it took."""
    t0 = time.monotonic()
    while not check():
        assert time.monotonic() - t0 < timeout, f"not within {timeout} s: {what}"
        await asyncio.sleep(0.05)
    return time.monotonic() - t0


def test_abandoned_vs_bot_matches_leave_no_bot_behind(tmp_path: Path, redis_url: str) -> None:
    server = ConfigServeProcess(
        tmp_path / "s",
        redis_url,
        bot_think=0.0,
        max_connections_per_address=ADDRESS_LIMIT,
        bot_abandoned_after=LEAVE_AFTER_S,
    ).start()
    figures: dict[str, object] = {}

    async def body() -> None:
        refused = most_bots = 0
        t0 = time.monotonic()
        for i in range(BOTS):
            try:
                c = await DuelClient.connect(server.url, f"leaver{i}")
            except InvalidStatus as exc:
                refused += 1
                assert exc.response.status_code == 429
                continue
            await c.send(CreateMatch(opponent="bot"))
            await c.expect(Seated)
            await c.close()
            if i % 10 == 0:
                most_bots = max(most_bots, int(metric(server.port, "duel_bots_running")))
        abandoned_s = time.monotonic() - t0
        most_bots = max(most_bots, int(metric(server.port, "duel_bots_running")))
        gone_s = await _until(
            lambda: metric(server.port, "duel_bots_running") == 0 and metric(server.port, "duel_connections_open") == 0,
            "every bot left and every connection closed",
            60 + 2 * LEAVE_AFTER_S,
        )
        me = await DuelClient.connect(server.url, "me")  # the address is not locked out
        await me.send(CreateMatch(opponent="bot"))
        await me.expect(Seated)
        while me.seq < 6:  # the new bot plays
            if me.legal:
                await me.act(next(a for a in me.legal if a["do"] != "concede"))
            else:
                me.changed.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(me.changed.wait(), 20)
        bots_then = metric(server.port, "duel_bots_running")
        await me.close()
        figures.update(
            abandoned_vs_bot_matches=BOTS,
            address_connection_limit=ADDRESS_LIMIT,
            connections_refused=refused,
            abandoned_in_s=round(abandoned_s, 1),
            most_bots_running_seen=most_bots,
            all_bots_gone_after_s=round(gone_s, 1),
            bots_running_in_the_new_match=int(bots_then),
            new_vs_bot_match_played_to_seq=me.seq,
        )
        assert refused == 0 and most_bots > ADDRESS_LIMIT  # the bots count against no address
        assert bots_then == 1 and me.seq >= 6

    try:
        asyncio.run(body())
    finally:
        server.stop()
    report("abandoned_bot_matches", **figures)


def test_a_creating_flood_from_one_address_is_bounded_and_its_matches_expire(tmp_path: Path, redis_url: str) -> None:
    defaults = ServerConfig()
    server = ConfigServeProcess(
        tmp_path / "s",
        redis_url,
        trusted_proxies=["127.0.0.1"],
        address_rate=100_000,
        rate_per_second=100_000,
        rate_burst=100_000,
        address_matches_per_minute=defaults.address_matches_per_minute,
        address_waiting_matches=defaults.address_waiting_matches,
        waiting_grace=GRACE_S,
        waiting_sweep_every=0.2,
    ).start()
    figures: dict[str, object] = {}
    flood = {"X-Forwarded-For": "203.0.113.66"}

    async def listed_flood(c: DuelClient) -> int:
        await c.send(ListMatches(status="live", limit=200))
        return sum(1 for r in (await c.expect(MatchList)).matches if r["players"][0] == "flood")

    async def body() -> None:
        answers: Counter[str] = Counter()
        sent = 0

        pause = FLOOD_S * FLOOD_CONNECTIONS / ATTEMPTS

        async def attacker() -> None:
            nonlocal sent
            while sent < ATTEMPTS:
                c = await DuelClient.connect(server.url, "flood", headers=flood)
                try:
                    while sent < ATTEMPTS:
                        sent += 1
                        await c.send(CreateMatch(name="flood"))
                        msg = await c.recv(timeout=20)
                        while not isinstance(msg, Seated | Error):
                            msg = await c.recv(timeout=20)
                        if isinstance(msg, Seated):
                            answers["seated"] += 1
                            break  # the connection is bound: a new one for the next
                        answers[msg.code] += 1
                        await asyncio.sleep(pause)
                finally:
                    with contextlib.suppress(ConnectionClosed):
                        await c.close()

        watcher = await DuelClient.connect(server.url, "watcher", headers={"X-Forwarded-For": "198.51.100.7"})
        t0 = time.monotonic()
        attackers = asyncio.gather(*(attacker() for _ in range(FLOOD_CONNECTIONS)))
        await asyncio.sleep(FLOOD_S / 2)
        # a player from another address is not concerned
        honest = await DuelClient.connect(server.url, "honest", headers={"X-Forwarded-For": "198.51.100.8"})
        await honest.send(CreateMatch(name="honest"))
        match_id = (await honest.expect(Seated)).match_id
        joiner = await DuelClient.connect(server.url, "joiner", headers={"X-Forwarded-For": "198.51.100.9"})
        await joiner.send(Join(match_id=match_id, name="joiner"))
        await joiner.expect(Seated)
        await honest.expect(Update, timeout=20)
        honest_during_flood = not attackers.done()
        await attackers
        flood_s = time.monotonic() - t0
        listed_after_flood = await listed_flood(watcher)
        t1 = time.monotonic()
        while await listed_flood(watcher):
            assert time.monotonic() - t1 < 30 + GRACE_S, "the flood's waiting matches are still listed"
            await asyncio.sleep(0.2)
        gone_s = time.monotonic() - t1
        expired = metric(server.port, 'duel_matches_expired_total{why="left"}')
        figures.update(
            create_attempts=sent,
            flood_connections=FLOOD_CONNECTIONS,
            flood_s=round(flood_s, 2),
            answers=dict(answers),
            flood_matches_listed_after_flood=listed_after_flood,
            flood_matches_listed_after_s=round(gone_s, 1),
            expired=int(expired),
            honest_match_started_during_the_flood=honest_during_flood,
        )
        per_minute = defaults.address_matches_per_minute
        assert answers["seated"] <= per_minute + flood_s * per_minute / 60 + 1
        assert answers[E.RATE_TOO_MANY_WAITING] + answers[E.RATE_CREATE_LIMITED] == sent - answers["seated"]
        assert answers["seated"] > defaults.address_waiting_matches  # expired matches freed their places
        assert listed_after_flood <= defaults.address_waiting_matches
        assert expired >= answers["seated"] - listed_after_flood
        for c in (watcher, honest, joiner):
            await c.close()

    try:
        asyncio.run(body())
    finally:
        server.stop()
    report("creating_flood", **figures)
