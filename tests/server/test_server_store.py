"""The Redis event store: conditional append, exactly-once action ids, no forks."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Awaitable
from typing import Any, TypeVar

import pytest
import redis.asyncio as aioredis
from redis.exceptions import ResponseError

from engine.facts import Used
from server.storage import keys
from server.storage.entry import LogEntry
from server.storage.store import RedisEventStore, action_key

T = TypeVar("T")


def run(coro: Awaitable[T]) -> T:
    async def main() -> T:
        return await coro

    return asyncio.run(main())


def entry(seq: int, seat: int | None = 0, **kw: object) -> LogEntry:
    return LogEntry(
        seq=seq, seat=seat, action={"do": "pass", "n": seq}, facts=[Used(key=f"k{seq}")], state_hash=f"h{seq}", **kw
    )  # type: ignore[arg-type]


def new_match() -> str:
    return "t" + secrets.token_hex(6)


def test_append_only_at_next_seq(redis_url: str) -> None:
    async def body() -> None:
        client = aioredis.Redis.from_url(redis_url)
        store, m = RedisEventStore(client), new_match()
        first = await store.append(m, entry(2))
        assert (first.status, first.seq) == ("conflict", 0)
        r = await store.append(m, entry(1, seat=None))
        assert (r.status, r.seq) == ("ok", 1)
        again = await store.append(m, entry(1))
        assert (again.status, again.seq) == ("conflict", 1)
        gap = await store.append(m, entry(3))
        assert (gap.status, gap.seq) == ("conflict", 1)
        assert (await store.append(m, entry(2))).seq == 2
        assert await store.last_seq(m) == 2
        assert [e.seq for e in await store.read(m)] == [1, 2]
        assert [e.seq for e in await store.read(m, after=1)] == [2]
        assert (await store.read(m))[0] == entry(1, seat=None)
        ids = [i for i, _ in await client.xrange(keys.log_key(m))]
        assert ids == [b"1-0", b"2-0"]
        await client.aclose()

    run(body())


def test_repeated_action_id_appends_nothing(redis_url: str) -> None:
    async def body() -> None:
        client = aioredis.Redis.from_url(redis_url)
        store, m = RedisEventStore(client), new_match()
        await store.append(m, entry(1, seat=None))
        key = action_key(0, "click-1")
        first = await store.append(m, entry(2, client_action_id="click-1"), key, "fp-a")
        assert (first.status, first.seq) == ("ok", 2)
        second = await store.append(m, entry(3, client_action_id="click-1"), key, "fp-b")
        assert (second.status, second.seq, second.fingerprint) == ("duplicate", 2, "fp-a")
        # even a stale retry (made against an old seq) is recognised first
        third = await store.append(m, entry(2, client_action_id="click-1"), key)
        assert (third.status, third.seq) == ("duplicate", 2)
        assert await store.length(m) == 2
        assert await store.action_outcome(m, key) == (2, "fp-a")
        # the same id from the other seat is a different action
        other = await store.append(m, entry(3, seat=1, client_action_id="click-1"), action_key(1, "click-1"))
        assert (other.status, other.seq) == ("ok", 3)
        await client.aclose()

    run(body())


def test_concurrent_writers_cannot_fork(redis_url: str) -> None:
    """Two connections race 8 tasks each; the log stays contiguous and every
    accepted append got a distinct seq."""

    async def writer(store: RedisEventStore, m: str, name: str, wins: list[int], goal: int) -> None:
        n = 0
        while True:
            cur = await store.last_seq(m)
            if cur >= goal:
                return
            n += 1
            r = await store.append(m, entry(cur + 1, client_action_id=f"{name}-{n}"), f"0:{name}-{n}")
            if r.status == "ok":
                wins.append(r.seq)
            else:
                assert r.status == "conflict" and r.seq >= cur + 1

    async def body() -> None:
        a, b = aioredis.Redis.from_url(redis_url), aioredis.Redis.from_url(redis_url)
        m, goal, wins = new_match(), 120, []
        stores = [RedisEventStore(a), RedisEventStore(b)]
        await asyncio.gather(*(writer(stores[i % 2], m, f"w{i}", wins, goal) for i in range(16)))
        log = await stores[0].read(m)
        assert [e.seq for e in log] == list(range(1, goal + 1))
        assert sorted(wins) == list(range(1, goal + 1))
        cids = [e.client_action_id for e in log]
        assert len(set(cids)) == len(cids)
        await a.aclose()
        await b.aclose()

    run(body())


def test_append_rings_the_bell(redis_url: str) -> None:
    async def body() -> None:
        client = aioredis.Redis.from_url(redis_url)
        store, m = RedisEventStore(client), new_match()
        pubsub = client.pubsub()
        await pubsub.psubscribe(keys.BELL_PATTERN)
        await pubsub.get_message(timeout=1.0)  # the subscribe confirmation
        await store.append(m, entry(1, seat=None))
        msg = None
        for _ in range(20):
            msg = await pubsub.get_message(ignore_subscribe_messages=True, timeout=0.5)
            if msg and keys.match_of_bell(msg["channel"].decode()) == m:
                break
        assert msg is not None and msg["data"] == b"1"
        await pubsub.aclose()
        await client.aclose()

    run(body())


def test_an_append_redis_refuses_to_write_is_an_error_not_a_conflict(redis_url: str) -> None:
    """The script's XADD runs under ``pcall`` (its refusal of an ID at or below the top is how a
    sealed log's conflict is found): any other refusal (here: out of memory) must reach the
    caller as Redis's error, with nothing written, not pass for a conflict."""

    async def body() -> None:
        client = aioredis.Redis.from_url(redis_url)
        store, m = RedisEventStore(client), new_match()
        assert (await store.append(m, entry(1, seat=None))).status == "ok"
        before = await client.config_get("maxmemory*")
        await client.config_set("maxmemory-policy", "noeviction")
        await client.config_set("maxmemory", 1)
        try:
            with pytest.raises(ResponseError, match="OOM"):
                await store.append(m, entry(2), action_key(0, "c2"), "fp2")
        finally:
            await client.config_set("maxmemory", before["maxmemory"])
            await client.config_set("maxmemory-policy", before["maxmemory-policy"])
        assert await store.last_seq(m) == 1
        assert await store.action_outcome(m, action_key(0, "c2")) is None
        assert (await store.append(m, entry(2), action_key(0, "c2"), "fp2")).status == "ok"
        await client.aclose()

    run(body())


