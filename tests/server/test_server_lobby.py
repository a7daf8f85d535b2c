"""The lobby under lost replies, ghosts, crashes and takeovers (issue 8).

Real Redis, real websockets. Lost replies come from ``LossyProxy``, a TCP
proxy between the server and Redis that forwards a lobby command, lets Redis
run it, and cuts the connection instead of passing the reply on: the server's
Redis client retries, and the idempotent lobby scripts must give the same
seat, never a second match or a stranded player.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import redis.asyncio as aioredis
from duel_helpers import SECRET, run, running_server, start_match, url_of
from redis_proxy import LossyProxy, script_sha

from protocol.messages import (
    CreateMatch,
    Error,
    Join,
    Presence,
    QuickMatch,
    Reconnect,
    Seated,
    Update,
)
from server.clients.client import DuelClient
from server.lobby.quick import PAIR_LUA, Entrant, QuickQueue
from server.lobby.tokens import SeatTokens
from server.match.directory import CREATE_LUA, JOIN_LUA
from server.process.app import DuelServer
from server.storage import keys

TOKENS = SeatTokens(SECRET)


def rid() -> str:
    return secrets.token_urlsafe(18)


@asynccontextmanager
async def behind_proxy(redis_url: str, tmp_path: Path) -> AsyncIterator[tuple[DuelServer, LossyProxy]]:
    proxy = await LossyProxy(redis_url).start()
    try:
        async with running_server(proxy.url, tmp_path) as server:
            yield server, proxy
    finally:
        await proxy.stop()


async def seated(c: DuelClient) -> Seated:
    return await c.expect(Seated, timeout=15)


def presence_of(c: DuelClient) -> list[bool] | None:
    """The latest presence a client was told (an update's, or a presence notice)."""
    for m in reversed(c.inbox):
        if isinstance(m, Presence):
            return m.seats
        if isinstance(m, Update) and m.presence is not None:
            return m.presence
    return None


async def until_presence(c: DuelClient, want: list[bool], timeout: float = 10.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while presence_of(c) != want:
        assert loop.time() < deadline, f"{c.name} was told {presence_of(c)}, not {want}"
        await asyncio.sleep(0.02)


async def match_count(redis: aioredis.Redis, match_ids: set[str]) -> int:
    return sum([1 for m in match_ids if await redis.exists(keys.meta_key(m))])


def test_a_lost_reply_on_each_lobby_write_still_gives_one_seat(redis_url: str, tmp_path: Path) -> None:
    async def body() -> None:
        redis = aioredis.Redis.from_url(redis_url)
        async with behind_proxy(redis_url, tmp_path) as (server, proxy):
            # create: the reply to the create script is lost once
            proxy.lose_reply_to(script_sha(CREATE_LUA))
            proxy.lose_reply_to(CREATE_LUA.encode()[:40])  # the first call may be EVAL (no script cached)
            a = await DuelClient.connect(url_of(server), "A")
            req_a = rid()
            await a.send(CreateMatch(request_id=req_a, name="Ann"))
            sa = await seated(a)
            assert sa.seat == 0 and sa.match_id == TOKENS.match_id_for(req_a)
            # join: lost once too
            proxy.lose_reply_to(script_sha(JOIN_LUA))
            proxy.lose_reply_to(JOIN_LUA.encode()[:40])
            b = await DuelClient.connect(url_of(server), "B")
            await b.send(Join(match_id=sa.match_id, request_id=rid(), name="Bob"))
            sb = await seated(b)
            assert sb.seat == 1 and sb.started
            while b.view is None or a.view is None:
                await asyncio.wait_for(asyncio.shield(a.changed.wait()), 10)
                await asyncio.sleep(0.01)
            assert proxy.dropped, "the proxy lost at least one reply"
            meta = await redis.hgetall(keys.meta_key(sa.match_id))
            assert meta[b"seat0"] == b"1" and meta[b"seat1"] == b"1" and meta[b"name1"] == b"Bob"
            assert await redis.zscore(keys.LOBBY_MATCHES, sa.match_id) is not None
            # quick match: both the waiting player's and the joining player's pairing replies are lost
            before = len(proxy.dropped)
            proxy.lose_reply_to(script_sha(PAIR_LUA), times=2)
            proxy.lose_reply_to(PAIR_LUA.encode()[:40], times=2)
            w = await DuelClient.connect(url_of(server), "W")
            await w.send(QuickMatch(request_id=rid()))
            sw = await seated(w)
            assert sw.seat == 0 and not sw.started
            j = await DuelClient.connect(url_of(server), "J")
            await j.send(QuickMatch(request_id=rid()))
            sj = await seated(j)
            assert (sj.match_id, sj.seat) == (sw.match_id, 1)
            assert len(proxy.dropped) > before
            await w.expect(Update, timeout=10)  # the duel started for the waiting player too
            assert await redis.zcard(keys.QUICK_QUEUE) == 0
            for _ in range(100):  # the pairing's records go once the duel has started
                if await redis.hlen(keys.QUICK_JOINER) == 0:
                    break
                await asyncio.sleep(0.05)
            assert await redis.hlen(keys.QUICK_JOINER) == 0 and await redis.hlen(keys.QUICK_WAITER) == 0
            for c in (a, b, w, j):
                await c.close()
        await redis.aclose()

    run(body())


def test_a_client_retrying_a_lobby_request_gets_the_same_seat_and_token(redis_url: str, tmp_path: Path) -> None:
    """The reply was lost between server and client: the client sends the same request (same
    request id) again, on a new connection, and gets the same seat and token."""

    async def body() -> None:
        redis = aioredis.Redis.from_url(redis_url)
        async with running_server(redis_url, tmp_path) as server:
            req = rid()
            first = await DuelClient.connect(url_of(server), "A1")
            await first.send(CreateMatch(request_id=req))
            s1 = await seated(first)
            await first.close()
            again = await DuelClient.connect(url_of(server), "A2")
            await again.send(CreateMatch(request_id=req))
            s2 = await seated(again)
            assert (s2.match_id, s2.seat, s2.token) == (s1.match_id, s1.seat, s1.token)
            jreq = rid()
            seats = []
            for name in ("B1", "B2"):
                b = await DuelClient.connect(url_of(server), name)
                await b.send(Join(match_id=s1.match_id, request_id=jreq))
                seats.append(await seated(b))
                await b.close()
            assert seats[0].token == seats[1].token and seats[0].seat == 1
            other = await DuelClient.connect(url_of(server), "C")
            await other.send(Join(match_id=s1.match_id, request_id=rid()))
            err = await other.expect(Error)
            assert err.code == "match/full"
            assert await redis.zscore(keys.LOBBY_MATCHES, s1.match_id) is not None
            assert await redis.exists(keys.log_key(s1.match_id))
            qreq = rid()
            outcomes = []
            for name in ("Q1", "Q2"):
                q = await DuelClient.connect(url_of(server), name)
                await q.send(QuickMatch(request_id=qreq))
                outcomes.append(await seated(q))
                await q.close()
            assert outcomes[0].token == outcomes[1].token
            for c in (again, other):
                await c.close()
        await redis.aclose()

    run(body())


def test_a_waiting_player_who_left_is_never_paired(redis_url: str, tmp_path: Path) -> None:
    async def body() -> None:
        redis = aioredis.Redis.from_url(redis_url)
        async with running_server(redis_url, tmp_path) as server:
            ghost = await DuelClient.connect(url_of(server), "ghost")
            await ghost.send(QuickMatch(request_id=rid()))
            g = await seated(ghost)
            await ghost.close()
            await asyncio.sleep(0.2)
            # a waiting player whose server died (no leave, no refresh) lapses too
            queue = QuickQueue(redis)
            crashed = await queue.pair(Entrant(rid(), [], "crashed"), "crashedmatch")
            assert crashed.outcome == "wait"
            await redis.hset(keys.QUICK_ALIVE, "crashedmatch", 1)  # its last refresh is long past
            c = await DuelClient.connect(url_of(server), "C")
            await c.send(QuickMatch(request_id=rid()))
            sc = await seated(c)
            assert sc.seat == 0 and not sc.started and sc.match_id not in (g.match_id, "crashedmatch")
            assert [m.decode() for m in await redis.zrange(keys.QUICK_QUEUE, 0, -1)] == [sc.match_id]
            d = await DuelClient.connect(url_of(server), "D")
            await d.send(QuickMatch(request_id=rid()))
            sd = await seated(d)
            assert (sd.match_id, sd.seat) == (sc.match_id, 1)
            for cl in (c, d):
                await cl.close()
        await redis.aclose()

    run(body())


def test_a_paired_player_whose_server_died_does_not_strand_the_waiting_player(redis_url: str, tmp_path: Path) -> None:
    """The pairing script ran for a joiner, whose server died before taking seat 1: the
    waiting player's server finds the pairing on record, takes seat 1 for it and starts
    the duel; the joiner, retrying its request later, finds its seat."""

    async def body() -> None:
        redis = aioredis.Redis.from_url(redis_url)
        async with running_server(redis_url, tmp_path) as server:
            w = await DuelClient.connect(url_of(server), "W")
            await w.send(QuickMatch(request_id=rid()))
            sw = await seated(w)
            joiner = Entrant(rid(), [], "gone")
            pairing = await QuickQueue(redis).pair(joiner, TOKENS.match_id_for(joiner.request_id))
            assert (pairing.outcome, pairing.match_id) == ("join", sw.match_id)
            update = await w.expect(Update, timeout=15)  # started by the waiting player's server
            assert update.seq == 1 and update.presence == [True, False]
            back = await DuelClient.connect(url_of(server), "J")
            await back.send(QuickMatch(request_id=joiner.request_id))
            sj = await seated(back)
            assert (sj.match_id, sj.seat) == (sw.match_id, 1)
            await until_presence(w, [True, True])  # (a notice naming the joiner may come first)
            for c in (w, back):
                await c.close()
        await redis.aclose()

    run(body())


def test_players_see_whether_the_opponent_is_connected(redis_url: str, tmp_path: Path) -> None:
    async def body() -> None:
        async with running_server(redis_url, tmp_path) as s1, running_server(redis_url, tmp_path) as s2:
            a, b, _match_id, tokens = await start_match(url_of(s1), url_of(s2))
            await until_presence(a, [True, True])
            await b.close()
            await until_presence(a, [True, False])
            b2 = await DuelClient.connect(url_of(s2), "B2")
            await b2.send(Reconnect(token=tokens[1], last_seq=0))
            await seated(b2)
            await until_presence(a, [True, True])
            await until_presence(b2, [True, True])
            for c in (a, b2):
                await c.close()

    run(body())


async def http_get(port: int, path: str) -> tuple[int, str]:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".encode())
    await writer.drain()
    raw = await asyncio.wait_for(reader.read(), 10)
    writer.close()
    head, _, body = raw.decode().partition("\r\n\r\n")
    return int(head.split()[1]), body


def test_health_and_unavailable_while_redis_is_down_then_play_resumes(tmp_path: Path) -> None:
    """With Redis stopped, /healthz answers 503 and says why, an action gets the documented
    ``server/unavailable`` (nothing is appended); when Redis is back (from its AOF) the same
    action, retried with the same id, is accepted, without restarting the server."""
    from server.clients.client import ClientError
    from server.storage.embedded_redis import EmbeddedRedis

    async def body() -> None:
        embedded = EmbeddedRedis(tmp_path / "r", fsync="always").start()
        try:
            async with running_server(embedded.url, tmp_path) as server:
                assert await http_get(server.port, "/healthz") == (200, "ok\n")
                a, b, _match_id, _ = await start_match(url_of(server))
                actor = a if a.legal else b
                action, seq = actor.legal[0], actor.seq
                embedded.stop()
                status, why = await http_get(server.port, "/healthz")
                assert status == 503 and "redis unreachable" in why
                try:
                    await actor.act(action, action_id="during-outage", expected_seq=seq)
                except ClientError as exc:
                    assert exc.error.code == "server/unavailable", exc
                else:
                    raise AssertionError("an action was answered while Redis was down")
                embedded.start()
                for _ in range(100):
                    if (await http_get(server.port, "/healthz"))[0] == 200:
                        break
                    await asyncio.sleep(0.1)
                assert await http_get(server.port, "/healthz") == (200, "ok\n")
                for attempt in range(10):  # what a client does with server/unavailable: retry, backing off
                    try:
                        reply = await actor.act(action, action_id="during-outage", expected_seq=seq)
                        break
                    except ClientError as exc:
                        assert exc.error.code == "server/unavailable", exc
                        await asyncio.sleep(0.1 * 2**attempt)
                assert reply.seq == seq + 1, reply
                other = b if actor is a else a
                while other.seq < reply.seq:  # the other seat hears of it: fan-out works again
                    await other.expect(Update, timeout=10)
                for c in (a, b):
                    await c.close()
        finally:
            embedded.stop()

    run(body())


def test_the_creator_learns_the_joiners_name_before_the_first_board(redis_url: str, tmp_path: Path) -> None:
    """Joining names the joiner to the waiting creator (a presence notice) before the duel's
    first entry reaches it, so the board never shows a nameless opponent; across two
    processes the name arrives too (a presence bell rung by the join script)."""

    async def body() -> None:
        async with running_server(redis_url, tmp_path) as s1, running_server(redis_url, tmp_path) as s2:
            for joiner_url, same in ((url_of(s1), True), (url_of(s2), False)):
                a = await DuelClient.connect(url_of(s1), "A")
                await a.send(CreateMatch(request_id=rid(), name="Ann"))
                sa = await seated(a)
                b = await DuelClient.connect(joiner_url, "B")
                await b.send(Join(match_id=sa.match_id, request_id=rid(), name="Bob"))
                await seated(b)
                first = await a.expect(Update, timeout=15)
                named = [m for m in a.inbox if isinstance(m, Presence) and m.players == ["Ann", "Bob"]]
                if same:
                    assert named, "no presence naming Bob came before the first update"
                    assert a.inbox.index(named[0]) < a.inbox.index(first)
                else:
                    loop = asyncio.get_running_loop()
                    deadline = loop.time() + 10
                    while not any(isinstance(m, Presence) and m.players == ["Ann", "Bob"] for m in a.inbox):
                        assert loop.time() < deadline, "the creator was never told the joiner's name"
                        await asyncio.sleep(0.05)
                for c in (a, b):
                    await c.close()

    run(body())
