"""A client's heartbeat (issue 38, item 6): ``ping`` is answered ``pong`` with its nonce at once;
with ``silence_ms`` the server closes a connection that goes quiet for that long (1011), and the
other seat is told at once that this seat is gone."""

from __future__ import annotations

import asyncio
from pathlib import Path

from duel_helpers import run, running_server, start_match, url_of

from protocol.messages import Ping, Pong, Presence


def test_ping_is_answered_and_a_silent_connection_is_closed(redis_url: str, tmp_path: Path) -> None:
    async def body() -> None:
        async with running_server(redis_url, tmp_path) as server:
            a, b, _, _ = await start_match(url_of(server))
            await a.send(Ping(nonce=5, silence_ms=2000))
            pong = await a.expect(Pong)
            assert pong.nonce == 5
            # a heartbeat every half second keeps the connection: nothing is closed in 3 s
            for n in range(6):
                await asyncio.sleep(0.5)
                await a.send(Ping(nonce=n))
                assert (await a.expect(Pong)).nonce == n
            assert not a.closed
            b.drain()
            # then A goes quiet: within the 2 s (and a little), the server closes its connection,
            # and B hears that seat 0 is gone (not after the keepalive's 20 + 20 s)
            loop = asyncio.get_running_loop()
            quiet = loop.time()
            presence = await b.expect(Presence, timeout=5)
            took = loop.time() - quiet
            assert presence.seats == [False, True]
            assert 1.9 <= took < 3.5, took
            await asyncio.sleep(0.2)
            assert a.closed and a.ws.close_code == 1011 and a.ws.close_reason == "no message within silence_ms"
            assert server.metrics.get("duel_heartbeats_missed_total") == 1
            await b.close()

    run(body())


def test_without_silence_ms_a_quiet_connection_stays(redis_url: str, tmp_path: Path) -> None:
    async def body() -> None:
        async with running_server(redis_url, tmp_path) as server:
            a, b, _, _ = await start_match(url_of(server))
            await a.send(Ping(nonce=1))
            assert (await a.expect(Pong)).nonce == 1
            await asyncio.sleep(2.5)
            assert not a.closed and b.presence == [True, True]
            await a.close()
            await b.close()

    run(body())
