"""Load generation: many bot duels against a running server (``duel load``, ``bench/``).

Each duel is two lean websocket clients (msgpack in and out, no schema checks: the point is
to load the server, not the generator) that create and join a match and play it with the
project's bot policy (:func:`server.clients.client.bot_choice`), either as fast as the server
answers or at a human pace (each seat takes ``think_s`` seconds, +-50 %, per decision).

Measured for every accepted action: the time from sending it to the moment *both* seats
have the update of its entry ("action -> both clients"). Errors are counted by code; a duel
whose server drops it counts as failed. The same code drives the real server and the bare
pipeline of bench/pipeline.py, so their figures compare.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import random
import secrets
import time
from collections import Counter, deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from protocol.codec import pack
from server.clients.client import bot_choice


class ViewHead(msgspec.Struct):
    """The one field of a view the driver reads."""

    winner: int | str | None = None  # a seat, or "draw"


class Frame(msgspec.Struct):
    """What the driver reads of any server frame; every other field is skipped while decoding.

    A full decode built each view's tree of dicts and lists (a frame with a view: 1.7 KB) and
    freed the one before it: 25 % of the driver's CPU at saturation, ~30 µs per action, on
    the two CPUs the server it measures shares (py-spy over ``run`` at 200 duels). Decoded
    into this, the driver keeps only the seq, the winner and the legal actions (sent back as
    they came)."""

    type: str = ""
    seq: int = 0
    view: ViewHead | None = None
    legal: list[dict[str, Any]] | None = None
    pending: msgspec.Raw = msgspec.Raw(b"")
    client_action_id: str = ""
    code: str = ""
    token: str = ""
    match_id: str = ""


decode_frame = msgspec.msgpack.Decoder(Frame).decode
"""The load driver's frames decoded by msgspec into ``Frame``: the driver shares the machine
with the server it measures, and every CPU second it spends is one the server (the real one
more than the bare pipeline: its frames are larger) does not get."""

_NIL = b"\xc0"


def over(frame: Frame) -> bool:
    """The duel is over: an update with a winner in its view and no pending decision (PROTOCOL.md)."""
    return frame.view is not None and frame.view.winner is not None and bytes(frame.pending) in (b"", _NIL)


MAX_LATENCIES = 200_000

RATE_LIMITED = "rate/limited"
LIMITED_PAUSE_S = 0.05
LIMITED_TRIES = 8
"""A frame dropped for the server's rate limits is sent again after 0.05, 0.1, ... 1 s (``Seat.request``)."""

LOAD_TEST_LIMITS = (
    "--rate-limit",
    "100000",
    "--address-connections",
    "100000",
    "--address-rate",
    "10000000",
    "--address-matches",
    "100000000",
    "--address-waiting",
    "100000",
)
"""``duel serve`` options that lift its per-connection and per-address limits: what a load test from
one machine needs (bench/ starts its servers so)."""

STOP_GRACE_S = 5.0
"""With ``seconds``: how long the duels have to finish the action they are on once time is up."""


class RateLimited(Exception):
    """The server kept dropping one frame for its rate limits."""


DRIVER_GC_EVERY_S = 60.0
"""While it runs, the driver collects its cyclic garbage only this often (see ``quiet_collector``)."""


@dataclass
class LoadConfig:
    url: str  # one server, or several separated by commas (a duel's seats on different ones)
    duels: int = 10  # duels in all (full speed) or held at once (human pace)
    concurrency: int = 10  # duels running at once (full speed)
    think_s: float = 0.0  # 0: full speed; else seconds per decision per seat
    seconds: float | None = None  # stop after this long (human pace: how long to hold the duels)
    max_actions: int = 3000  # a duel longer than this is conceded
    seed: int = 1
    deck: list[int] | None = None


