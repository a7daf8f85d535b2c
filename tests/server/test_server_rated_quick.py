"""Rated quick match (issue 39; PROTOCOL.md section 4a): logged-in players of a format paired by
rating, the accepted gap widening with the wait. Close ratings pair at once; a far pair waits,
then pairs once the window has grown (one player moves to the other's match: a second
``seated``); guests are refused; an account is never paired with itself; a waiting player who
reconnects waits again; two server processes on one Redis share the queue. Real Redis, real
websockets, real server processes."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import redis.asyncio as aioredis
from account_helpers import ask, registered, unique
from duel_helpers import run, running_server, url_of
from proc_helpers import ServeProcess

from protocol.messages import Error, Join, LoggedIn, LoginToken, QuickMatch, Reconnect, Seated, Update
from server.accounts.ratings import Rating
from server.accounts.store import AccountStore
from server.clients.client import DuelClient
from server.lobby.quick import queue_key
from server.lobby.rated_queue import RatedWindow
from server.storage import keys

PASSWORD = "a rated quick password"
FMT = "goat"  # the rated tests queue in the Goat format: the casual tests of other files use "current"


async def fresh_queue(redis: aioredis.Redis) -> None:
    """Players other tests left waiting are not ours."""
    await redis.delete(keys.rated_queue_key(FMT), keys.rated_queue_key("current"))


async def rate(redis: aioredis.Redis, name: str, rating: float) -> str:
    """Give the account ``name`` a rating in FMT (as if it had played); its id."""
    account_id = await AccountStore(redis).id_of(name)
    assert account_id is not None
    await redis.hset(keys.ratings_key(FMT), account_id, Rating(rating=rating, rd=80.0, games=20).dumps())
    return account_id


async def player(url: str, redis: aioredis.Redis, prefix: str, rating: float) -> tuple[DuelClient, str, str]:
    """A logged-in connection of a new account rated ``rating``: (client, name, session token)."""
    name = unique(prefix)
    c, logged = await registered(url, name, PASSWORD)
    await rate(redis, name, rating)
    return c, name, logged.token


async def seated(c: DuelClient, msg: QuickMatch) -> Seated:
    got = await ask(c, msg, Seated)
    assert isinstance(got, Seated), got
    return got


async def first_update(c: DuelClient, timeout: float = 15.0) -> Update:
    """The first update with a view this connection received (read from its inbox: another
    reader may have taken it off the queue)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        got = [m for m in c.inbox if isinstance(m, Update) and m.view is not None]
        if got:
            return got[0]
        assert loop.time() < deadline, f"{c.name}: no update within {timeout} s"
        await asyncio.sleep(0.05)


async def queued(redis: aioredis.Redis) -> list[str]:
    return [m.decode() for m in await redis.zrange(keys.rated_queue_key(FMT), 0, -1)]


