"""A process killed between its duels' ends and their seals, at the server's default timing.

The other fault tests run the sealer at once or with a sweep every second. This one runs two
``duel serve`` processes with no seal option at all: a match is sealed 10 s after its end by
the process that recorded the end, and every process sweeps once a minute for seals overdue by
a minute (``server.match.sealing``). Duels are played to the end on process A, which is SIGKILLed at
once, before any of its seals is due. Asserted: process B leaves them alone while A could
still have sealed them (the end + 10 s + 60 s; checked 15 s before that), then seals every one
of them within three of its sweeps, and every log still verifies. Takes about two minutes:
``make faults`` runs it, ``make test`` leaves it out (marker ``faults_only``).
"""

from __future__ import annotations

import asyncio
import signal
import time
from collections import Counter
from pathlib import Path

import pytest
import redis.asyncio as aioredis

from server.process.config import ServerConfig
from server.storage import keys
from tests.faults.fault_helpers import Player, ServeProcess, audit, report, sealed_all, start_duel

pytestmark = pytest.mark.faults_only

DUELS = 3
DEFAULTS = ServerConfig()  # what ``duel serve`` runs with when no seal option is given
assert DEFAULTS.seal_after is not None
SEAL_AFTER_S, SWEEP_EVERY_S, OVERDUE_S = DEFAULTS.seal_after, DEFAULTS.seal_sweep_every, DEFAULTS.seal_overdue


async def pending(redis_url: str, match_ids: list[str]) -> list[str]:
    """The matches of ``match_ids`` registered as waiting for their seal."""
    client = aioredis.Redis.from_url(redis_url)
    try:
        return [m for m in match_ids if await client.zscore(keys.SEALS_PENDING, m) is not None]
    finally:
        await client.aclose()


def test_the_seals_of_a_killed_process_are_swept_by_another_at_the_default_timing(
    redis_url: str, tmp_path: Path
) -> None:
    a = ServeProcess(tmp_path / "a", "--redis-url", redis_url, "--rate-limit", "2000").start()
    b = ServeProcess(tmp_path / "b", "--redis-url", redis_url, "--rate-limit", "2000").start()
    errors: Counter[str] = Counter()
    players: list[Player] = []

    async def play(n: int) -> None:
        x, y = await start_duel(lambda: a.url, n, errors, seed=41)
        players.extend((x, y))
        await asyncio.gather(x.play(), y.play())
        assert x.finished and y.finished and x.state_hash == y.state_hash
        for p in (x, y):
            await p.close()

    try:

        async def duels() -> None:
            await asyncio.wait_for(asyncio.gather(*(play(n) for n in range(DUELS))), 120)

        asyncio.run(duels())
        ended = time.monotonic()  # the last duel's end, give or take its record
        a.stop(signal.SIGKILL)
        ids = sorted({p.match_id for p in players})
        assert len(ids) == DUELS
        waiting = asyncio.run(pending(redis_url, ids))
        assert waiting == ids, "each end is registered for its seal before it is recorded"

        # not overdue until the end + its delay + OVERDUE_S: B must not take them before
        early = SEAL_AFTER_S + OVERDUE_S - 15
        time.sleep(max(0.0, ended + early - time.monotonic()))
        still = asyncio.run(pending(redis_url, ids))
        assert still == ids, f"sealed by another process before they were overdue: {set(ids) - set(still)}"

        # overdue from the end + 70 s; B sweeps every 60 s: sealed by its sweeps, three at most
        deadline = SEAL_AFTER_S + OVERDUE_S + 3 * SWEEP_EVERY_S
        left = asyncio.run(sealed_all(redis_url, ids, timeout=ended + deadline - time.monotonic()))
        took = time.monotonic() - ended
    finally:
        b.stop()
        if a.proc is not None and a.proc.poll() is None:
            a.stop()

    result = asyncio.run(audit(redis_url, ids, [ack for p in players for ack in p.acks]))
    report("seal_defaults", duels=DUELS, sealed_after_s=round(took, 1), client_errors=dict(errors), **result.figures())
    assert not left, f"left unsealed: {left}"
    assert result.sealed == DUELS
    assert "seal_overdue" in (tmp_path / "b" / "server.log").read_text(), "B's sweep sealed them"
    result.assert_clean()