@dataclass
class Stats:
    started: int = 0
    finished: int = 0  # played to their end
    stopped: int = 0  # still being played when the run's time was up (held to the end, at a human pace)
    failed: int = 0
    running: int = 0
    actions: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    latencies: deque[float] = field(default_factory=lambda: deque(maxlen=MAX_LATENCIES))
    t0: float = field(default_factory=time.perf_counter)
    window: deque[tuple[float, int]] = field(default_factory=deque)
    driver_collections: int = 0  # the driver's own full collections while it ran (``quiet_collector``)
    finished_actions: int = 0  # the accepted actions of the duels played to their end
    update_frames: int = 0  # update frames the clients received (one per seat per entry)
    update_bytes: int = 0  # their bytes, as sent (bench/: the bare pipeline's frames are made this size)

    def mean_update_bytes(self) -> float:
        """The mean size of an update frame a client received (0 with none)."""
        return self.update_bytes / self.update_frames if self.update_frames else 0.0

    def rate(self) -> float:
        """Accepted actions per second over the last few seconds."""
        now = time.perf_counter()
        self.window.append((now, self.actions))
        while len(self.window) > 2 and now - self.window[0][0] > 5:
            self.window.popleft()
        (t_a, n_a), (t_b, n_b) = self.window[0], self.window[-1]
        return (n_b - n_a) / (t_b - t_a) if t_b > t_a else 0.0

    def percentile(self, q: float) -> float:
        if not self.latencies:
            return float("nan")
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


class Seat:
    """One lean client: the latest view it was sent, and when each seq reached it."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.seq = 0
        self.legal: list[dict[str, Any]] = []
        self.finished = False
        self.token = ""
        self.seen: dict[int, float] = {}
        self.changed = asyncio.Event()
        self.replies: dict[str, Frame] = {}
        self.errors: list[str] = []
        self.limited = False  # the server dropped a frame of ours for its rate limits (``request``)
        self.reader: asyncio.Task[None] | None = None
        self.update_frames = 0
        self.update_bytes = 0

    async def send(self, msg: dict[str, Any]) -> None:
        await self.ws.send(pack(msg))

    async def read(self) -> None:
        try:
            async for data in self.ws:
                msg = decode_frame(data.encode() if isinstance(data, str) else data)
                kind = msg.type
                if kind == "update":
                    self.update_frames += 1
                    self.update_bytes += len(data)
                    self.seq = max(self.seq, msg.seq)
                    self.seen.setdefault(msg.seq, time.perf_counter())
                    if msg.view is not None:
                        self.legal = msg.legal or []
                        self.finished = over(msg)
                elif kind in ("accepted", "rejected"):
                    self.replies[msg.client_action_id] = msg
                elif kind == "seated":
                    self.token = msg.token
                    self.replies["seated"] = msg
                elif kind == "welcome":
                    self.replies["welcome"] = msg
                elif kind == "error":
                    self.errors.append(msg.code)
                    self.limited = self.limited or msg.code == RATE_LIMITED
                self.changed.set()
        except ConnectionClosed:
            pass
        finally:
            self.changed.set()

    async def wait(self, pred: Callable[[], bool], timeout: float = 30.0) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not pred():
            if self.reader is not None and self.reader.done():
                raise ConnectionError("the server closed the connection")
            self.changed.clear()
            left = deadline - loop.time()
            if left <= 0:
                raise TimeoutError("no answer in time")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), left)

    async def request(self, msg: dict[str, Any], done: Callable[[], bool]) -> float:
        """Send ``msg`` and wait until ``done()``; the time of the send that was answered.

        A frame over the server's rate limits is answered ``rate/limited`` and dropped
        (PROTOCOL.md): sent again after a pause, doubling from ``LIMITED_PAUSE_S``, as a
        well-behaved client does (an action keeps its client action id, so it is never
        applied twice). The driver has one request out per seat, so the error is this
        frame's. After ``LIMITED_TRIES`` tries: ``RateLimited``."""
        pause = LIMITED_PAUSE_S
        for _ in range(LIMITED_TRIES):
            self.limited = False
            sent = time.perf_counter()
            await self.send(msg)
            await self.wait(lambda: done() or self.limited)
            if done():
                return sent
            await asyncio.sleep(pause)
            pause = min(1.0, 2 * pause)
        raise RateLimited(f"{LIMITED_TRIES} tries of one frame answered rate/limited")

    async def until_seq(self, seq: int) -> None:
        await self.wait(lambda: self.seq >= seq)


