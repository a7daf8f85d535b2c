"""The browser tests' environment: a duel server in a thread, Chromium's path."""

from __future__ import annotations

import asyncio
import dataclasses
import os
import shutil
import threading
from collections.abc import Awaitable, Coroutine
from pathlib import Path
from typing import Any, TypeVar

from server.process.app import DuelServer
from server.process.config import ServerConfig

T = TypeVar("T")
REPO = Path(__file__).resolve().parents[2]
SCREENSHOTS = REPO / "artifacts" / "screenshots"
SECRET = b"browser-test-secret-not-for-production"
LAUNCH_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-quic",
    "--no-first-run",
    "--no-default-browser-check",
]
HOW_TO_INSTALL = (
    "Chromium not found at {path}: the browser tests drive Debian's Chromium "
    "(`make test` installs it when missing: deploy/system_deps.sh)"
)


def chromium_path() -> str:
    return os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"


class LiveServer:
    """A DuelServer running on its own event loop in a background thread."""

    def __init__(self, redis_url: str, data_dir: Path, **config: Any) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="duel-server", daemon=True)
        self.thread.start()
        self.redis_url = redis_url
        # the server's bot opponent decides at once (bot_think=0): the tests wait on the page, not on it
        settings: dict[str, Any] = {
            "poll_interval": 0.5,
            "rate_per_second": 2000,
            "rate_burst": 4000,
            "bot_think": 0.0,
            # every page creates its matches from 127.0.0.1
            "address_matches_per_minute": 100_000_000,
            "address_waiting_matches": 100_000,
            **config,
        }
        cfg = ServerConfig(port=0, data_dir=data_dir, **settings)
        self.server: DuelServer = self.call(DuelServer(cfg, redis_url, secret=SECRET).start())

    def restart(self) -> None:
        """Drain and stop the server (clients are told to reconnect), then start a
        new one on the same port and Redis: what a deploy does."""
        port = self.port
        self.call(self.server.stop())
        cfg = dataclasses.replace(self.server.config, port=port)
        self.server = self.call(DuelServer(cfg, self.redis_url, secret=SECRET).start())

    def call(self, coro: Coroutine[Any, Any, T] | Awaitable[T], timeout: float = 60.0) -> T:
        async def wrap() -> T:
            return await coro

        return asyncio.run_coroutine_threadsafe(wrap(), self.loop).result(timeout)

    @property
    def port(self) -> int:
        return self.server.port

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def stop(self) -> None:
        self.call(self.server.stop())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)


async def replay_stories(url: str, match_id: str, viewpoint: str) -> list[tuple[int, str]]:
    """The story lines of a finished match as ``viewpoint`` was told them
    (``get_replay``), each with its entry's seq."""
    from protocol.messages import GetReplay, ReplayLog
    from server.clients.client import DuelClient

    c = await DuelClient.connect(url, "story-reader")
    try:
        out: list[tuple[int, str]] = []
        from_seq: int | None = 1
        while from_seq is not None:
            await c.send(GetReplay(match_id=match_id, viewpoint=viewpoint, from_seq=from_seq, limit=500))
            page = await c.expect(ReplayLog)
            out += [(int(e["seq"]), line) for e in page.entries for line in e["story"]]
            from_seq = page.next_seq
        return out
    finally:
        await c.close()


async def bot_duel(url: str, seed: int = 3) -> str:
    """Two protocol bots play a whole duel with the demo decks; the match id."""
    import random

    from protocol.messages import CreateMatch, Join, Seated, Update
    from server.clients.client import DuelClient, bot_choice

    a = await DuelClient.connect(url, "A")
    b = await DuelClient.connect(url, "B")
    await a.send(CreateMatch())
    match_id = (await a.expect(Seated)).match_id
    await b.send(Join(match_id=match_id))
    await b.expect(Seated)
    for c in (a, b):
        while c.view is None:
            await c.expect(Update)
    rnd = random.Random(seed)
    for _ in range(20000):
        for c in (a, b):
            c.changed.clear()
        if a.finished and b.finished:
            break
        top = max(a.seq, b.seq)
        actor = next((c for c in (a, b) if c.seq == top and c.owes_decision), None)
        if actor is None:
            # until either client hears something new (each keeps the latest state)
            waits = [asyncio.ensure_future(c.changed.wait()) for c in (a, b)]
            done, pending = await asyncio.wait(waits, timeout=30, return_when=asyncio.FIRST_COMPLETED)
            for w in pending:
                w.cancel()
            assert done, "neither bot heard anything for 30 s"
            for c in (a, b):
                c.drain()
            continue
        await actor.act(bot_choice(actor.legal, rnd))
    assert a.finished, "the bot duel did not finish"
    await a.close()
    await b.close()
    return match_id
