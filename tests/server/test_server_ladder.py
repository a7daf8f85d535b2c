"""The rated ladder (issue 39): a rated duel played to its end updates both ratings once; the
same end reported twice (two calls, two server processes) updates once; a server SIGKILLed
between the end and the update updates once when it is back; a player who leaves a rated match
loses it. Each test counts the updates in Redis (the ladder's update log, and each account's
games). Real Redis, real websockets, real server processes."""

from __future__ import annotations

import asyncio
import json
import random
import signal
from pathlib import Path
from typing import Any

import redis.asyncio as aioredis
from account_helpers import ask, rated_match, registered, unique, until
from duel_helpers import play, run, running_server, url_of
from proc_helpers import ServeProcess

from protocol.messages import (
    GetHistory,
    GetLadder,
    GetProfile,
    LadderPage,
    MatchList,
    Profile,
    Update,
)
from server.accounts.ladder import Ladder, RatedResult
from server.clients.client import DuelClient
from server.history import archive
from server.storage import keys

PASSWORD = "a ladder password, long enough"


async def updates_of(client: aioredis.Redis, match_id: str) -> list[dict[str, Any]]:
    """Every rating update the ladder's log holds for ``match_id``."""
    out = []
    for _id, fields in await client.xrange(keys.RATING_LOG, "-", "+"):
        if fields[b"match"].decode() == match_id:
            out.append(json.loads(fields[b"update"]))
    return out


async def profile(c: DuelClient, name: str) -> dict[str, Any]:
    got = await ask(c, GetProfile(name=name), Profile)
    assert isinstance(got, Profile), got
    (current,) = [r for r in got.ratings if r["format"] == "current"]
    return current


