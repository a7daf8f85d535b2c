"""Chess clocks never charge a stall of the server or of Redis (issue 34, finding 4).

Duels with a clock are played over real websockets against a ``duel serve`` child process on
its own Redis; while they play, Redis (or the server process) is stopped with SIGSTOP for
``DUEL_FAULT_STALL_S`` seconds, then let go on. Each player notes, for every action the server
accepted, when it saw the decision (the update that gave it the decision arrived) and when it
sent the action that was accepted. The time the log charged (``time_ms`` of its entry) may
exceed that by no more than transit and the loop's own lag (``SLACK_S``): before, every
decision in flight across the stall was charged the stall (a Redis paused 10 s: 10 s).

Asserted: no entry charged more than its player's time plus ``SLACK_S``; some decisions were
in flight across the stall (their window on the server overlapped at least half of it); the
logs verify, and every acknowledged action is in them once.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import signal
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from protocol import errors as E
from protocol.messages import Accepted, CreateMatch
from server.clients.client import ClientError, DuelClient, bot_choice
from server.storage.embedded_redis import EmbeddedRedis
from server.storage.entry import LogEntry
from tests.faults.fault_helpers import NETWORK_ERRORS, Ack, ServeProcess, audit, fknob, knob, read_log, report
from tests.server.duel_helpers import start_match

STALL_S = fknob("DUEL_FAULT_STALL_S", 3.0)
DUELS = knob("DUEL_FAULT_CLOCK_DUELS", 2)
SLACK_S = 1.2
"""Transit, the server's loop lag below a stall (server.match.loopclock.STALL_S) and this test's own
loop lag (many players in one process on a shared host)."""
CLOCK_MS = 600_000  # no flag falls during the test


@dataclass
class Decision:
    seq: int  # the entry the accepted action became
    cid: str
    seen: float  # when the player saw the decision (its monotonic clock)
    sent: float  # when it sent the action that was accepted


@dataclass
class Seat:
    match_id: str
    seat: int
    client: DuelClient
    rnd: random.Random
    decisions: list[Decision] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)


async def _play(seat: Seat, stop: asyncio.Event) -> None:
    """Act whenever the seat owes a decision, after a short think; an action not answered
    (``server/unavailable``, a timeout) is sent again with the same id."""
    c = seat.client
    while not stop.is_set() and not c.finished:
        c.changed.clear()
        if not c.legal:
            await asyncio.wait([asyncio.ensure_future(c.changed.wait())], timeout=0.5)
            continue
        seen = time.monotonic()
        seq, action = c.seq, bot_choice(c.legal, seat.rnd)
        cid = c.next_action_id()
        await asyncio.sleep(0.02 + 0.2 * seat.rnd.random())
        while True:
            sent = time.monotonic()
            try:
                reply = await c.act(action, expected_seq=seq, action_id=cid, timeout=STALL_S + 20)
            except ClientError as exc:
                seat.errors[exc.error.code] += 1
                assert exc.error.code == E.SERVER_UNAVAILABLE, exc
                await asyncio.sleep(0.2)
                continue
            break
        if isinstance(reply, Accepted):
            seat.decisions.append(Decision(reply.seq, cid, seen, sent))
        else:
            seat.errors[reply.code] += 1


def _stopped(pid: int) -> tuple[float, float]:
    """Stop ``pid`` for STALL_S seconds (blocking: the stopped process cannot answer anyway);
    the stall's start and end on this process's monotonic clock."""
    start = time.monotonic()
    os.kill(pid, signal.SIGSTOP)
    try:
        time.sleep(STALL_S)
    finally:
        os.kill(pid, signal.SIGCONT)
    return start, time.monotonic()


@pytest.mark.parametrize("stalled", ["redis", "server"])
def test_a_stall_of_redis_or_the_server_is_not_charged_to_any_clock(stalled: str, tmp_path: Path) -> None:
    embedded = EmbeddedRedis(tmp_path / "r", fsync="everysec").start()
    server = ServeProcess(tmp_path / "s", "--redis-url", embedded.url).start()
    assert server.proc is not None
    pid = embedded.pid if stalled == "redis" else server.proc.pid

    async def body() -> tuple[list[Seat], tuple[float, float]]:
        seats: list[Seat] = []
        for n in range(DUELS):
            a, b, match_id, _ = await start_match(server.url, create=CreateMatch(clock_ms=CLOCK_MS))
            seats += [Seat(match_id, 0, a, random.Random(2 * n)), Seat(match_id, 1, b, random.Random(2 * n + 1))]
        stop = asyncio.Event()
        games = [asyncio.create_task(_play(s, stop)) for s in seats]
        await asyncio.sleep(1.0)
        # the stall runs on a thread: this loop keeps playing (its players send into it)
        stall = await asyncio.to_thread(_stopped, pid)
        await asyncio.sleep(2.0)
        stop.set()
        await asyncio.gather(*games)
        for s in seats:
            with contextlib.suppress(*NETWORK_ERRORS):
                await asyncio.wait_for(s.client.close(), 5)
        return seats, stall

    try:
        seats, (start, end) = asyncio.run(body())
        logs: dict[str, list[LogEntry]] = {s.match_id: [] for s in seats}
        sent_at: dict[tuple[str, int], float] = {}
        for s in seats:
            for d in s.decisions:
                sent_at[(s.match_id, d.seq)] = d.sent

        async def read() -> None:
            for match_id in logs:
                logs[match_id] = await read_log(embedded.url, match_id)

        asyncio.run(read())
        over: list[str] = []
        excess: list[float] = []
        in_flight = 0
        for s in seats:
            entries = logs[s.match_id]
            for d in s.decisions:
                entry = entries[d.seq - 1]
                assert entry.client_action_id == d.cid
                charged = entry.time_ms / 1000
                excess.append(charged - (d.sent - d.seen))
                if charged > d.sent - d.seen + SLACK_S:
                    over.append(f"{s.match_id}#{d.seq}: charged {charged:.2f} s, took {d.sent - d.seen:.2f} s")
                # the decision's window on the server: from the previous action's sending (its
                # update could not come sooner) to when the server could read this one
                before = sent_at.get((s.match_id, d.seq - 1), d.seen)
                read_at = end if start <= d.sent <= end else d.sent
                if min(read_at, end) - max(before, start) >= STALL_S / 2:
                    in_flight += 1
        acks = [Ack(s.match_id, s.seat, d.seq, d.cid) for s in seats for d in s.decisions]
        result = asyncio.run(audit(embedded.url, sorted(logs), acks))
        report(
            f"clock_stall_{stalled}",
            stall_s=STALL_S,
            duels=DUELS,
            decisions=len(excess),
            in_flight_across_the_stall=in_flight,
            charged_over_taken_max_s=round(max(excess), 3),
            charged_over_slack=len(over),
            errors=dict(sum((s.errors for s in seats), Counter())),
            **result.figures(),
        )
        assert not over, over[:10]
        assert in_flight >= 1, "no decision was in flight across the stall"
        result.assert_clean()
    finally:
        server.stop()
        embedded.stop()
