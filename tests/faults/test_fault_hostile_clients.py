"""Slow and hostile clients against a real server process (issue 15).

tests/server covers one spectator that stops reading (queue overflow), one frozen seat
(ping timeout), and the per-connection and per-address limits one at a time. Here:

* many never-reading clients at once, of both kinds (spectators of a busy duel, whose
  queue overflows; idle connections, which only miss pongs), while a bot duel is played:
  each is dropped within the stated bound, the duel finishes;
* a flooding address (its connections named by a trusted proxy's X-Forwarded-For) is held
  to its per-connection and per-address budgets while an honest duel from another address
  finishes without a single ``rate/limited``;
* thousands of idle connections (``DUEL_IDLE_CONNECTIONS``) held at once, with the server's
  RSS measured, and those beyond one address's connection limit refused cleanly (HTTP 429).

The bound on dropping a client that never reads: a client whose outgoing queue (``out_queue``
frames) overflows is closed with 1013 at the overflow; a client that is sent nothing more
still never answers a ping, and is dropped within ``ping_interval + ping_timeout +
close_timeout`` (3 s with the settings here; 20 + 20 + 2 = 42 s with the defaults).
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import os
import socket
import time
import urllib.request
from collections import Counter
from pathlib import Path

import msgpack
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import InvalidStatus

from protocol import errors as E
from server.clients.load import rss_kib
from tests.faults.fault_helpers import ConfigServeProcess, knob, report, start_duel

SLOW = knob("DUEL_SLOW_CLIENTS", 6)  # never-reading clients of each kind
IDLE = knob("DUEL_IDLE_CONNECTIONS", 300)
PING, PONG_WAIT, CLOSE_WAIT = 1.0, 1.0, 1.0
BOUND = PING + PONG_WAIT + CLOSE_WAIT


def metric(port: int, name: str) -> float:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as resp:
        for line in resp.read().decode().splitlines():
            if line.startswith(name + " ") or line.startswith(name + "{"):
                return float(line.rsplit(" ", 1)[1])
    return 0.0


def _frame(payload: bytes) -> bytes:
    """A masked binary websocket frame, for a raw client that then never reads."""
    mask = os.urandom(4)
    n = len(payload)
    length = bytes([0x80 | n]) if n < 126 else bytes([0x80 | 126]) + n.to_bytes(2, "big")
    return bytes([0x82]) + length + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


async def never_reader(port: int, *frames: dict[str, object]) -> socket.socket:
    """A raw websocket client: upgrade, send ``frames``, and never read again."""
    loop = asyncio.get_running_loop()
    raw = socket.socket()
    raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
    raw.setblocking(False)
    await loop.sock_connect(raw, ("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    await loop.sock_sendall(
        raw,
        (
            f"GET / HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        ).encode(),
    )
    head = b""
    while b"\r\n\r\n" not in head:
        head += await loop.sock_recv(raw, 1)
    assert head.startswith(b"HTTP/1.1 101"), head
    for f in ({"type": "hello", "versions": [1]}, *frames):
        await loop.sock_sendall(raw, _frame(msgpack.packb(f)))
    return raw


async def wait_open(port: int, want: int, timeout: float) -> float:
    """Seconds until the server has ``want`` connections open (TimeoutError after ``timeout``)."""
    t0 = time.monotonic()
    while metric(port, "duel_connections_open") != want:
        if time.monotonic() - t0 > timeout:
            raise TimeoutError(f"{metric(port, 'duel_connections_open')} connections open, not {want}")
        await asyncio.sleep(0.05)
    return time.monotonic() - t0


def test_never_reading_clients_are_dropped_within_the_bound(tmp_path: Path, redis_url: str) -> None:
    server = ConfigServeProcess(
        tmp_path / "s",
        redis_url,
        out_queue=16,
        socket_send_buffer=4096,
        ping_interval=PING,
        ping_timeout=PONG_WAIT,
        close_timeout=CLOSE_WAIT,
        rate_per_second=5000,
        rate_burst=5000,
        address_rate=100000,
    ).start()
    figures: dict[str, object] = {}

    async def body() -> None:
        errors: Counter[str] = Counter()
        a, b = await start_duel(lambda: server.url, 0, errors, seed=21)
        await wait_open(server.port, 2, 10)
        # never-reading spectators of the duel (their queues overflow) and idle never-readers
        raws = [await never_reader(server.port, {"type": "spectate", "match_id": a.match_id}) for _ in range(SLOW)]
        raws += [await never_reader(server.port) for _ in range(SLOW)]
        await wait_open(server.port, 2 + 2 * SLOW, 10)
        t0 = time.monotonic()
        play = asyncio.ensure_future(asyncio.gather(a.play(timeout=120), b.play(timeout=120)))
        dropped_after = await wait_open(server.port, 2, BOUND * 2 + 5)  # generous: the bound, twice, + 5 s
        await play
        figures.update(
            never_reading_clients=2 * SLOW,
            all_dropped_after_s=round(dropped_after, 2),
            bound_s=BOUND,
            dropped_for_a_full_queue=metric(server.port, "duel_slow_clients_dropped_total"),
            duel_seconds=round(time.monotonic() - t0, 2),
            duel_actions=len(a.acks) + len(b.acks),
            duel_finished=a.finished and b.finished,
        )
        assert a.finished and b.finished
        assert metric(server.port, "duel_slow_clients_dropped_total") >= SLOW
        for r in raws:
            r.close()
        await a.close()
        await b.close()

    try:
        asyncio.run(body())
    finally:
        server.stop()
    report("never_reading_clients", **figures)


async def flood(url: str, address: str, frames: int, errors: Counter[str]) -> bool:
    """One connection of ``address`` sends ``frames`` frames as fast as it can, then reads its
    answers; True if the server cut the connection (its code is counted as ``close:<code>``).
    The server closes a connection after 20 violations (1008), or drops it when its outgoing
    queue overflows because it does not read; on a loaded machine the closing handshake with a
    client this busy may time out (1006). Any of these is the server defending itself; a
    connection still open when the answers stop coming (3 s) was not cut."""
    ws: ClientConnection = await connect(
        url, additional_headers={"X-Forwarded-For": address}, compression=None, max_size=8 * 1024 * 1024
    )
    await ws.send(msgpack.packb({"type": "hello", "versions": [1]}))
    with contextlib.suppress(Exception):
        for _ in range(frames):
            await ws.send(msgpack.packb({"type": "list_matches", "limit": 1}))
    with contextlib.suppress(Exception):
        while True:
            msg = msgpack.unpackb(await asyncio.wait_for(ws.recv(), 3), strict_map_key=False)
            if msg["type"] == "error":
                errors[msg["code"]] += 1
    closed = ws.close_code is not None  # before our own close: the server ended it
    if closed:
        errors[f"close:{ws.close_code}"] += 1
    await ws.close()
    return closed


def test_a_flooding_address_is_limited_and_an_honest_duel_is_not(tmp_path: Path, redis_url: str) -> None:
    server = ConfigServeProcess(
        tmp_path / "s",
        redis_url,
        trusted_proxies=["127.0.0.1"],
        rate_per_second=50,
        rate_burst=100,
        address_rate=200,
        max_connections_per_address=8,
    ).start()
    figures: dict[str, object] = {}

    async def body() -> None:
        flood_errors: Counter[str] = Counter()
        honest_errors: Counter[str] = Counter()
        a, b = await start_duel(lambda: server.url, 0, honest_errors, seed=22, think=0.005)
        floods = [asyncio.ensure_future(flood(server.url, "203.0.113.7", 400, flood_errors)) for _ in range(8)]
        await wait_open(server.port, 10, 10)
        refused = 0
        try:  # a ninth connection from the flooding address: refused before the upgrade
            ninth = await connect(server.url, additional_headers={"X-Forwarded-For": "203.0.113.7"})
            await ninth.close()
        except InvalidStatus as exc:
            refused = exc.response.status_code
        results = await asyncio.gather(a.play(timeout=200), b.play(timeout=200), *floods)
        closed = sum(1 for r in results if r is True)
        players = [a, b]
        for p in players:
            honest_errors.update(p.errors)
        figures.update(
            flood_connections=8,
            flood_frames=8 * 400,
            flood_answers_by_code=dict(flood_errors),
            flood_connections_cut=closed,
            ninth_connection_http_status=refused,
            honest_duel_finished=a.finished and b.finished,
            honest_errors=dict(honest_errors),
            honest_actions=len(a.acks) + len(b.acks),
        )
        assert a.finished and b.finished
        assert honest_errors[E.RATE_LIMITED] == 0 and not honest_errors
        assert flood_errors[E.RATE_LIMITED] > 0 and closed > 0
        assert refused == 429
        await a.close()
        await b.close()

    try:
        asyncio.run(body())
    finally:
        server.stop()
    report("flooding_address", **figures)


def test_thousands_of_idle_connections_are_held_or_refused_cleanly(tmp_path: Path, redis_url: str) -> None:
    per_address = 256
    server = ConfigServeProcess(
        tmp_path / "s",
        redis_url,
        trusted_proxies=["127.0.0.1"],
        max_connections_per_address=per_address,
        address_rate=100000,
    ).start()
    assert server.proc is not None
    figures: dict[str, object] = {}

    async def open_one(address: str) -> ClientConnection:
        ws = await connect(
            server.url, additional_headers={"X-Forwarded-For": address}, compression=None, open_timeout=60
        )
        await ws.send(msgpack.packb({"type": "hello", "versions": [1]}))
        assert msgpack.unpackb(await ws.recv())["type"] == "welcome"
        return ws

    async def body() -> None:
        assert server.proc is not None
        rss0 = rss_kib(server.proc.pid) or 0
        held: list[ClientConnection] = []
        t0 = time.monotonic()
        for start in range(0, IDLE, 100):  # from IDLE / 200 addresses, 200 at most each
            batch = [
                open_one(f"198.51.{(i // 200) // 250}.{(i // 200) % 250 + 1}")
                for i in range(start, min(IDLE, start + 100))
            ]
            held.extend(await asyncio.gather(*batch))
        opened_s = time.monotonic() - t0
        await wait_open(server.port, IDLE, 30)
        rss1 = rss_kib(server.proc.pid) or 0
        # one address beyond its limit: exactly the excess is refused, with HTTP 429
        extra, statuses = [], Counter[int]()
        for _ in range(per_address + 10):
            try:
                extra.append(await open_one("192.0.2.99"))
            except InvalidStatus as exc:
                statuses[exc.response.status_code] += 1
        # while all of them are held, a duel is played
        errors: Counter[str] = Counter()
        a, b = await start_duel(lambda: server.url, 0, errors, seed=23)
        await asyncio.gather(a.play(timeout=200), b.play(timeout=200))
        still_open = sum(1 for ws in held + extra if ws.close_code is None)
        figures.update(
            idle_connections=IDLE,
            opened_in_s=round(opened_s, 2),
            server_rss_before_kib=rss0,
            server_rss_with_idle_kib=rss1,
            rss_per_idle_connection_kib=round((rss1 - rss0) / max(1, IDLE), 1),
            one_address_held=len(extra),
            one_address_refused=dict(statuses),
            still_open=still_open,
            duel_finished=a.finished and b.finished,
        )
        assert len(extra) == per_address and statuses == Counter({429: 10})
        assert still_open == IDLE + per_address
        assert a.finished and b.finished
        await a.close()
        await b.close()
        await asyncio.gather(*(ws.close() for ws in held + extra))

    try:
        asyncio.run(body())
    finally:
        server.stop()
    report("idle_connections", **figures)