async def until_rated(client: aioredis.Redis, match_id: str, timeout: float = 30.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not await client.hexists(keys.RATINGS_APPLIED, match_id):
        assert loop.time() < deadline, f"match {match_id} not rated within {timeout} s"
        await asyncio.sleep(0.05)


def check_one_update(update: dict[str, Any], winner: int | str | None, before: tuple[int, int]) -> None:
    assert update["winner"] == (winner if winner in (0, 1) else None)
    for seat in (0, 1):
        assert update["before"][seat]["games"] == before[seat]
        assert update["after"][seat]["games"] == before[seat] + 1
    if winner in (0, 1):
        assert isinstance(winner, int)
        assert update["after"][winner]["rating"] > update["before"][winner]["rating"]
        assert update["after"][1 - winner]["rating"] < update["before"][1 - winner]["rating"]


def test_a_rated_duel_played_to_its_end_updates_both_ratings_once(redis_url: str, tmp_path: Path) -> None:
    async def body() -> None:
        client = aioredis.Redis.from_url(redis_url)
        async with running_server(redis_url, tmp_path) as server:
            url = url_of(server)
            ann, bob = unique("Ann"), unique("Bob")
            a, _ = await registered(url, ann, PASSWORD)
            b, _ = await registered(url, bob, PASSWORD)
            match_id, _ = await rated_match(a, b)
            await play([a, b], random.Random(3))
            assert a.view is not None
            winner = a.view["winner"]
            await until_rated(client, match_id)
            (update,) = await updates_of(client, match_id)
            check_one_update(update, winner, (0, 0))
            # reported again, by this process's sweep and by hand: nothing more
            assert await server.accounts.rated.settle(match_id) == "done"
            assert match_id not in await server.accounts.rated.sweep()
            assert len(await updates_of(client, match_id)) == 1
            mine, theirs = await profile(a, ann), await profile(a, bob)
            assert mine["games"] == theirs["games"] == 1
            if winner in (0, 1):
                assert (mine["wins"], theirs["wins"]) == ((1, 0) if winner == 0 else (0, 1))
            # the leaderboard holds both; the history of each lists the match, rated
            page = await ask(a, GetLadder(format="current", limit=100), LadderPage)
            assert isinstance(page, LadderPage) and page.total >= 2
            history = await ask(b, GetHistory(name=bob), MatchList)
            assert isinstance(history, MatchList)
            (row,) = [r for r in history.matches if r["match_id"] == match_id]
            assert row["rated"] and row["seat"] == 1 and row["status"] == "finished"
            # the archive lists it by account too (duel matches --account NAME)
            info = await server.directory.get(match_id)
            assert info is not None
            for account_id in info.accounts:
                rows = await archive.history(client, account_id=account_id, limit=10)
                assert [r.match_id for r in rows] == [match_id]
            for c in (a, b):
                await c.close()
        await client.aclose()

    run(body())


def test_the_same_end_reported_twice_updates_once(redis_url: str, tmp_path: Path) -> None:
    """Two server processes hold the match (one player on each): both see the end and both rate
    it; then two more calls, at once, on two Redis connections. One update."""

    async def body() -> None:
        client = aioredis.Redis.from_url(redis_url)
        async with (
            running_server(redis_url, tmp_path / "one") as one,
            running_server(redis_url, tmp_path / "two") as two,
        ):
            ann, bob = unique("Ann"), unique("Bob")
            a, _ = await registered(url_of(one), ann, PASSWORD)
            b, _ = await registered(url_of(two), bob, PASSWORD)
            match_id, _ = await rated_match(a, b)
            await play([a, b], random.Random(11))
            assert a.view is not None
            await until_rated(client, match_id)

            # both processes recorded the end and reported it to the ladder: one update
            def reports(s: Any) -> float:
                m = s.metrics
                return float(
                    m.get("duel_rated_reports_total", outcome="applied")
                    + m.get("duel_rated_reports_total", outcome="done")
                )

            await until(lambda: reports(one) >= 1 and reports(two) >= 1, "both processes reported the end")
            rated = [s.metrics.get("duel_rating_updates_total") for s in (one, two)]
            assert sum(rated) == 1, rated
            others = [aioredis.Redis.from_url(redis_url) for _ in range(2)]
            info = await one.directory.get(match_id)
            assert info is not None and info.rated
            result = RatedResult(match_id, "current", info.accounts, a.view["winner"])
            outcomes = await asyncio.gather(*(Ladder(c).apply(result, 0) for c in others))
            assert outcomes == ["done", "done"]
            settled = await asyncio.gather(one.accounts.rated.settle(match_id), two.accounts.rated.settle(match_id))
            assert settled == ["done", "done"]
            (update,) = await updates_of(client, match_id)
            check_one_update(update, a.view["winner"], (0, 0))
            for c in (a, b, *others):
                await c.close() if isinstance(c, DuelClient) else await c.aclose()
        await client.aclose()

    run(body())


def test_two_calls_at_once_apply_one_update(redis_url: str) -> None:
    """The ladder's own race: the same result applied at once on two Redis connections, before
    either has applied it: one ``applied``, one ``done``, one update in the log."""

    async def body() -> None:
        clients = [aioredis.Redis.from_url(redis_url) for _ in range(3)]
        from server.accounts.sessions import new_id

        match_id = f"race-{new_id()}"
        result = RatedResult(match_id, "current", (new_id(), new_id()), 0)
        outcomes = await asyncio.gather(Ladder(clients[0]).apply(result, 1), Ladder(clients[1]).apply(result, 2))
        assert sorted(outcomes) == ["applied", "done"]
        (update,) = await updates_of(clients[2], match_id)
        check_one_update(update, 0, (0, 0))
        for c in clients:
            await c.aclose()

    run(body())


def test_a_sigkill_between_the_end_and_the_update_still_updates_once(redis_url: str, tmp_path: Path) -> None:
    """The first process rates an hour after the end (``--rating-delay``): it is SIGKILLed with
    the match ended and not rated. The next one, at its first sweep, rates it; a third one,
    after another SIGKILL, rates nothing more."""
    workdir = tmp_path / "k"
    first = ServeProcess(workdir, "--redis-url", redis_url, "--rating-delay", "3600", "--rated-sweep-every", "0.3")
    first.start()

    async def body() -> None:
        client = aioredis.Redis.from_url(redis_url)
        ann, bob = unique("Ann"), unique("Bob")
        a, _ = await registered(first.url, ann, PASSWORD)
        b, _ = await registered(first.url, bob, PASSWORD)
        match_id, _ = await rated_match(a, b)
        await play([a, b], random.Random(21))
        assert a.view is not None
        winner = a.view["winner"]
        meta = keys.meta_key(match_id)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 10
        while await client.hget(meta, "status") != b"finished":
            assert loop.time() < deadline, "the end was not recorded"
            await asyncio.sleep(0.05)
        await asyncio.sleep(1.0)  # sweeps of the first process: it leaves the match to its delay
        assert not await client.hexists(keys.RATINGS_APPLIED, match_id)
        assert await client.zscore(keys.RATED_OPEN, match_id) is not None
        for c in (a, b):
            await c.close()
        first.stop(signal.SIGKILL)
        assert not await client.hexists(keys.RATINGS_APPLIED, match_id)
        second = ServeProcess(workdir, "--redis-url", redis_url, "--rated-sweep-every", "0.3").start()
        try:
            await until_rated(client, match_id)
        finally:
            second.stop(signal.SIGKILL)
        third = ServeProcess(workdir, "--redis-url", redis_url, "--rated-sweep-every", "0.3").start()
        try:
            await asyncio.sleep(1.5)  # several sweeps
        finally:
            third.stop()
        (update,) = await updates_of(client, match_id)
        check_one_update(update, winner, (0, 0))
        assert await client.zscore(keys.RATED_OPEN, match_id) is None
        await client.aclose()

    try:
        run(body())
    finally:
        if first.proc is not None and first.proc.poll() is None:
            first.stop()


def test_a_player_who_leaves_a_rated_match_loses_it(redis_url: str, tmp_path: Path) -> None:
    async def body() -> None:
        client = aioredis.Redis.from_url(redis_url)
        from server.accounts import AccountSettings

        settings = AccountSettings(rated_grace=1.0, rated_sweep_every=0.2)
        async with running_server(redis_url, tmp_path, accounts=settings) as server:
            url = url_of(server)
            ann, bob = unique("Ann"), unique("Bob")
            a, _ = await registered(url, ann, PASSWORD)
            b, _ = await registered(url, bob, PASSWORD)
            match_id, _ = await rated_match(a, b)
            await b.close()  # Bob leaves, and does not come back within the grace
            while a.view is None or a.view["winner"] is None:
                await a.expect(Update, timeout=15)
            assert a.view["winner"] == 0 and a.view["end_reason"] == "concede"
            await until_rated(client, match_id)
            (update,) = await updates_of(client, match_id)
            check_one_update(update, 0, (0, 0))
            assert (await profile(a, bob))["losses"] == 1
            assert server.metrics.get("duel_rated_forfeits_total") == 1
            await a.close()
        await client.aclose()

    run(body())