async def _seat(url: str, hello_name: str) -> Seat:
    ws = await connect(url, max_size=8 * 1024 * 1024, compression=None, open_timeout=30, ping_interval=None)
    seat = Seat(ws)
    seat.reader = asyncio.create_task(seat.read())
    try:
        await seat.request({"type": "hello", "versions": [1], "client": hello_name}, lambda: "welcome" in seat.replies)
    except BaseException:
        await ws.close()
        raise
    return seat


async def play_duel(cfg: LoadConfig, stats: Stats, n: int, stop: asyncio.Event) -> None:
    rnd = random.Random(cfg.seed * 1_000_003 + n)
    try:
        # several servers (comma-separated URLs): the two seats of a duel sit on different
        # processes when there are two or more (the fan-out between processes is exercised)
        urls = cfg.url.split(",")
        a = await _seat(urls[n % len(urls)], "load")
        try:
            b = await _seat(urls[(n + 1) % len(urls)], "load")
        except BaseException:
            await a.ws.close()
            raise
    except (OSError, ConnectionClosed, TimeoutError, RateLimited) as exc:
        stats.failed += 1
        stats.errors[f"connect:{type(exc).__name__}"] += 1
        await asyncio.sleep(0.1)
        return
    stats.started += 1
    stats.running += 1
    try:
        await a.request(
            {"type": "create_match", "deck": cfg.deck, "request_id": secrets.token_urlsafe(18)},
            lambda: "seated" in a.replies,
        )
        match_id = a.replies["seated"].match_id
        join = {"type": "join", "match_id": match_id, "deck": cfg.deck, "request_id": secrets.token_urlsafe(18)}
        await b.request(join, lambda: "seated" in b.replies)
        await b.wait(lambda: b.seq >= 1)
        await a.wait(lambda: a.seq >= 1)
        prefix = secrets.token_hex(3)
        played = 0
        for i in range(cfg.max_actions):
            if (a.finished and b.finished) or stop.is_set():
                break
            actor = a if a.legal and a.seq >= b.seq else b if b.legal and b.seq >= a.seq else None
            if actor is None:
                waits = [asyncio.ensure_future(s.changed.wait()) for s in (a, b)]
                _, pending = await asyncio.wait(waits, timeout=5, return_when=asyncio.FIRST_COMPLETED)
                for w in pending:  # not left waiting (one pair per turn of every duel held)
                    w.cancel()
                a.changed.clear()
                b.changed.clear()
                continue
            if cfg.think_s:
                await asyncio.sleep(cfg.think_s * (0.5 + rnd.random()))
            action = bot_choice(actor.legal, rnd) if i < cfg.max_actions - 1 else {"do": "concede"}
            cid = f"{prefix}-{i}"
            seq = actor.seq
            actor.legal = []
            frame = {"type": "action", "client_action_id": cid, "expected_seq": seq, "action": action}
            t0 = await actor.request(frame, lambda: cid in actor.replies)  # noqa: B023 (awaited here)
            reply = actor.replies.pop(cid)
            if reply.type == "rejected":
                stats.errors[reply.code] += 1
                continue
            done = reply.seq
            await a.until_seq(done)
            await b.until_seq(done)
            stats.actions += 1
            played += 1
            stats.latencies.append(max(a.seen[done], b.seen[done]) - t0)
        if a.finished and b.finished:
            stats.finished += 1
            stats.finished_actions += played
        else:
            stats.stopped += 1
    except (ConnectionError, ConnectionClosed, TimeoutError, OSError, RateLimited) as exc:
        stats.failed += 1
        stats.errors[type(exc).__name__] += 1
    finally:
        for s in (a, b):
            for code in s.errors:
                stats.errors[code] += 1
            stats.update_frames += s.update_frames
            stats.update_bytes += s.update_bytes
            with contextlib.suppress(Exception):
                await s.ws.close()
        stats.running -= 1


