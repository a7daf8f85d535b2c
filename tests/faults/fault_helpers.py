"""Helpers of the fault tests (issue 15): a player that survives every fault, the audit of
stored logs, size knobs, and a ``duel serve``-like child process with any ServerConfig.

Everything here talks to real parts: real websockets to a real server, a real Redis.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import secrets
import socket
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import redis.asyncio as aioredis
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from protocol import errors as E
from protocol.messages import (
    Accepted,
    CreateMatch,
    Error,
    Join,
    Reconnect,
    Rejected,
    Seated,
    ServerMessage,
    Update,
)
from server.clients.client import ClientError, DuelClient, bot_choice
from server.history.replay import verify_log
from server.process import child
from server.storage import keys
from server.storage.entry import LogEntry
from server.storage.store import RedisEventStore

SECRET = "fault-test-secret-0123456789abcdef"
NETWORK_ERRORS = (OSError, ConnectionClosed, InvalidHandshake, EOFError, TimeoutError)


def knob(name: str, default: int) -> int:
    """A size knob: the environment variable ``name``, or the short default of ``make test``."""
    return int(os.environ.get(name, default))


def fknob(name: str, default: float) -> float:
    return float(os.environ.get(name, default))


def report(test: str, **figures: Any) -> None:
    """Print a test's figures (``pytest -s`` shows them) as one JSON line, easy to grep."""
    print(f"\nFAULT-FIGURES {test} {json.dumps(figures, sort_keys=True)}", flush=True)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


LIFTED_CREATION: dict[str, Any] = {"address_matches_per_minute": 100_000_000, "address_waiting_matches": 100_000}
"""Per-address match creation limits lifted: a fault test creates every match from 127.0.0.1
(``test_fault_abandoned_matches.py`` sets its own)."""


class ServeProcess(child.ServeProcess):
    """``duel serve`` as a child process with the fault tests' secret. Every duel of a fault
    test is played from this one address at full speed: the per-address frame rate is lifted
    (its default, 500 frames/s, refused lobby requests once the server got faster), and so are
    the matches one address may create (``LIFTED_CREATION``)."""

    def __init__(self, workdir: Path, *extra: str, env: dict[str, str] | None = None) -> None:
        lifted = ("--address-matches", str(LIFTED_CREATION["address_matches_per_minute"]))
        lifted += ("--address-waiting", str(LIFTED_CREATION["address_waiting_matches"]))
        lifted += ("--bot-policy", "greedy")  # the server's bot answers at once, as the fault tests expect
        super().__init__(workdir, "--address-rate", "1000000", *lifted, *extra, secret=SECRET, env=env)


class ConfigServeProcess(child.ServeProcess):
    """A server process like ``duel serve`` but with any :class:`ServerConfig` field set
    (``tests/faults/serve_config.py``): for limits the command line does not expose."""

    def __init__(self, workdir: Path, redis_url: str, **config: Any) -> None:
        super().__init__(workdir, secret=SECRET)
        settings = {**LIFTED_CREATION, **config}
        self.args = [sys.executable, "-m", "tests.faults.serve_config", redis_url, json.dumps(settings)]
        self.env["PYTHONPATH"] = str(child.REPO)


# ------------------------------------------------------------------ players


@dataclass(frozen=True, slots=True)
class Ack:
    """An action the server acknowledged: ``accepted {seq}`` reached the client."""

    match_id: str
    seat: int
    seq: int
    cid: str


async def _until(c: DuelClient, kind: type[Seated] | type[Update], timeout: float) -> Any:
    """The next message of ``kind``; an error frame first raises ClientError."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        msg = await c.recv(max(0.01, deadline - loop.time()))
        if isinstance(msg, kind):
            return msg
        if isinstance(msg, Error):
            raise ClientError(msg)


async def _close(c: DuelClient | None) -> None:
    if c is not None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(c.close(), 3)


async def lobby_request(
    url: Callable[[], str], msg: CreateMatch | Join, errors: Counter[str], timeout: float = 60.0
) -> tuple[Seated, DuelClient]:
    """Send a create or join (with a request id) until it is answered ``seated``: on any lost
    connection or ``server/unavailable`` the same request goes again on a new connection.
    Returns the answer and the connection that got it (still open: the seat plays on it)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    pause = 0.05
    while True:
        c: DuelClient | None = None
        try:
            c = await DuelClient.connect(url(), "lobby")
            await c.send(msg)
            seated: Seated = await _until(c, Seated, 10)
            return seated, c
        except ClientError as exc:
            errors[exc.error.code] += 1
            await _close(c)
            if exc.error.code not in (E.SERVER_UNAVAILABLE, E.SERVER_INTERNAL):
                raise
        except NETWORK_ERRORS as exc:
            errors[type(exc).__name__] += 1
            await _close(c)
        if loop.time() > deadline:
            raise TimeoutError(f"{msg.type} was never answered")
        await asyncio.sleep(pause)
        pause = min(1.0, pause * 2)


