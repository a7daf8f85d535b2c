"""Seats, spectators, reconnects, exactly-once, lobby and decks, over real
websockets and Redis."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import random
import weakref
from pathlib import Path

import msgpack
import pytest
import redis.asyncio as aioredis
from duel_helpers import choose, play, run, running_server, start_match, url_of, wait_for_turn

from engine.facts import facts_of
from protocol import errors as E
from protocol.errors import CloseCode
from protocol.messages import (
    Accepted,
    Act,
    Closing,
    CreateMatch,
    Error,
    GetReplay,
    Join,
    ListMatches,
    MatchList,
    QuickMatch,
    Reconnect,
    Rejected,
    ReplayLog,
    Seated,
    Spectate,
    Spectating,
    Update,
)
from server import rules
from server.clients.client import DuelClient
from server.process.app import DuelServer
from server.process.session import Session
from server.storage.store import RedisEventStore


def test_same_action_id_is_applied_once(redis_url: str, tmp_path: Path) -> None:
    async def body() -> None:
        async with running_server(redis_url, tmp_path) as server:
            a, b, match_id, _ = await start_match(url_of(server))
            store = RedisEventStore(aioredis.Redis.from_url(redis_url))
            action = a.legal[0]
            first = await a.act(action, action_id="once")
            assert isinstance(first, Accepted) and not first.duplicate
            length = await store.length(match_id)
            # a retry (after a timeout, say) with the same id and the old seq
            again = await a.act(action, action_id="once", expected_seq=first.seq - 1)
            assert isinstance(again, Accepted) and again.duplicate and again.seq == first.seq
            # ... even from another connection of the same seat (which takes the seat over)
            a2 = await DuelClient.connect(url_of(server), "A-again")
            await a2.send(Reconnect(token=(await _token(a)), last_seq=first.seq))
            await a2.expect(Seated)
            third = await a2.act(action, action_id="once", expected_seq=0)
            assert isinstance(third, Accepted) and third.duplicate and third.seq == first.seq
            assert await store.length(match_id) == length
            a = a2
            # an id used before, sent again fresh (current seq) with another action that is
            # legal now: refused as a reused id, nothing appended
            used: dict[int, tuple[str, int, dict[str, object]]] = {0: ("once", first.seq, action)}
            for _ in range(40):
                actor = await wait_for_turn([a, b])
                assert actor is not None
                seat = 0 if actor is a else 1
                if seat in used:
                    break
                sent = actor.legal[0]
                reply = await actor.act(sent, action_id=f"id-{seat}")
                assert isinstance(reply, Accepted) and not reply.duplicate
                used[seat] = (f"id-{seat}", reply.seq, sent)
            cid, seq, original = used[seat]
            n = await store.length(match_id)
            other = next(x for x in actor.legal if x != original)
            reused = await actor.act(other, action_id=cid)
            assert isinstance(reused, Rejected) and reused.code == E.ACTION_ID_REUSED, reused
            assert str(seq) in reused.reason and cid in reused.reason
            assert await store.length(match_id) == n
            for c in (a, b):
                await c.close()
            await store.redis.aclose()

    run(body())


async def _token(c: DuelClient) -> str:
    return next(m.token for m in c.inbox if isinstance(m, Seated))


def test_reconnect_gets_missed_entries_then_its_decision(redis_url: str, tmp_path: Path) -> None:
    async def body() -> None:
        rnd = random.Random(3)
        async with running_server(redis_url, tmp_path) as server:
            a, b, _, tokens = await start_match(url_of(server))
            seen = b.seq
            await b.close()
            # A plays on alone while it is A's turn and B owes nothing
            while a.owes_decision:
                reply = await a.act(choose([x for x in a.legal if x["do"] != "concede"], rnd))
                assert isinstance(reply, Accepted)
                await asyncio.sleep(0.01)
            b2 = await DuelClient.connect(url_of(server), "B2")
            await b2.send(Reconnect(token=tokens[1], last_seq=seen))
            seated = await b2.expect(Seated)
            assert seated.seat == 1 and seated.started
            updates = []
            while not updates or updates[-1].view is None:
                updates.append(await b2.expect(Update))
            assert [u.seq for u in updates] == list(range(seen + 1, a.seq + 1))
            assert all(u.view is None for u in updates[:-1])
            assert b2.state_hash == a.state_hash
            assert b2.pending is not None and b2.pending["seat"] == 1 and b2.legal
            # and the duel goes on to the end
            await play([a, b2], rnd)
            for c in (a, b2):
                await c.close()

    run(body())


def test_spectators_see_public_information_and_cannot_act(redis_url: str, tmp_path: Path) -> None:
    async def body() -> None:
        async with running_server(redis_url, tmp_path) as server:
            a, b, match_id, _ = await start_match(url_of(server))
            s = await DuelClient.connect(url_of(server), "S")
            await s.send(Spectate(match_id=match_id))
            await s.expect(Spectating)
            await s.expect(Update)
            assert s.view is not None and s.view["you"] is None and not s.legal
            reply_err = None
            await s.send_raw(
                msgpack.packb(
                    {"type": "action", "client_action_id": "s1", "expected_seq": s.seq, "action": {"do": "pass"}}
                )
            )
            reply_err = await s.expect(Error)
            assert reply_err.code == E.SESSION_SPECTATOR
            # no full replay while the duel runs
            await s.send(GetReplay(match_id=match_id))
            assert (await s.expect(Error)).code == E.MATCH_NOT_FINISHED
            await play([a, b], random.Random(4))
            while s.seq < a.seq:
                await s.expect(Update)
            assert s.state_hash == a.state_hash
            for hand_card in s.view["players"][0]["hand"] + s.view["players"][1]["hand"]:
                assert "code" not in hand_card
            # after the end, the full replay opens, and it folds to the same state
            await s.send(GetReplay(match_id=match_id))
            replay = await s.expect(ReplayLog)
            state = None
            for entry in replay.entries:
                state = rules.fold(facts_of(entry["facts"]), state)
            assert rules.state_hash(state) == a.state_hash
            for c in (a, b, s):
                await c.close()

    run(body())


def test_lobby_quick_match_list_and_full_match(redis_url: str, tmp_path: Path) -> None:
    async def body() -> None:
        async with running_server(redis_url, tmp_path) as server:
            url = url_of(server)
            p1, p2, p3 = [await DuelClient.connect(url, n) for n in ("q1", "q2", "q3")]
            await p1.send(QuickMatch())
            s1 = await p1.expect(Seated)
            assert s1.seat == 0 and not s1.started
            await p2.send(QuickMatch())
            s2 = await p2.expect(Seated)
            assert (s2.match_id, s2.seat, s2.started) == (s1.match_id, 1, True)
            await p1.expect(Update)
            await p3.send(ListMatches())
            listing = await p3.expect(MatchList)
            row = next(m for m in listing.matches if m["match_id"] == s1.match_id)
            assert row["status"] == "live" and row["seq"] >= 1
            await p3.send(Join(match_id=s1.match_id))
            assert (await p3.expect(Error)).code == E.MATCH_FULL
            for c in (p1, p2, p3):
                await c.close()

    run(body())


def test_decklists_are_validated(redis_url: str, tmp_path: Path) -> None:
    async def body() -> None:
        async with running_server(redis_url, tmp_path) as server:
            c = await DuelClient.connect(url_of(server), "d")
            demo = rules.demo_deck(0)
            cases = [
                (demo[:39], "39 cards"),
                (demo + demo[:21], "61 cards"),
                ([demo[0]] * 4 + demo[4:], "4 copies of"),
                ([*demo[:-1], 12345], "unknown card 12345"),
            ]
            for deck, words in cases:
                await c.send(CreateMatch(deck=deck))
                err = await c.expect(Error)
                assert err.code == E.DECK_INVALID and words in err.reason, err
            name = rules.card_name(demo[0])
            await c.send(CreateMatch(deck=[demo[0]] * 4 + demo[4:]))
            assert name in (await c.expect(Error)).reason
            await c.send(CreateMatch(deck=demo))
            assert (await c.expect(Seated)).seat == 0
            await c.close()

    run(body())


def test_concurrent_actions_for_one_seat_cannot_fork(redis_url: str, tmp_path: Path) -> None:
    """Two server processes handle different actions of one seat at the same seq (a seat
    can have one live connection only, so this is the race a takeover or a client retrying
    on another process could cause): exactly one is appended, the other is answered stale."""

    async def body() -> None:
        async with running_server(redis_url, tmp_path) as s1, running_server(redis_url, tmp_path) as s2:
            a, b, match_id, _tokens = await start_match(url_of(s1))
            assert len(a.legal) >= 2
            sent: list[Accepted | Rejected] = []

            async def submit(srv: DuelServer, action: dict[str, object], cid: str) -> None:
                await srv.service.submit(match_id, 0, Act(cid, a.seq, action), sent.append)  # type: ignore[arg-type]

            await s2.service.get(match_id)
            # the aliases are the same on both processes (derived from the shared secret)
            await asyncio.gather(submit(s1, a.legal[0], "race-1"), submit(s2, a.legal[1], "race-2"))
            kinds = sorted(type(r).__name__ for r in sent)
            assert kinds == ["Accepted", "Rejected"], sent
            rejected = next(r for r in sent if isinstance(r, Rejected))
            assert rejected.code == E.ACTION_STALE
            store = RedisEventStore(aioredis.Redis.from_url(redis_url))
            assert await store.length(match_id) == 2
            await store.redis.aclose()
            actor = await wait_for_turn([a, b])
            assert actor is not None
            for c in (a, b):
                await c.close()

    run(body())


def test_a_second_connection_takes_the_seat_over(redis_url: str, tmp_path: Path) -> None:
    """One live connection per seat: a reconnect with the same token, on the same or another
    process, takes the seat; the old connection is told why (closing, no reconnect) and
    closed with 4004; the opponent sees the seat connected throughout."""

    async def body() -> None:
        async with running_server(redis_url, tmp_path) as s1, running_server(redis_url, tmp_path) as s2:
            a, b, _match_id, tokens = await start_match(url_of(s1))
            for n, srv in enumerate((s1, s2, s1)):
                new = await DuelClient.connect(url_of(srv), f"A{n}")
                await new.send(Reconnect(token=tokens[0], last_seq=a.seq))
                await new.expect(Seated)
                closing = await a.expect(Closing)
                assert closing.reconnect is False and "another connection" in closing.reason
                with contextlib.suppress(EOFError):
                    while True:
                        await a.recv(timeout=5)
                assert a.ws.close_code == CloseCode.TAKEN_OVER
                a = new
            # the new holder plays on
            actor = await wait_for_turn([a, b])
            assert actor is not None
            reply = await actor.act(actor.legal[0])
            assert isinstance(reply, Accepted)
            presence = [m for m in b.inbox if isinstance(m, Update) and m.presence is not None][-1].presence
            assert presence == [True, True]
            for c in (a, b):
                await c.close()

    run(body())


def test_rate_limit_then_policy_close(redis_url: str, tmp_path: Path) -> None:
    async def body() -> None:
        async with running_server(redis_url, tmp_path, rate_per_second=5, rate_burst=5, max_violations=3) as server:
            c = await DuelClient.connect(url_of(server), "fast")
            for _ in range(12):
                await c.send(ListMatches())
            codes = []
            while True:
                try:
                    msg = await c.recv(timeout=5)
                except EOFError:
                    break
                if isinstance(msg, Error):
                    codes.append((msg.code, msg.fatal))
            assert codes[0] == (E.RATE_LIMITED, False)
            assert codes[-1] == (E.RATE_LIMITED, True)
            assert c.ws.close_code == 1008

    run(body())


def test_healthz_metrics_and_plain_http(redis_url: str, tmp_path: Path) -> None:
    import urllib.error
    import urllib.request

    async def body() -> None:
        async with running_server(redis_url, tmp_path) as server:
            base = f"http://127.0.0.1:{server.port}"

            def get(path: str) -> tuple[int, str]:
                try:
                    with urllib.request.urlopen(base + path, timeout=5) as resp:
                        return resp.status, resp.read().decode()
                except urllib.error.HTTPError as exc:
                    return exc.code, exc.read().decode()

            assert await asyncio.to_thread(get, "/healthz") == (200, "ok\n")
            status, text = await asyncio.to_thread(get, "/metrics")
            assert status == 200 and "# TYPE duel_action_latency_seconds histogram" in text
            for family in (
                "process_resident_memory_bytes",
                "process_cpu_seconds_total",
                "duel_gc_pause_seconds_bucket",
                "duel_append_latency_seconds_bucket",
                "python_gc_collections_total",
            ):
                assert family in text, family
            assert (await asyncio.to_thread(get, "/nothing"))[0] == 404

    run(body())


def _ws_frame(payload: bytes) -> bytes:
    """A masked binary websocket frame (RFC 6455 section 5.2), for a raw client."""
    import os
    import struct

    mask = os.urandom(4)
    n = len(payload)
    length = bytes([0x80 | n]) if n < 126 else bytes([0x80 | 126]) + struct.pack("!H", n)
    return bytes([0x82]) + length + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def test_a_client_that_stops_reading_is_dropped_not_waited_for(redis_url: str, tmp_path: Path) -> None:
    """A spectator that never reads fills its bounded queue and is dropped;
    the players' duel goes on at full speed. Its closing handshake cannot complete (it reads
    nothing, the socket is full): the connection is cut within the ping interval plus the
    close timeout (server.process.keepalive aborts a connection still closing after that)."""
    interval, close = 0.3, 0.3
    import base64
    import os
    import socket

    from protocol.codec import encode
    from protocol.messages import Hello

    async def body() -> None:
        async with running_server(
            redis_url,
            tmp_path,
            out_queue=8,
            socket_send_buffer=4096,
            ping_interval=interval,
            ping_timeout=30.0,
            close_timeout=close,
        ) as server:
            a, b, match_id, _ = await start_match(url_of(server))
            loop = asyncio.get_running_loop()
            raw = socket.socket()
            raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
            raw.setblocking(False)
            await loop.sock_connect(raw, ("127.0.0.1", server.port))
            key = base64.b64encode(os.urandom(16)).decode()
            await loop.sock_sendall(
                raw,
                f"GET / HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode(),
            )
            assert (await loop.sock_recv(raw, 12)) == b"HTTP/1.1 101"
            await loop.sock_sendall(
                raw, _ws_frame(encode(Hello(versions=[1]))) + _ws_frame(encode(Spectate(match_id=match_id)))
            )
            # from here on the raw client never reads again
            t0 = loop.time()
            await play([a, b], random.Random(8))
            assert loop.time() - t0 < 30
            for _ in range(50):
                if server.metrics.get("duel_slow_clients_dropped_total") >= 1:
                    break
                await asyncio.sleep(0.05)
            assert server.metrics.get("duel_slow_clients_dropped_total") == 1
            dropped_at = loop.time()
            # the spectator's connection is gone, the raw client still not reading. The session
            # leaves ``server.sessions`` a few loop steps before its handler counts the
            # connection closed (under load the gauge was read in between): wait for both
            while len(server.sessions) > 2 or server.metrics.get("duel_connections_open") > 2:
                assert loop.time() - dropped_at < interval + close + 2.0, "the dropped client's connection was kept"
                await asyncio.sleep(0.02)
            assert len(server.sessions) == 2 and server.metrics.get("duel_connections_open") == 2
            raw.close()
            for c in (a, b):
                await c.close()

    run(body())


def test_a_closed_connection_is_not_kept_for_its_next_ping(redis_url: str, tmp_path: Path) -> None:
    """The keepalive holds its connections weakly: a connection that closed is freed at once,
    not when its next ping falls due (under churn that was thousands of closed connections
    and their buffers)."""

    async def body() -> None:
        async with running_server(redis_url, tmp_path, ping_interval=60.0, ping_timeout=60.0) as server:
            client = await DuelClient.connect(url_of(server), "short-lived")
            loop = asyncio.get_running_loop()
            deadline = loop.time() + 5
            while not server.sessions:
                assert loop.time() < deadline
                await asyncio.sleep(0.01)
            (session,) = server.sessions
            gone = weakref.ref(session.ws)
            del session
            await client.close()
            while server.sessions:
                assert loop.time() < deadline
                await asyncio.sleep(0.01)
            await asyncio.sleep(0.05)  # the handler's task ends
            gc.collect()
            assert gone() is None, "the closed connection is still referenced"

    run(body())


def _seat_sessions(server: DuelServer, match_id: str, seat: int) -> list[Session]:
    return [s for s in server.sessions if s.match_id == match_id and s.watcher is not None and s.watcher.seat == seat]


def test_a_peer_that_stops_answering_pings_is_dropped_and_the_match_goes_on(redis_url: str, tmp_path: Path) -> None:
    """Seat 1's client freezes (its socket is no longer read, so no pong goes
    back): the server drops it within ping interval + ping timeout (+ the
    closing handshake's timeout); seat 0, which answers, stays; seat 0 plays
    on, seat 1 reconnects with its token and the duel is played out."""
    interval, timeout, close = 0.2, 0.4, 0.3
    rnd = random.Random(12)

    async def body() -> None:
        async with running_server(
            redis_url, tmp_path, ping_interval=interval, ping_timeout=timeout, close_timeout=close
        ) as server:
            a, b, match_id, tokens = await start_match(url_of(server))
            assert _seat_sessions(server, match_id, 1)
            # one task pings every connection (server.process.keepalive), not one task per connection
            assert all(s.ws.keepalive_task is None for s in server.sessions)
            loop = asyncio.get_running_loop()
            b.ws.transport.pause_reading()  # a frozen peer: nothing it is sent is read or answered
            frozen_at, seen = loop.time(), b.seq
            while _seat_sessions(server, match_id, 1):
                assert loop.time() - frozen_at < interval + timeout + close + 1.0, "not dropped in time"
                await asyncio.sleep(0.01)
            dropped_after = loop.time() - frozen_at
            assert dropped_after >= timeout * 0.9, dropped_after  # it was the ping timeout, not something else
            assert server.metrics.get("duel_keepalive_timeouts_total") == 1
            # seat 0 answers its pings: after more than one more timeout it is still there
            await asyncio.sleep(interval + timeout)
            assert _seat_sessions(server, match_id, 0) and not a.closed
            # the match goes on: seat 0 acts while it owes the decision ...
            while a.owes_decision:
                reply = await a.act(choose([x for x in a.legal if x["do"] != "concede"], rnd))
                assert isinstance(reply, Accepted), reply
            # ... seat 1 comes back with its token, gets what it missed, and the duel ends
            b2 = await DuelClient.connect(url_of(server), "B2")
            await b2.send(Reconnect(token=tokens[1], last_seq=seen))
            await b2.expect(Seated)
            while b2.seq < a.seq or b2.view is None:
                await b2.expect(Update)
            assert b2.state_hash == a.state_hash
            await play([a, b2], rnd)
            assert a.finished and b2.finished
            b.ws.transport.resume_reading()
            await asyncio.wait_for(b.ws.wait_closed(), 5)
            for c in (a, b2):
                await c.close()

    run(body())


@pytest.mark.parametrize("behind", [0, 3])
def test_the_seat_that_does_not_owe_a_decision_can_concede(redis_url: str, tmp_path: Path, behind: int) -> None:
    """Either seat may concede at any time: the one that does not owe the
    decision too (the engine accepts it, so must the server), at the current
    seq or (``behind``) an older one; exactly once; then the duel is over for
    everyone."""

    async def body() -> None:
        async with running_server(redis_url, tmp_path) as server:
            a, b, match_id, _ = await start_match(url_of(server))
            rnd = random.Random(5)
            for _ in range(6):  # a few entries in, so an old expected_seq exists
                actor = await wait_for_turn([a, b])
                assert actor is not None
                assert isinstance(await actor.act(choose(actor.legal, rnd)), Accepted)
            actor = await wait_for_turn([a, b])
            idle = b if actor is a else a
            idle_seat = 1 if idle is b else 0
            assert not idle.legal and idle.pending is not None and idle.pending["seat"] != idle_seat
            # anything else from the idle seat is refused, and changes nothing
            refused = await idle.act({"do": "next_phase"})
            assert isinstance(refused, Rejected) and refused.code == E.ACTION_NOT_YOUR_PRIORITY
            # the concession is accepted (made against the current seq, or an older one)
            reply = await idle.act({"do": "concede"}, action_id="gg", expected_seq=idle.seq - behind)
            assert isinstance(reply, Accepted) and not reply.duplicate, reply
            for c in (a, b):
                while c.seq < reply.seq or c.view is None or not c.finished:
                    await c.expect(Update)
                assert c.view is not None
                assert c.view["winner"] == 1 - idle_seat and c.view["end_reason"] == "concede"
                assert c.pending is None and not c.legal
            # a retry is the same concession; further actions find the duel over
            again = await idle.act({"do": "concede"}, action_id="gg", expected_seq=0)
            assert isinstance(again, Accepted) and again.duplicate and again.seq == reply.seq
            late = await actor.act({"do": "concede"})
            assert isinstance(late, Rejected) and late.code == E.MATCH_FINISHED
            store = RedisEventStore(aioredis.Redis.from_url(redis_url))
            log = await store.read(match_id)
            assert log[-1].seq == reply.seq and log[-1].seat == idle_seat
            assert log[-1].action == {"do": "concede"}
            await store.redis.aclose()
            for c in (a, b):
                await c.close()

    run(body())


def test_per_address_limits_bound_what_many_connections_may_do(redis_url: str, tmp_path: Path) -> None:
    """Opening more connections does not multiply a client's budget: one address holds at most
    ``max_connections_per_address`` connections (more are refused with HTTP 429 before the
    upgrade), and its connections share ``address_rate`` frames per second."""
    from websockets.exceptions import InvalidStatus

    async def body() -> None:
        async with running_server(
            redis_url, tmp_path, max_connections_per_address=3, address_rate=5, rate_per_second=1000, rate_burst=1000
        ) as server:
            held = [await DuelClient.connect(url_of(server), f"c{i}") for i in range(3)]
            with pytest.raises(InvalidStatus) as refused:
                await DuelClient.connect(url_of(server), "one-too-many")
            assert refused.value.response.status_code == 429
            for c in held:  # 3 connections x 10 frames, far over the address's 5/s (burst 10)
                for _ in range(10):
                    await c.send(ListMatches())
            limited = 0
            for c in held:
                with contextlib.suppress(TimeoutError, EOFError):
                    while True:
                        msg = await c.recv(timeout=1)
                        if isinstance(msg, Error) and msg.code == E.RATE_LIMITED:
                            limited += 1
                            # the address's budget ran out, not the connection's: the reason says so
                            assert "5 frames per second from all the connections of one address" in msg.reason
            assert limited >= 15
            await held[0].close()
            again = await DuelClient.connect(url_of(server), "room-again")  # a slot freed up
            for c in [*held[1:], again]:
                await c.close()

    run(body())