async def run(cfg: LoadConfig, on_tick: Callable[[Stats], None] | None = None, tick_s: float = 0.5) -> Stats:
    """Full speed: keep ``concurrency`` duels going until ``duels`` have been played (or
    ``seconds`` pass). Human pace (``think_s``): hold ``duels`` duels at once for ``seconds``
    (a duel that ends is replaced by a new one), starting them over ``ramp_s``; then hold
    them ``seconds`` more, latencies counted from a decision period after the ramp."""
    stats = Stats()
    stop = asyncio.Event()
    human = cfg.think_s > 0
    at_once = cfg.duels if human else min(cfg.concurrency, cfg.duels)
    next_duel = 0

    async def worker() -> None:
        nonlocal next_duel
        while not stop.is_set() and (human or next_duel < cfg.duels):
            n = next_duel
            next_duel += 1
            await play_duel(cfg, stats, n, stop)

    async def ticker() -> None:
        collected = time.perf_counter()
        while True:
            await asyncio.sleep(tick_s)
            if time.perf_counter() - collected >= DRIVER_GC_EVERY_S:
                gc.collect()
                stats.driver_collections += 1
                collected = time.perf_counter()
            if on_tick is not None:
                on_tick(stats)

    with quiet_collector():
        tick = asyncio.create_task(ticker())
        ramp_s = min(10.0, at_once / 200) if human else 0.0  # players arrive over a few seconds
        workers = []
        for _ in range(at_once):
            workers.append(asyncio.create_task(worker()))
            if ramp_s:
                await asyncio.sleep(ramp_s / at_once)
        if human and cfg.seconds is not None:
            # the arrival burst (connecting, creating and joining every duel at once) is not the
            # steady state a human pace means: latencies count from one decision period after the
            # last duel began
            await asyncio.sleep(min(cfg.think_s * 1.5, cfg.seconds / 3))
            stats.latencies.clear()
        if cfg.seconds is not None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(asyncio.gather(*workers)), cfg.seconds)
            stop.set()
            # each duel stops after the action it is on; one still waiting past a grace period
            # (a stalled server, a request being retried) is cut, so that the run ends on time
            _, late = await asyncio.wait(workers, timeout=STOP_GRACE_S + 2 * cfg.think_s)
            for w in late:
                w.cancel()
        await asyncio.gather(*workers, return_exceptions=True)
        tick.cancel()
        if on_tick is not None:
            on_tick(stats)
        return stats


@contextlib.contextmanager
def quiet_collector() -> Iterator[None]:
    """The driver's cyclic garbage collector off while it runs (collected every
    ``DRIVER_GC_EVERY_S`` instead), and as it was afterwards.

    The driver is the instrument: a pause of its own delays reading the frames that it
    timestamps, and is counted as the server's latency. With CPython's collector as it comes,
    the driver holding 2,000 duels paused for collections of up to 0.4 s (gen2) and 0.1 s
    (gen1), 5 s of pauses in 40 s; the p99 it reported was 260-450 ms, and 17-26 ms with the
    collector off (the same server, alternating runs;
    docs/performance-log/2026-11-24-06-load-driver-collector-snapshots-after-lock.md). What it
    creates in cycles is a few objects per connection (28,000 after 40 s of 2,000 duels), freed
    at the next periodic collection or at the end."""
    was_enabled = gc.isenabled()
    gc.collect()
    gc.freeze()  # what the caller holds is left out of the periodic collections
    gc.disable()
    try:
        yield
    finally:
        gc.unfreeze()
        if was_enabled:
            gc.enable()
        gc.collect()


def rss_kib(pid: int) -> int | None:
    """Resident memory of a process (Linux), or None."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        return None
    return None


def summary(stats: Stats, seconds: float) -> dict[str, Any]:
    return {
        "duels_started": stats.started,
        "duels_finished": stats.finished,
        "duels_stopped": stats.stopped,
        "duels_failed": stats.failed,
        "actions": stats.actions,
        "actions_per_s": round(stats.actions / seconds, 1) if seconds > 0 else 0.0,
        "p50_ms": round(stats.percentile(0.50) * 1000, 2),
        "p99_ms": round(stats.percentile(0.99) * 1000, 2),
        "errors": dict(stats.errors),
        "seconds": round(seconds, 2),
    }
