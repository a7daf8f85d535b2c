"""``duel serve`` as real processes: restart keeps matches, SIGKILL loses no
acknowledged action, and two processes serve one match together."""

from __future__ import annotations

import random
import signal
import urllib.request
from pathlib import Path

import redis.asyncio as aioredis
from duel_helpers import choose, play, run, start_match, wait_for_turn
from proc_helpers import ServeProcess

from protocol.messages import (
    Accepted,
    Closing,
    CreateMatch,
    ListMatches,
    MatchList,
    Reconnect,
    Seated,
    Update,
)
from server.clients.client import DuelClient
from server.storage.store import RedisEventStore


def http_get(port: int, path: str) -> tuple[int, str]:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=5) as resp:
        return resp.status, resp.read().decode()


def test_serve_with_embedded_redis_keeps_matches_across_restarts(tmp_path: Path) -> None:
    """What ``make run`` does: embedded Redis in ./var; a second run finds the matches."""
    first = ServeProcess(tmp_path).start()
    assert any("embedded Redis" in line and "appendonly yes" in line for line in first.lines)
    assert http_get(first.port, "/healthz") == (200, "ok\n")

    async def create() -> tuple[str, str]:
        c = await DuelClient.connect(first.url)
        await c.send(CreateMatch())
        seated = await c.expect(Seated)
        await c.close()
        return seated.match_id, seated.token

    match_id, token = run(create())
    status, metrics = http_get(first.port, "/metrics")
    assert status == 200 and "duel_connections_total 1" in metrics
    assert first.stop() == 0
    assert (tmp_path / "var" / "appendonly.aof").exists()
    assert not (tmp_path / "var" / "redis.sock").exists(), "the embedded Redis was stopped"

    with ServeProcess(tmp_path) as second:

        async def find() -> None:
            c = await DuelClient.connect(second.url)
            await c.send(ListMatches())
            listing = await c.expect(MatchList)
            assert match_id in [m["match_id"] for m in listing.matches]
            await c.send(Reconnect(token=token, last_seq=0))
            seated = await c.expect(Seated)
            assert seated.match_id == match_id and seated.seat == 0 and not seated.started
            await c.close()

        run(find())


def test_two_processes_share_one_match(redis_url: str, tmp_path: Path) -> None:
    with (
        ServeProcess(tmp_path / "p1", "--redis-url", redis_url) as p1,
        ServeProcess(tmp_path / "p2", "--redis-url", redis_url) as p2,
    ):

        async def body() -> None:
            a, b, match_id, _ = await start_match(p1.url, p2.url)
            accepted = await play([a, b], random.Random(5))
            assert a.finished and b.finished and a.state_hash == b.state_hash
            client = aioredis.Redis.from_url(redis_url)
            log = await RedisEventStore(client).read(match_id)
            assert len(log) == 1 + len(accepted)
            assert log[-1].state_hash == a.state_hash
            await client.aclose()
            await a.close()
            await b.close()

        run(body())


def test_sigkill_loses_no_acknowledged_action(redis_url: str, tmp_path: Path) -> None:
    proc = ServeProcess(tmp_path / "k", "--redis-url", redis_url).start()

    async def body() -> None:
        nonlocal proc
        rnd = random.Random(9)
        a, b, match_id, tokens = await start_match(proc.url)
        acks: list[Accepted] = []
        for _ in range(25):
            actor = await wait_for_turn([a, b])
            assert actor is not None
            reply = await actor.act(choose(actor.legal, rnd))
            assert isinstance(reply, Accepted)
            acks.append(reply)
        proc.stop(signal.SIGKILL)
        client = aioredis.Redis.from_url(redis_url)
        store = RedisEventStore(client)
        log = {e.seq: e for e in await store.read(match_id)}
        for ack in acks:
            assert log[ack.seq].client_action_id == ack.client_action_id
        proc = ServeProcess(tmp_path / "k", "--redis-url", redis_url).start()
        # new client instances: new action ids (a reused id would be answered
        # as a duplicate of the old action, by design)
        a2 = await DuelClient.connect(proc.url, "A2")
        b2 = await DuelClient.connect(proc.url, "B2")
        for c, token, old in ((a2, tokens[0], a), (b2, tokens[1], b)):
            await c.send(Reconnect(token=token, last_seq=old.seq))
            await c.expect(Seated)
            while c.view is None:
                await c.expect(Update)
        assert a2.seq == b2.seq == 1 + len(acks) and a2.state_hash == b2.state_hash
        rest = await play([a2, b2], rnd)
        assert a2.finished
        assert await store.length(match_id) == 1 + len(acks) + len(rest)
        await client.aclose()
        for c in (a2, b2):
            await c.close()

    try:
        run(body())
    finally:
        proc.stop()


def test_sigterm_drains_and_tells_clients_to_reconnect(redis_url: str, tmp_path: Path) -> None:
    proc = ServeProcess(tmp_path / "d", "--redis-url", redis_url).start()

    async def body() -> None:
        a, b, match_id, tokens = await start_match(proc.url)
        proc.proc.send_signal(signal.SIGTERM)  # type: ignore[union-attr]
        for c in (a, b):
            closing = await c.expect(Closing, timeout=10)
            assert closing.reconnect
            await c.ws.wait_closed()
            assert c.ws.close_code == 1012
        assert proc.stop() == 0
        # the match goes on on a new process
        again = ServeProcess(tmp_path / "d", "--redis-url", redis_url).start()
        try:
            c = await DuelClient.connect(again.url, "A3")
            await c.send(Reconnect(token=tokens[0], last_seq=a.seq))
            assert (await c.expect(Seated)).match_id == match_id
            await c.expect(Update)
            assert c.state_hash == a.state_hash
            await c.close()
        finally:
            again.stop()

    run(body())
