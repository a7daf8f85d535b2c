"""Redis SIGKILL and restart from its append-only file, under concurrent bot duels (issue 15).

A real ``duel serve`` process on a real Redis (the embedded redis-server, AOF on). While bot
duels run, Redis is SIGKILLed, stays down ``DUEL_FAULT_REDIS_DOWN`` seconds, and is started
again on the same directory (it loads its AOF); ``DUEL_FAULT_ROUNDS`` times. The server is
never restarted.

``appendfsync always``: asserted: 0 acknowledged actions lost, 0 applied twice, clients are
told ``server/unavailable`` while Redis is down (a probe asks during every outage), every
duel finishes on the same server process, every log verifies.

``appendfsync everysec``: measured and reported, asserted only what is guaranteed (the logs
stay contiguous, nothing is applied twice, every log verifies). A SIGKILL of the Redis
*process* leaves what Redis wrote in the kernel's page cache, so even ``everysec`` loses
nothing here; its window (about one second of acknowledged writes, at most two) opens only
when the machine itself stops before the fsync (docs/reliability.md).
"""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
from collections import Counter
from pathlib import Path

import pytest

from protocol import errors as E
from protocol.messages import Error, ListMatches
from server.clients.client import DuelClient
from server.storage.embedded_redis import EmbeddedRedis
from tests.faults.fault_helpers import (
    NETWORK_ERRORS,
    Player,
    ServeProcess,
    audit,
    fknob,
    knob,
    report,
    start_duel,
)

ROUNDS = knob("DUEL_FAULT_ROUNDS", 2)
DUELS = knob("DUEL_FAULT_DUELS", 3)
DOWN = fknob("DUEL_FAULT_REDIS_DOWN", 1.0)  # seconds Redis stays down
UP = fknob("DUEL_FAULT_KILL_EVERY", 1.0)  # seconds of play between outages


async def probe_unavailable(url: str) -> str:
    """What a client is told while Redis is down: the code of the answer to list_matches."""
    c = await DuelClient.connect(url, "probe")
    try:
        await c.send(ListMatches())
        msg = await c.recv(timeout=15)
        return msg.code if isinstance(msg, Error) else msg.type
    finally:
        await c.close()


@pytest.mark.parametrize("fsync", ["always", "everysec"])
def test_redis_sigkill_and_aof_restart(tmp_path: Path, fsync: str) -> None:
    # a short path: unix socket paths are limited to ~107 bytes
    data = Path(os.environ.get("TMPDIR", "/tmp")) / f"fr-{os.getpid()}-{fsync}"
    embedded = EmbeddedRedis(data, fsync=fsync).start()
    redis_url = embedded.url
    # finished duels are sealed at once: a seal's script is in the AOF whole or not at all
    proc = ServeProcess(tmp_path / "srv", "--redis-url", redis_url, "--rate-limit", "2000", "--seal-after", "0").start()
    assert proc.proc is not None
    server_pid = proc.proc.pid
    url = proc.url
    lobby_errors: Counter[str] = Counter()
    players: list[Player] = []
    probes: list[str] = []
    started = finished = outages = 0
    running = True

    async def slot(k: int) -> None:
        nonlocal started, finished
        n = k
        while running:
            a, b = await start_duel(lambda: url, n, lobby_errors, seed=16)
            started += 1
            players.extend((a, b))
            await asyncio.gather(a.play(), b.play())
            assert a.finished and b.finished and a.state_hash == b.state_hash
            finished += 1
            for p in (a, b):
                await p.close()
            n += DUELS

    async def outage() -> None:
        nonlocal outages, running
        for _ in range(ROUNDS):
            await asyncio.sleep(UP)
            os.kill(int((data / "redis.pid").read_text()), signal.SIGKILL)
            outages += 1
            await asyncio.sleep(0.2)
            try:
                probes.append(await probe_unavailable(url))
            except NETWORK_ERRORS as exc:
                probes.append(type(exc).__name__)
            await asyncio.sleep(max(0.0, DOWN - 0.2))
            # the killed Redis left its socket file behind: start() finds it dead at once
            await asyncio.to_thread(embedded.start)
        running = False

    async def body() -> None:
        await asyncio.gather(outage(), *(slot(k) for k in range(DUELS)))

    try:
        asyncio.run(body())
        assert proc.proc.poll() is None and proc.proc.pid == server_pid, "the server was restarted"
    finally:
        proc.stop()
    try:
        acks = [ack for p in players for ack in p.acks]
        result = asyncio.run(audit(redis_url, sorted({p.match_id for p in players}), acks))
    finally:
        embedded.stop()
        shutil.rmtree(data, ignore_errors=True)
    errors: Counter[str] = Counter(lobby_errors)
    for p in players:
        errors.update(p.errors)
    report(
        f"redis_sigkill_{fsync}",
        outages=outages,
        seconds_down_each=DOWN,
        duels_started=started,
        duels_finished=finished,
        probe_answers_while_down=dict(Counter(probes)),
        client_errors=dict(errors),
        server_restarted=False,
        **result.figures(),
    )
    assert outages == ROUNDS
    assert not result.twice and not result.gaps and not result.diverged, result.figures()
    if fsync == "always":
        assert not result.lost, f"acknowledged actions lost: {result.lost[:5]}"
        assert probes == [E.SERVER_UNAVAILABLE] * ROUNDS, probes
        assert errors[E.SERVER_UNAVAILABLE] > 0
        assert started >= DUELS and finished == started