class Player:
    """One seat of a duel played by the bot policy through every fault: a lost connection
    is taken back with the seat's token (``reconnect`` from the last seq seen), an action
    whose answer never came is sent again with the same client action id, and
    ``server/unavailable`` is retried with backoff. Every ``accepted`` is kept as an Ack."""

    def __init__(
        self,
        url: Callable[[], str],
        seated: Seated,
        rnd: random.Random,
        name: str,
        think: float = 0.0,
        client: DuelClient | None = None,
    ) -> None:
        self.url = url
        self.match_id = seated.match_id
        self.seat = seated.seat
        self.token = seated.token
        self.rnd = rnd
        self.name = name
        self.think = think
        self.prefix = f"{name}-{secrets.token_hex(4)}"
        self.count = 0
        self.seq = 0
        self.state_hash = ""
        self.client = client  # the connection that took the seat, if still open
        self.acks: list[Ack] = []
        self.errors: Counter[str] = Counter()
        self.rejected: Counter[str] = Counter()
        self.reconnects = 0
        self.resent = 0
        self.finished = False
        self.inflight: tuple[str, int, dict[str, Any]] | None = None
        self.tries = 0  # sendings of the action in flight
        # actions accepted at their first sending whose connection got the update of their
        # entry before the ``accepted`` (PROTOCOL.md: the answer comes first)
        self.update_first = 0

    async def _connect(self, deadline: float) -> DuelClient:
        loop = asyncio.get_running_loop()
        pause = 0.05
        while True:
            c: DuelClient | None = None
            try:
                c = await DuelClient.connect(self.url(), self.name)
                await c.send(Reconnect(token=self.token, last_seq=self.seq))
                await _until(c, Seated, 10)
                while c.view is None:
                    await _until(c, Update, 10)
                self.client = c
                return c
            except ClientError as exc:
                self.errors[exc.error.code] += 1
                await _close(c)
            except NETWORK_ERRORS as exc:
                self.errors[type(exc).__name__] += 1
                await _close(c)
            if loop.time() > deadline:
                raise TimeoutError(f"{self.name} could not take its seat back")
            await asyncio.sleep(pause)
            pause = min(1.0, pause * 2)

    def _new_id(self) -> str:
        self.count += 1
        return f"{self.prefix}-{self.count}"

    async def play(self, timeout: float = 300.0) -> None:
        """Play this seat until the duel is over."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        c = self.client
        try:
            if c is None:
                raise EOFError("no connection yet")
            while c.view is None:  # the seat's first board, on the connection that took the seat
                await _until(c, Update, 10)
        except (ClientError, *NETWORK_ERRORS):
            await _close(c)
            c = await self._connect(deadline)
        pause = 0.05
        while True:
            if loop.time() > deadline:
                raise TimeoutError(f"{self.name}: the duel did not end in time (seq {self.seq})")
            try:
                self.seq, self.state_hash = max(self.seq, c.seq), c.state_hash or self.state_hash
                if self.inflight is not None:
                    cid, expected, action = self.inflight
                    c.drain()
                    before = len(c.inbox)
                    self.tries += 1
                    reply = await c.act(action, expected_seq=expected, action_id=cid, timeout=10)
                    if isinstance(reply, Accepted):
                        self.acks.append(Ack(self.match_id, self.seat, reply.seq, cid))
                        if self.tries == 1 and update_first(c.inbox[before:], reply):
                            self.update_first += 1
                    else:
                        self.rejected[reply.code] += 1
                    self.inflight = None
                    pause = 0.05
                    continue
                c.changed.clear()
                if c.finished:
                    self.finished = True
                    return
                if c.closed:
                    raise EOFError("the connection is closed")
                if c.owes_decision:
                    if self.think:
                        await asyncio.sleep(self.think * (0.5 + self.rnd.random()))
                    self.inflight = (self._new_id(), c.seq, bot_choice(c.legal, self.rnd))
                    self.tries = 0
                    continue
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(c.changed.wait(), 5)
            except ClientError as exc:
                self.errors[exc.error.code] += 1
                if self.inflight is not None:
                    self.resent += 1
                await asyncio.sleep(pause)  # server/unavailable: the same request again, later
                pause = min(1.0, pause * 2)
            except NETWORK_ERRORS as exc:
                self.errors[type(exc).__name__] += 1
                if self.inflight is not None:
                    self.resent += 1
                await _close(c)
                self.reconnects += 1
                c = await self._connect(deadline)

    async def close(self) -> None:
        await _close(self.client)


def update_first(seen: list[ServerMessage], reply: Accepted) -> bool:
    """Did the update of ``reply``'s entry come before ``reply`` among the messages ``seen``?"""
    answered = next(i for i, m in enumerate(seen) if m is reply)
    return any(isinstance(m, Update) and m.seq == reply.seq for m in seen[:answered])