async def until_queued(redis: aioredis.Redis, expected: list[str], timeout: float = 5.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while sorted(await queued(redis)) != sorted(expected):
        assert loop.time() < deadline, f"queued: {await queued(redis)}, not {expected}"
        await asyncio.sleep(0.05)


def test_close_ratings_pair_at_once_and_guests_are_refused(redis_url: str, tmp_path: Path) -> None:
    async def body() -> None:
        redis = aioredis.Redis.from_url(redis_url)
        await fresh_queue(redis)
        async with running_server(redis_url, tmp_path) as server:
            url = url_of(server)
            # a guest is refused, and nothing is queued or created
            guest = await DuelClient.connect(url, "guest")
            err = await ask(guest, QuickMatch(format=FMT, rated=True), Seated)
            assert isinstance(err, Error) and err.code == "account/required", err
            assert "log in" in err.reason
            assert await queued(redis) == []

            ann, _, ann_token = await player(url, redis, "Ann", 1500.0)
            bob, _, _ = await player(url, redis, "Bob", 1580.0)
            a = await seated(ann, QuickMatch(format=FMT, rated=True, name="Ann"))
            assert (a.seat, a.started) == (0, False)
            assert await queued(redis) == [a.match_id]
            # a casual quick match of the format is not paired with the rated player
            await guest.send(QuickMatch(format=FMT, name="Guest"))
            g = await guest.expect(Seated)
            assert g.match_id != a.match_id and not g.started
            assert await queued(redis) == [a.match_id]
            # the same account on another connection is never paired with itself
            ann2 = await DuelClient.connect(url, "ann2")
            relogged = await ask(ann2, LoginToken(token=ann_token), LoggedIn)
            assert isinstance(relogged, LoggedIn)
            a2 = await seated(ann2, QuickMatch(format=FMT, rated=True, name="Ann again"))
            assert a2.seat == 0 and a2.match_id != a.match_id
            assert sorted(await queued(redis)) == sorted([a.match_id, a2.match_id])
            # a rated quick match is paired by the queue, never joined by id
            cid, _, _ = await player(url, redis, "Cid", 1500.0)
            err = await ask(cid, Join(match_id=a2.match_id), Seated)
            assert isinstance(err, Error) and err.code == "match/rated_refused", err
            await ann2.close()  # it leaves the queue with its connection
            await until_queued(redis, [a.match_id])
            # 80 points apart: within the first window (±100), paired at once
            b = await seated(bob, QuickMatch(format=FMT, rated=True, name="Bob"))
            assert (b.match_id, b.seat, b.started) == (a.match_id, 1, True)
            assert await queued(redis) == []
            for c in (ann, bob):
                await first_update(c)
            info = await server.directory.get(a.match_id)
            assert info is not None and info.rated and info.quick and info.format == FMT and all(info.accounts)
            assert await redis.zscore(keys.RATED_OPEN, a.match_id) is not None  # on the ladder, to be rated
            for c in (guest, ann, bob, cid):
                await c.close()
        await redis.aclose()

    run(body())


def test_a_far_pair_waits_then_pairs_when_the_window_has_widened(redis_url: str, tmp_path: Path) -> None:
    """300 points apart: the window (100, +50 a second here) reaches 300 after 4 s of waiting.
    Both wait in matches of their own until then; then one of them moves to the other's match."""

    async def body() -> None:
        redis = aioredis.Redis.from_url(redis_url)
        await fresh_queue(redis)
        window = RatedWindow(every_s=1.0)
        assert window.gap(3999) == 250 and window.gap(4000) == 300 and window.gap(10**9) == window.widest
        async with running_server(redis_url, tmp_path, rated_window=window) as server:
            url = url_of(server)
            ann, ann_name, _ = await player(url, redis, "Ann", 1500.0)
            bob, bob_name, _ = await player(url, redis, "Bob", 1800.0)
            a = await seated(ann, QuickMatch(format=FMT, rated=True, name="Ann"))
            started = time.monotonic()
            b = await seated(bob, QuickMatch(format=FMT, rated=True, name="Bob"))
            assert b.seat == 0 and not b.started and b.match_id != a.match_id
            await asyncio.sleep(2.5)
            assert sorted(await queued(redis)) == sorted([a.match_id, b.match_id])  # still too far apart

            # paired: one of the two gets a second seat, seat 1 of the other's match
            async def moved(c: DuelClient, first: Seated) -> Seated:
                while True:
                    got = await c.expect(Seated, timeout=15)
                    if got.match_id != first.match_id:
                        return got

            done, pending = await asyncio.wait(
                [asyncio.ensure_future(moved(ann, a)), asyncio.ensure_future(moved(bob, b))],
                timeout=15,
                return_when=asyncio.FIRST_COMPLETED,
            )
            for task in pending:
                task.cancel()
            (second,) = [t.result() for t in done]
            waited = time.monotonic() - started
            assert waited >= 3.9, f"paired after {waited:.1f} s: before the window reached 300"
            assert second.seat == 1 and second.started
            stayed = a if second.match_id == a.match_id else b
            left = b if stayed is a else a
            assert second.match_id == stayed.match_id
            assert await queued(redis) == []
            # the mover's own match is gone; the pair's match is rated, between the two accounts
            assert await server.directory.get(left.match_id) is None
            info = await server.directory.get(stayed.match_id)
            assert info is not None and info.rated and info.quick and info.status != "waiting"
            store = AccountStore(redis)
            assert set(info.accounts) == {await store.id_of(ann_name), await store.id_of(bob_name)}
            ua, ub = await first_update(ann), await first_update(bob)
            assert ua.match_id == ub.match_id == stayed.match_id
            for c in (ann, bob):
                await c.close()
        await redis.aclose()

    run(body())


def test_a_waiting_player_who_reconnects_waits_again(redis_url: str, tmp_path: Path) -> None:
    async def body() -> None:
        redis = aioredis.Redis.from_url(redis_url)
        await fresh_queue(redis)
        async with running_server(redis_url, tmp_path) as server:
            url = url_of(server)
            ann, _, token = await player(url, redis, "Ann", 1500.0)
            a = await seated(ann, QuickMatch(format=FMT, rated=True, name="Ann"))
            await ann.close()
            await until_queued(redis, [])  # a ghost is never paired
            back = await DuelClient.connect(url, "ann-back")
            # its seat is its account's: logged in first
            refused = await ask(back, Reconnect(token=a.token, last_seq=0), Seated)
            assert isinstance(refused, Error) and refused.code == "account/required"
            assert isinstance(await ask(back, LoginToken(token=token), LoggedIn), LoggedIn)
            again = await ask(back, Reconnect(token=a.token, last_seq=0), Seated)
            assert isinstance(again, Seated) and again.match_id == a.match_id
            await until_queued(redis, [a.match_id])
            bob, _, _ = await player(url, redis, "Bob", 1450.0)
            b = await seated(bob, QuickMatch(format=FMT, rated=True, name="Bob"))
            assert (b.match_id, b.seat, b.started) == (a.match_id, 1, True)
            assert (await first_update(back)).match_id == a.match_id
            for c in (back, bob):
                await c.close()
        await redis.aclose()

    run(body())


def test_two_server_processes_share_the_rated_queue(redis_url: str, tmp_path: Path) -> None:
    """Each player on its own ``duel serve`` process: close ratings pair at once across them, and a
    far pair waiting on two processes is paired when the window has widened (``--rated-widen-every``)."""
    flags = ("--redis-url", redis_url, "--rated-widen-every", "1")
    with ServeProcess(tmp_path / "one", *flags) as one, ServeProcess(tmp_path / "two", *flags) as two:

        async def body() -> None:
            redis = aioredis.Redis.from_url(redis_url)
            await fresh_queue(redis)
            ann, _, _ = await player(one.url, redis, "Ann", 1500.0)
            bob, _, _ = await player(two.url, redis, "Bob", 1540.0)
            a = await seated(ann, QuickMatch(format=FMT, rated=True))
            b = await seated(bob, QuickMatch(format=FMT, rated=True))
            assert (b.match_id, b.seat, b.started) == (a.match_id, 1, True)
            assert (await first_update(ann)).match_id == (await first_update(bob)).match_id == a.match_id

            cid, _, _ = await player(one.url, redis, "Cid", 1500.0)
            dan, _, _ = await player(two.url, redis, "Dan", 1700.0)
            c = await seated(cid, QuickMatch(format=FMT, rated=True))
            d = await seated(dan, QuickMatch(format=FMT, rated=True))
            assert d.match_id != c.match_id and not d.started
            # 200 apart: paired within a few seconds (100 + 50 a second), by one process or the other
            ucid, udan = await first_update(cid, 20), await first_update(dan, 20)
            assert ucid.match_id == udan.match_id and ucid.match_id in (c.match_id, d.match_id)
            assert await queued(redis) == []
            assert await redis.exists(keys.meta_key(c.match_id)) + await redis.exists(keys.meta_key(d.match_id)) == 1
            for x in (ann, bob, cid, dan):
                await x.close()
            await redis.aclose()

        run(body())


def test_the_rated_queue_keys_are_apart_from_the_casual_ones() -> None:
    assert keys.rated_queue_key(FMT) != queue_key(FMT)
    assert "{lobby}" in keys.rated_queue_key(FMT)
