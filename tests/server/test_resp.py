"""server.storage.resp, the lean pipelined Redis connection of the appends: against a real Redis."""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Awaitable
from typing import TypeVar

import pytest
import redis as sync_redis
import redis.asyncio as aioredis
from hypothesis import given
from hypothesis import strategies as st
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import ResponseError

from server.storage import resp
from server.storage.entry import LogEntry
from server.storage.store import APPEND_LUA, RedisEventStore, action_key
from tests.server.redis_proxy import LossyProxy, script_sha

T = TypeVar("T")


def run(coro: Awaitable[T]) -> T:
    async def main() -> T:
        return await coro

    return asyncio.run(main())


async def mute_redis(heard: list[bytes]) -> tuple[asyncio.Server, int]:
    """A server on a free port that reads every command (into ``heard``) and never answers."""

    async def mute(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        while data := await reader.read(65536):
            heard.append(data)

    server = await asyncio.start_server(mute, "127.0.0.1", 0)
    return server, int(server.sockets[0].getsockname()[1])


def test_encode_is_resp() -> None:
    for enc in (resp.encode, resp.encode_reference):
        assert enc(("SET", b"k\r\n", 12)) == b"*3\r\n$3\r\nSET\r\n$3\r\nk\r\n\r\n$2\r\n12\r\n"
        assert enc(("GET", "é")) == b"*2\r\n$3\r\nGET\r\n$2\r\n\xc3\xa9\r\n"


@given(st.lists(st.one_of(st.binary(), st.text(), st.integers(min_value=-(2**63), max_value=2**63 - 1)), max_size=12))
def test_hiredis_packs_what_the_reference_packs(args: list[bytes | str | int]) -> None:
    assert resp.encode(tuple(args)) == resp.encode_reference(tuple(args))


def test_supports_one_server_without_tls_only() -> None:
    assert resp.supports("redis://127.0.0.1:6379/0") and resp.supports("unix:///tmp/r.sock")
    assert not resp.supports("rediss://h:6380") and not resp.supports("redis+cluster://h:1,h:2/")
    with pytest.raises(ValueError, match="rediss"):
        resp.Pipe("rediss://h:6380")


def test_concurrent_calls_each_get_their_own_reply(redis_url: str) -> None:
    """Hundreds of commands in flight on one socket: replies are matched to callers in order."""

    async def body() -> None:
        pipe = resp.Pipe(redis_url)
        prefix = "resp:" + secrets.token_hex(4)
        values = [secrets.token_bytes(1 + i % 300) for i in range(500)]
        await asyncio.gather(*(pipe.call("SET", f"{prefix}:{i}", v) for i, v in enumerate(values)))
        got = await asyncio.gather(*(pipe.call("GET", f"{prefix}:{i}") for i in range(len(values))))
        assert got == values
        await pipe.close()

    run(body())


def test_an_error_reply_raises_and_the_connection_stays_usable(redis_url: str) -> None:
    async def body() -> None:
        pipe = resp.Pipe(redis_url)
        key = "resp:" + secrets.token_hex(4)
        await pipe.call("SET", key, "not a number")
        with pytest.raises(ResponseError, match="not an integer"):
            await pipe.call("INCR", key)
        assert await pipe.call("ECHO", "still here") == b"still here"
        await pipe.close()

    run(body())


def test_script_falls_back_to_eval_when_redis_does_not_know_it(redis_url: str) -> None:
    async def body() -> None:
        pipe = resp.Pipe(redis_url)
        source = "return {KEYS[1], ARGV[1], '" + secrets.token_hex(4) + "'}"  # a script Redis has not seen
        script = resp.Script(pipe, source)
        direct = aioredis.Redis.from_url(redis_url)
        assert await direct.script_exists(script.sha) == [False]
        reply = await script(keys=["k"], args=["a"])
        assert reply[:2] == [b"k", b"a"]
        assert await direct.script_exists(script.sha) == [True]  # EVAL cached it: EVALSHA from now on
        assert (await script(keys=["k2"], args=["b"]))[:2] == [b"k2", b"b"]
        await direct.aclose()
        await pipe.close()

    run(body())


def test_a_started_command_is_on_its_way_before_the_event_loop_runs_again(redis_url: str) -> None:
    """``Pipe.start`` writes at once: Redis runs the command while the caller is still busy
    (here blocked in a plain, synchronous client), and awaiting gives the reply. Before the
    pipe has a connection it falls back to ``call``; ``Script.start`` falls back to EVAL."""

    async def body() -> None:
        pipe = resp.Pipe(redis_url)
        key = "resp:" + secrets.token_hex(4)
        not_yet = pipe.start("SET", key + ":first", "1")  # no connection yet: written when awaited
        assert await not_yet == b"OK"
        sent = pipe.start("SET", key, "while busy")
        with sync_redis.Redis.from_url(redis_url) as direct:  # the event loop does not run meanwhile
            seen = None
            for _ in range(2000):
                seen = direct.get(key)
                if seen is not None:
                    break
                time.sleep(0.001)
        assert seen == b"while busy"
        assert await sent == b"OK"
        script = resp.Script(pipe, "return {KEYS[1], ARGV[1], '" + secrets.token_hex(4) + "'}")
        assert (await script.start(["k"], ["a"]))[:2] == [b"k", b"a"]  # NOSCRIPT, then EVAL
        assert (await script.start(["k2"], ["b"]))[:2] == [b"k2", b"b"]
        await pipe.close()

    run(body())


def test_a_killed_connection_is_replaced_on_the_next_call(redis_url: str) -> None:
    async def body() -> None:
        pipe = resp.Pipe(redis_url)
        first_id = await pipe.call("CLIENT", "ID")
        direct = aioredis.Redis.from_url(redis_url)
        assert await direct.execute_command("CLIENT", "KILL", "ID", first_id) == 1
        await asyncio.sleep(0.05)
        assert await pipe.call("ECHO", "again") == b"again"
        assert await pipe.call("CLIENT", "ID") != first_id
        await direct.aclose()
        await pipe.close()

    run(body())


def test_unreachable_redis_fails_with_a_connection_error(tmp_path: object) -> None:
    async def body() -> None:
        pipe = resp.Pipe(f"unix://{tmp_path}/no-such.sock")
        with pytest.raises(RedisConnectionError, match="cannot connect"):
            await pipe.call("PING")

    run(body())


def test_a_redis_that_never_answers_fails_the_call_after_the_retries() -> None:
    """The watchdog aborts a connection whose oldest command waited too long; the call is
    retried on new connections and then fails with a connection error (never hangs)."""

    async def body() -> None:
        heard: list[bytes] = []
        server, port = await mute_redis(heard)
        pipe = resp.Pipe(f"redis://127.0.0.1:{port}/0", timeout_s=0.2)
        with pytest.raises(RedisConnectionError):
            await asyncio.wait_for(pipe.call("PING"), 10)
        assert sum(d.count(b"PING") for d in heard) == resp.RETRIES + 1  # sent, then retried
        server.close()

    run(body())


def test_a_redis_still_loading_its_data_is_an_outage_not_an_error() -> None:
    """A restarted Redis answers ``LOADING`` until it has read its AOF (the command is not run).
    That is a connection error, as redis-py has it (``BusyLoadingError``): retried, and then, if
    Redis is still loading, an outage (``server/unavailable``), not a failure of the server
    (``server/internal``, which a Redis SIGKILL fault run answered once)."""

    async def loading_redis(loading: int, heard: list[bytes]) -> tuple[asyncio.Server, int]:
        async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            while data := await reader.read(65536):
                heard.append(data)
                for _ in range(data.count(b"PING")):
                    if sum(d.count(b"PING") for d in heard) <= loading:
                        writer.write(b"-LOADING Redis is loading the dataset in memory\r\n")
                    else:
                        writer.write(b"+PONG\r\n")
                if b"NOSUCHCOMMAND" in data:
                    writer.write(b"-ERR unknown command 'NOSUCHCOMMAND'\r\n")
                await writer.drain()

        server = await asyncio.start_server(serve, "127.0.0.1", 0)
        return server, int(server.sockets[0].getsockname()[1])

    async def body() -> None:
        heard: list[bytes] = []
        server, port = await loading_redis(2, heard)
        pipe = resp.Pipe(f"redis://127.0.0.1:{port}/0")
        assert await asyncio.wait_for(pipe.call("PING"), 10) == b"PONG"  # loaded while retrying
        assert sum(d.count(b"PING") for d in heard) == 3
        await pipe.close()
        server.close()

        heard.clear()
        server, port = await loading_redis(10**6, heard)
        pipe = resp.Pipe(f"redis://127.0.0.1:{port}/0")
        with pytest.raises(RedisConnectionError, match="LOADING"):  # the server's REDIS_ERRORS
            await asyncio.wait_for(pipe.call("PING"), 10)
        assert sum(d.count(b"PING") for d in heard) == resp.RETRIES + 1
        with pytest.raises(ResponseError, match="unknown"):  # other error replies stay errors
            await asyncio.wait_for(pipe.call("NOSUCHCOMMAND"), 10)
        await pipe.close()
        server.close()

    run(body())


def test_lost_append_replies_are_retried_without_doubling(redis_url: str) -> None:
    """The reply to an append is lost while other appends are in flight on the same socket:
    every caller still gets one answer, each action is in the log once, and the action whose
    reply was lost comes back as the entry it made (its id was recorded)."""

    async def body() -> None:
        proxy = await LossyProxy(redis_url).start()
        pipe = resp.Pipe(proxy.url)
        store = RedisEventStore(aioredis.Redis.from_url(redis_url), pipe)
        matches = ["r" + secrets.token_hex(6) for _ in range(20)]
        proxy.lose_reply_to(script_sha(APPEND_LUA), 3)
        proxy.lose_reply_to(APPEND_LUA.encode(), 3)

        async def play(m: str) -> list[tuple[str, int]]:
            out = []
            for seq in range(1, 6):
                action = {"do": "x", "n": seq}
                e = LogEntry(seq=seq, seat=0, action=action, facts=[], state_hash="h", client_action_id=f"a{seq}")
                r = await store.append(m, e, action_key(0, f"a{seq}"), "fp")
                out.append((r.status, r.seq))
            return out

        results = await asyncio.gather(*(play(m) for m in matches))
        assert proxy.dropped, "no reply was lost: the test proved nothing"
        for m, res in zip(matches, results, strict=True):
            assert [seq for _, seq in res] == [1, 2, 3, 4, 5]
            assert {status for status, _ in res} <= {"ok", "duplicate"}
            assert [e.seq for e in await store.read(m)] == [1, 2, 3, 4, 5]
        assert sum(status == "duplicate" for res in results for status, _ in res) >= 1
        await store.redis.aclose()
        await pipe.close()
        await proxy.stop()

    run(body())


def test_a_subscription_hands_each_message_over_in_order_until_its_connection_dies(redis_url: str) -> None:
    """The channels kept (one added while the connection is up, one dropped) each confirmed
    once; their messages in order, no other channel's; then the connection dies and ``listen``
    returns (the caller subscribes again)."""

    async def body() -> None:
        pipe = resp.Pipe(redis_url)
        tag = secrets.token_hex(4)
        got: list[tuple[bytes, bytes]] = []
        confirmed: list[bytes] = []
        subscribed = asyncio.Event()
        subs = resp.Subscriptions()
        subs.add(f"t:{tag}:0")
        subs.add(f"t:{tag}:1")
        listening = asyncio.ensure_future(
            pipe.listen_channels(subs, lambda c, d: got.append((c, d)), subscribed.set, confirmed.append)
        )
        await asyncio.wait_for(subscribed.wait(), 5)
        subs.add(f"gone:{tag}")
        subs.discard(f"gone:{tag}")
        subs.add(f"t:{tag}:2")  # while connected: at once (after the two above, in order)
        direct = aioredis.Redis.from_url(redis_url)
        deadline = asyncio.get_running_loop().time() + 5
        while f"t:{tag}:2".encode() not in confirmed and asyncio.get_running_loop().time() < deadline:
            await asyncio.sleep(0.01)
        for i in range(50):
            await direct.publish(f"t:{tag}:{i % 3}", str(i))
        await direct.publish(f"gone:{tag}", "dropped")
        await direct.publish(f"other:{tag}", "never kept")
        while len(got) < 50 and asyncio.get_running_loop().time() < deadline:
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.1)
        assert got == [(f"t:{tag}:{i % 3}".encode(), str(i).encode()) for i in range(50)]
        assert sorted(c for c in confirmed if c.startswith(b"t:")) == [f"t:{tag}:{i}".encode() for i in range(3)]
        assert not listening.done()
        assert await direct.execute_command("CLIENT", "KILL", "TYPE", "pubsub") >= 1
        await asyncio.wait_for(listening, 5)  # returns: the caller subscribes again
        assert subs.transport is None and subs.channels == {f"t:{tag}:{i}" for i in range(3)}
        await direct.aclose()

    run(body())


def test_a_silent_subscription_is_taken_for_dead() -> None:
    """Nothing heard for two health pauses (a PING unanswered): the listener gives up."""

    async def body() -> None:
        server, port = await mute_redis([])
        pipe = resp.Pipe(f"redis://127.0.0.1:{port}/0")
        subscribed = asyncio.Event()
        t0 = asyncio.get_running_loop().time()
        subs = resp.Subscriptions()
        subs.add("x")
        listening = pipe.listen_channels(subs, lambda c, d: None, subscribed.set, lambda c: None, health_s=0.1)
        await asyncio.wait_for(listening, 5)
        assert asyncio.get_running_loop().time() - t0 >= 0.2 and not subscribed.is_set()
        server.close()

    run(body())