def test_match_keys_share_a_slot() -> None:
    m = "abc"
    tags = {k.split("{")[1].split("}")[0] for k in (keys.log_key(m), keys.actions_key(m), keys.meta_key(m))}
    assert tags == {m}


def test_match_ids_never_look_like_options() -> None:
    """``duel replay ID`` must work for every id: none starts with '-'."""
    ids = [keys.new_match_id() for _ in range(5000)]
    assert all(keys.MATCH_ID_RE.fullmatch(m) and not m.startswith("-") for m in ids)
    assert len(set(ids)) == len(ids)


def test_a_fingerprint_is_the_digest_of_the_canonical_json_whether_kept_or_not() -> None:
    """``fingerprint`` keeps the digests of the actions it saw last: the kept one is the digest
    of the canonical JSON (key order and tuple/list do not matter; a different value does)."""
    from server.storage.store import _fingerprint, fingerprint

    actions: list[dict[str, Any]] = [
        {"do": "pass"},
        {"do": "attack", "card": 7, "target": 9},
        {"target": 9, "card": 7, "do": "attack"},
        {"do": "attack", "card": 7, "target": 8},
        {"do": "choose", "cards": [1, 2]},
        {"do": "choose", "cards": (1, 2)},
        {"do": "x", "odd": object()},  # not msgpack: digested, never kept
    ]
    for _ in range(2):  # the second time from what was kept
        got = [fingerprint(a) for a in actions]
        assert got == [_fingerprint(a) for a in actions]
    assert got[1] == got[2] and got[4] == got[5]
    assert len({got[0], got[1], got[3], got[4]}) == 4
