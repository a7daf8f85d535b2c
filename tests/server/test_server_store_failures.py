"""What a client is told when Redis fails under it (issue 34, finding 5).

Real Redis, real websockets. A lost reply comes from ``LossyProxy`` (Redis runs the command,
the server never hears back)."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable
from pathlib import Path

import redis.asyncio as aioredis
from duel_helpers import quietly, run, running_server, start_match, url_of, wait_for_turn
from redis_proxy import LossyProxy, script_sha

from protocol import errors as E
from protocol.messages import Accepted, CreateMatch, Error, Seated, Update
from server.clients.client import ClientError, DuelClient
from server.storage.embedded_redis import EmbeddedRedis
from server.storage.store import APPEND_LUA, RedisEventStore

LOST = 6


def test_accepted_comes_before_its_update_when_the_append_reply_is_lost(redis_url: str, tmp_path: Path) -> None:
    """The append's reply is lost: the server sends the script again, which finds the action id
    recorded (the entry is in the log) and reads the entry back. The acting connection must be
    told ``accepted`` before the ``update`` of that entry (PROTOCOL.md, section 5): before,
    the read-back entry was fanned out first, and the answer came after it."""

    async def body() -> None:
        proxy = await LossyProxy(redis_url).start()
        try:
            async with running_server(proxy.url, tmp_path) as server:
                a, b, _match_id, _ = await start_match(url_of(server))
                rnd = random.Random(3)
                for _ in range(LOST):
                    actor = await wait_for_turn([a, b])
                    assert actor is not None
                    proxy.lose_reply_to(script_sha(APPEND_LUA))
                    before = len(actor.inbox)
                    reply = await actor.act(quietly(actor.legal) if rnd.random() < 0.8 else actor.legal[0])
                    assert isinstance(reply, Accepted), reply
                    while actor.seq < reply.seq:
                        await actor.expect(Update)
                    seen = actor.inbox[before:]
                    answered = seen.index(reply)
                    updated = next(i for i, m in enumerate(seen) if isinstance(m, Update) and m.seq == reply.seq)
                    assert answered < updated, [m.type for m in seen]
                assert len(proxy.dropped) == LOST, "every append reply armed was lost"
                for c in (a, b):
                    await c.close()
        finally:
            await proxy.stop()

    run(body())


async def _health(port: int) -> tuple[int, str]:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    raw = await asyncio.wait_for(reader.read(), 10)
    writer.close()
    head, _, body = raw.decode().partition("\r\n\r\n")
    return int(head.split()[1]), body


async def _unavailable(request: Awaitable[object]) -> Error:
    """The error a request was answered with (it must be one)."""
    try:
        await request
    except ClientError as exc:
        return exc.error
    raise AssertionError("a write was answered while Redis refused every write")


def test_redis_out_of_memory_is_unavailable_and_unhealthy_until_a_write_succeeds(tmp_path: Path) -> None:
    """Redis at its memory limit (``noeviction``) refuses every write but still answers PING.
    An action and a lobby request are answered ``server/unavailable`` saying so (not
    ``server/internal``), ``/healthz`` answers 503 with what Redis said, and nothing was
    appended; once Redis has room again, ``/healthz`` is 200 and the same action, sent again
    with the same id, is accepted once. The seat's clock stood still meanwhile (PROTOCOL.md,
    section 7): its flag did not fall though the outage lasted longer than it had left, and its
    entry charges it the time before its first try, not the outage."""

    async def body() -> None:
        embedded = EmbeddedRedis(tmp_path / "r", fsync="always").start()
        direct = aioredis.Redis.from_url(embedded.url)
        try:
            async with running_server(embedded.url, tmp_path) as server:
                a, b, match_id, _ = await start_match(url_of(server), create=CreateMatch(clock_ms=2_000))
                actor = await wait_for_turn([a, b])
                assert actor is not None
                action, seq = quietly(actor.legal), actor.seq
                await direct.config_set("maxmemory-policy", "noeviction")
                await direct.config_set("maxmemory", "1")  # below what it holds: every write refused
                refused = await _unavailable(actor.act(action, action_id="oom-1", expected_seq=seq))
                assert refused.code == E.SERVER_UNAVAILABLE and "out of memory" in refused.reason, refused
                other = await DuelClient.connect(url_of(server), "C")
                refused = await _unavailable(_seated(other, CreateMatch(request_id="oom-create-0123456789")))
                assert refused.code == E.SERVER_UNAVAILABLE and "out of memory" in refused.reason, refused
                status, why = await _health(server.port)
                assert status == 503 and "redis: OOM command not allowed when used memory" in why, (status, why)
                assert await RedisEventStore(direct).last_seq(match_id) == seq  # nothing appended
                await asyncio.sleep(2.5)  # longer than the seat had left
                await direct.config_set("maxmemory", "0")
                assert await _health(server.port) == (200, "ok\n")  # the check's own write succeeded
                reply = await actor.act(action, action_id="oom-1", expected_seq=seq)
                assert isinstance(reply, Accepted) and reply.seq == seq + 1 and not reply.duplicate, reply
                entry = (await RedisEventStore(direct).read(match_id))[reply.seq - 1]
                assert entry.client_action_id == "oom-1" and entry.time_ms < 1_000, entry
                for c in (a, b, other):
                    await c.close()
        finally:
            await direct.aclose()
            embedded.stop()

    run(body())


async def _seated(c: DuelClient, msg: CreateMatch) -> Seated:
    await c.send(msg)
    while True:
        got = await c.recv()
        if isinstance(got, Seated):
            return got
        if isinstance(got, Error):
            raise ClientError(got)
