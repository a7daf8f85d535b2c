"""Server SIGKILL under concurrent bot duels, restarted again and again (issue 15).

A real ``duel serve`` process on a fixed port, a real Redis. Bot duels run at once; the
server is SIGKILLed every ``DUEL_FAULT_KILL_EVERY`` seconds and started again
(``DUEL_FAULT_ROUNDS`` times). Clients reconnect with their tokens and resume; an action
whose answer was lost is sent again with the same client action id; new duels keep
starting (their lobby requests retried with the same request id) until the last kill.

Figures: acknowledged actions lost, applied twice, duels finished / started, logs that fail
``verify``. Asserted: 0 lost, 0 twice, every started duel finished, every log verifies.
"""

from __future__ import annotations

import asyncio
import signal
from collections import Counter
from pathlib import Path

from tests.faults.fault_helpers import (
    Player,
    ServeProcess,
    audit,
    fknob,
    free_port,
    knob,
    report,
    sealed_all,
    start_duel,
)

ROUNDS = knob("DUEL_FAULT_ROUNDS", 3)
DUELS = knob("DUEL_FAULT_DUELS", 4)  # duels at once
KILL_EVERY = fknob("DUEL_FAULT_KILL_EVERY", 1.0)  # seconds of play between kills


def test_server_sigkill_under_concurrent_duels_loses_nothing(redis_url: str, tmp_path: Path) -> None:
    port = free_port()
    # finished duels are sealed at once, so seals race with the kills too; the seals a killed
    # process left are overdue a second later, and each new process sweeps for them every second
    seal_args = ("--seal-after", "0", "--seal-sweep-every", "1", "--seal-overdue", "1")
    proc = ServeProcess(
        tmp_path / "srv", "--redis-url", redis_url, "--port", str(port), "--rate-limit", "2000", *seal_args
    )
    proc.start()
    url = f"ws://127.0.0.1:{port}"
    lobby_errors: Counter[str] = Counter()
    players: list[Player] = []
    started = finished = 0
    kills = 0
    killing = True
    left: list[str] = []  # matches left unsealed, and why

    async def slot(k: int) -> None:
        nonlocal started, finished
        n = k
        while killing:
            a, b = await start_duel(lambda: url, n, lobby_errors, seed=15)
            started += 1
            players.extend((a, b))
            await asyncio.gather(a.play(), b.play())
            assert a.finished and b.finished and a.state_hash == b.state_hash
            finished += 1
            for p in (a, b):
                await p.close()
            n += DUELS

    async def killer() -> None:
        nonlocal kills, killing
        for _ in range(ROUNDS):
            await asyncio.sleep(KILL_EVERY)
            await asyncio.to_thread(proc.stop, signal.SIGKILL)
            kills += 1
            await asyncio.sleep(0.1)
            await asyncio.to_thread(proc.start)
        killing = False

    async def body() -> None:
        await asyncio.gather(killer(), *(slot(k) for k in range(DUELS)))
        # the last process's sweeps do what the killed ones left: wait until nothing is pending
        left.extend(await sealed_all(redis_url, sorted({p.match_id for p in players}), timeout=30))

    try:
        asyncio.run(body())
    finally:
        proc.stop()

    acks = [ack for p in players for ack in p.acks]
    result = asyncio.run(audit(redis_url, sorted({p.match_id for p in players}), acks))
    errors: Counter[str] = Counter(lobby_errors)
    for p in players:
        errors.update(p.errors)
    report(
        "server_sigkill",
        kills=kills,
        duels_started=started,
        duels_finished=finished,
        reconnects=sum(p.reconnects for p in players),
        actions_resent_after_a_lost_answer=sum(p.resent for p in players),
        rejected=dict(sum((p.rejected for p in players), Counter())),
        client_errors=dict(errors),
        **result.figures(),
    )
    assert kills == ROUNDS
    assert started >= DUELS and finished == started
    assert sum(p.reconnects for p in players) > 0, "the kills cut no connection: the test tested nothing"
    assert result.sealed == result.matches, f"seals lost with a killed process: {left}"
    result.assert_clean()
