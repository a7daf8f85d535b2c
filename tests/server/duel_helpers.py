"""Helpers shared by the end-to-end tests: a real server on a free port,
real websocket clients, a bounded random-but-aggressive player."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar

from protocol.messages import Accepted, CreateMatch, Join, Rejected, Seated, Update
from server.clients.client import DuelClient
from server.clients.client import bot_choice as choose
from server.process.app import DuelServer
from server.process.config import ServerConfig

T = TypeVar("T")
SECRET = b"test-secret-do-not-use-in-production"


def run(coro: Awaitable[T]) -> T:
    async def main() -> T:
        return await coro

    return asyncio.run(main())


@asynccontextmanager
async def running_server(redis_url: str, data_dir: Path, **overrides: Any) -> AsyncIterator[DuelServer]:
    settings: dict[str, Any] = {
        "rate_per_second": 2000,
        "rate_burst": 4000,
        "poll_interval": 0.5,
        # every test's matches are created from 127.0.0.1: the per-address creation limits are
        # lifted, except in the tests of them (test_server_abandoned.py)
        "address_matches_per_minute": 100_000_000,
        "address_waiting_matches": 100_000,
        **overrides,
    }
    cfg = ServerConfig(port=0, data_dir=data_dir, **settings)
    server = await DuelServer(cfg, redis_url, secret=SECRET).start()
    try:
        yield server
    finally:
        await server.stop()


def url_of(server: DuelServer) -> str:
    return f"ws://127.0.0.1:{server.port}"


async def start_match(
    url_a: str, url_b: str | None = None, create: CreateMatch | None = None
) -> tuple[DuelClient, DuelClient, str, list[str]]:
    """Seat 0 creates (with ``create``'s options), seat 1 joins; both have
    received the genesis update."""
    a = await DuelClient.connect(url_a, "A")
    b = await DuelClient.connect(url_b or url_a, "B")
    await a.send(create or CreateMatch())
    seated_a = await a.expect(Seated)
    await b.send(Join(match_id=seated_a.match_id))
    seated_b = await b.expect(Seated)
    assert seated_b.seat == 1 and seated_b.started
    for c in (a, b):
        while c.view is None:
            await c.expect(Update)
    return a, b, seated_a.match_id, [seated_a.token, seated_b.token]


async def wait_for_turn(clients: list[DuelClient], timeout: float = 10.0) -> DuelClient | None:
    """The client that owes a decision at the latest seq (None: duel over)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while loop.time() < deadline:
        for c in clients:
            c.changed.clear()
            c.drain()
        top = max(c.seq for c in clients)
        if all(c.seq == top and c.finished for c in clients):
            return None
        for c in clients:
            if c.seq == top and c.owes_decision:
                return c
        waits = [asyncio.ensure_future(c.changed.wait()) for c in clients]
        await asyncio.wait(waits, timeout=max(0.0, deadline - loop.time()), return_when=asyncio.FIRST_COMPLETED)
        for w in waits:
            w.cancel()
    raise TimeoutError("nobody owes a decision")


async def play(clients: list[DuelClient], rnd: random.Random, max_actions: int = 1500) -> list[Accepted]:
    """Play until the duel ends (bounded); return every acceptance."""
    accepted: list[Accepted] = []
    for _ in range(max_actions):
        actor = await wait_for_turn(clients)
        if actor is None:
            return accepted
        reply = await actor.act(choose(actor.legal, rnd))
        assert isinstance(reply, Accepted) and not reply.duplicate, reply
        accepted.append(reply)
    raise AssertionError("the duel did not finish")


async def play_until(
    clients: list[DuelClient], seq: int, pick: Callable[[list[dict[str, Any]]], dict[str, Any]]
) -> None:
    """Act for whichever seat owes the decision, choosing with ``pick`` among its legal actions
    other than conceding, until the log reaches ``seq`` (each action accepted)."""
    while max(c.seq for c in clients) < seq:
        actor = await wait_for_turn(clients)
        assert actor is not None, f"the duel ended before entry {seq}"
        reply = await actor.act(pick([x for x in actor.legal if x["do"] != "concede"]))
        assert isinstance(reply, Accepted) and not reply.duplicate, reply


QUIET = ("pass", "next_phase", "end_turn")


def quietly(legal: list[dict[str, Any]]) -> dict[str, Any]:
    """The first quiet action (the duel lasts), else the first legal one: a ``play_until`` pick."""
    return ([x for x in legal if x["do"] in QUIET] or legal)[0]


def deaf_to(server: DuelServer, match_id: str) -> None:
    """The server's listener drops every entry bell of ``match_id`` (as if pub/sub lost them)."""
    ring = server.fanout._ring

    def dropping(mid: str, data: object) -> None:
        text = data.decode() if isinstance(data, bytes) else str(data)
        if mid == match_id and text.isdigit():
            return
        ring(mid, data)

    server.fanout._ring = dropping  # type: ignore[method-assign]


def is_rejected(reply: Accepted | Rejected, *codes: str) -> bool:
    return isinstance(reply, Rejected) and reply.code in codes