async def start_duel(
    url: Callable[[], str], n: int, errors: Counter[str], seed: int = 0, think: float = 0.0
) -> tuple[Player, Player]:
    """Create and join a match with request ids (retried through faults): its two players."""
    rnd = random.Random(seed * 1_000_003 + n)
    sa, ca = await lobby_request(url, CreateMatch(request_id=secrets.token_urlsafe(18), name=f"A{n}"), errors)
    sb, cb = await lobby_request(
        url, Join(match_id=sa.match_id, request_id=secrets.token_urlsafe(18), name=f"B{n}"), errors
    )
    assert sb.match_id == sa.match_id and (sa.seat, sb.seat) == (0, 1)
    return (
        Player(url, sa, random.Random(rnd.random()), f"d{n}a", think, ca),
        Player(url, sb, random.Random(rnd.random()), f"d{n}b", think, cb),
    )


# ------------------------------------------------------------------ the audit


@dataclass
class Audit:
    """What the stored logs say about the acknowledged actions."""

    matches: int = 0
    entries: int = 0
    acks: int = 0
    lost: list[Ack] = field(default_factory=list)  # acknowledged, but not at its seq in the log
    twice: list[tuple[str, int, str]] = field(default_factory=list)  # (match, seat, cid) in more than one entry
    gaps: list[str] = field(default_factory=list)  # logs whose seqs are not 1..n
    diverged: list[str] = field(default_factory=list)  # logs that fail verify
    sealed: int = 0  # logs read (partly) from a sealed segment

    def figures(self) -> dict[str, Any]:
        return {
            "matches": self.matches,
            "log_entries": self.entries,
            "acknowledged": self.acks,
            "acknowledged_lost": len(self.lost),
            "applied_twice": len(self.twice),
            "logs_not_contiguous": len(self.gaps),
            "logs_failing_verify": len(self.diverged),
            "logs_sealed": self.sealed,
        }

    def assert_clean(self) -> None:
        assert not self.lost, f"acknowledged actions lost: {self.lost[:5]}"
        assert not self.twice, f"actions applied twice: {self.twice[:5]}"
        assert not self.gaps, f"logs with gaps: {self.gaps}"
        assert not self.diverged, f"logs that fail verify: {self.diverged}"


async def read_log(redis_url: str, match_id: str) -> list[LogEntry]:
    client = aioredis.Redis.from_url(redis_url)
    try:
        return await RedisEventStore(client).read(match_id)
    finally:
        await client.aclose()


async def sealed_all(redis_url: str, match_ids: list[str], timeout: float) -> list[str]:
    """Wait until every match of ``match_ids`` is sealed and none is still pending a seal (or
    ``timeout`` seconds pass); what is left then: each match not sealed, and what Redis says of it."""
    client = aioredis.Redis.from_url(redis_url)
    try:
        deadline = time.monotonic() + timeout
        while True:
            pending = [m for m in match_ids if await client.zscore(keys.SEALS_PENDING, m) is not None]
            unsealed = [m for m in match_ids if not await client.exists(keys.sealed_key(m))]
            if (not pending and not unsealed) or time.monotonic() > deadline:
                break
            await asyncio.sleep(0.2)
        return [
            f"{m}: pending {await client.zscore(keys.SEALS_PENDING, m)}, "
            f"meta {await client.hmget(keys.meta_key(m), 'status', 'finished_ms', 'finished_by')}"
            for m in unsealed
        ]
    finally:
        await client.aclose()


async def is_sealed(redis_url: str, match_id: str) -> bool:
    client = aioredis.Redis.from_url(redis_url)
    try:
        return bool(await client.exists(keys.sealed_key(match_id)))
    finally:
        await client.aclose()


async def audit(redis_url: str, match_ids: list[str], acks: list[Ack]) -> Audit:
    """Check every acknowledged action is at its seq in the stored log, no client action id
    is in two entries, every log is 1..n, and every log passes ``verify`` (today's rules
    re-run over its actions give the same facts and state hashes)."""
    out = Audit(matches=len(match_ids), acks=len(acks))
    logs: dict[str, list[LogEntry]] = {}
    for match_id in match_ids:
        entries = await read_log(redis_url, match_id)
        logs[match_id] = entries
        out.sealed += await is_sealed(redis_url, match_id)
        out.entries += len(entries)
        if [e.seq for e in entries] != list(range(1, len(entries) + 1)):
            out.gaps.append(match_id)
        seen = Counter((e.seat, e.client_action_id) for e in entries if e.client_action_id)
        out.twice.extend((match_id, seat, cid) for (seat, cid), n in seen.items() if n > 1 and seat is not None)
        divergence, _ = verify_log(entries)
        if divergence is not None:
            out.diverged.append(f"{match_id}: {divergence.lines()[0]}")
    for ack in acks:
        entries = logs.get(ack.match_id, [])
        entry = entries[ack.seq - 1] if 0 < ack.seq <= len(entries) else None
        if entry is None or entry.seq != ack.seq or entry.client_action_id != ack.cid or entry.seat != ack.seat:
            out.lost.append(ack)
    return out


def errors_of(messages: list[ServerMessage]) -> Counter[str]:
    return Counter(m.code for m in messages if isinstance(m, Error))


def rejected_of(messages: list[ServerMessage]) -> Counter[str]:
    return Counter(m.code for m in messages if isinstance(m, Rejected))


def now() -> float:
    return time.perf_counter()
