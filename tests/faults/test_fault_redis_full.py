"""Redis at its memory limit, again and again, under bot duels (issue 34, finding 5).

A ``duel serve`` process on its own Redis. While bot duels run (each player retrying what is
answered ``server/unavailable``), Redis is held at its memory limit (``maxmemory`` below what it
holds, ``noeviction``: it refuses every write, answers every read and PING) for
``DUEL_FAULT_FULL_S`` seconds, then given room again; ``DUEL_FAULT_FULL_ROUNDS`` times.

Asserted: no client is ever told ``server/internal``; in every round ``/healthz`` answers 503
saying what Redis said (``OOM command not allowed ...``) and 200 again once Redis has room; no
acknowledged action is lost or applied twice, every duel ends and every log verifies.
Before, every refused write reached the client as ``server/internal`` and ``/healthz`` stayed
200 throughout.
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from pathlib import Path

import redis.asyncio as aioredis

from protocol import errors as E
from server.storage.embedded_redis import EmbeddedRedis
from tests.faults.fault_helpers import Player, ServeProcess, audit, fknob, knob, report, start_duel

ROUNDS = knob("DUEL_FAULT_FULL_ROUNDS", 2)
DUELS = knob("DUEL_FAULT_FULL_DUELS", 2)
FULL_S = fknob("DUEL_FAULT_FULL_S", 1.5)
OOM = "redis: OOM command not allowed when used memory"


async def _health(port: int) -> tuple[int, str]:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    raw = await asyncio.wait_for(reader.read(), 10)
    writer.close()
    head, _, body = raw.decode().partition("\r\n\r\n")
    return int(head.split()[1]), body.strip()


def test_redis_at_its_memory_limit_is_unavailable_never_internal(tmp_path: Path) -> None:
    embedded = EmbeddedRedis(tmp_path / "r", fsync="everysec").start()
    server = ServeProcess(tmp_path / "s", "--redis-url", embedded.url).start()
    figures: dict[str, object] = {}

    async def body() -> tuple[list[Player], Counter[str]]:
        errors: Counter[str] = Counter()
        direct = aioredis.Redis.from_url(embedded.url)
        await direct.config_set("maxmemory-policy", "noeviction")
        players: list[Player] = []
        for n in range(DUELS):
            players.extend(await start_duel(lambda: server.url, n, errors, seed=34, think=0.01))
        games = asyncio.gather(*(p.play(timeout=300) for p in players))
        said_full = came_back = 0
        reasons: Counter[str] = Counter()
        try:
            for _ in range(ROUNDS):
                await asyncio.sleep(1.0)
                await direct.config_set("maxmemory", "1")  # below what it holds: every write refused
                deadline = time.monotonic() + FULL_S
                seen_full = False
                while time.monotonic() < deadline:
                    status, why = await _health(server.port)
                    reasons[why.split(" when ")[0] if status != 200 else "ok"] += 1
                    seen_full |= status == 503 and why.startswith(OOM)
                    await asyncio.sleep(0.1)
                said_full += seen_full
                await direct.config_set("maxmemory", "0")
                for _ in range(100):
                    if await _health(server.port) == (200, "ok"):
                        came_back += 1
                        break
                    await asyncio.sleep(0.1)
            await games
        finally:
            await direct.config_set("maxmemory", "0")
            await direct.aclose()
        for p in players:
            await p.close()
        figures.update(rounds=ROUNDS, healthz_said_oom=said_full, healthz_back_to_200=came_back)
        figures["healthz_answers"] = dict(reasons)
        return players, errors

    try:
        players, errors = asyncio.run(body())
        for p in players:
            errors += p.errors
        matches = sorted({p.match_id for p in players})
        result = asyncio.run(audit(embedded.url, matches, [a for p in players for a in p.acks]))
    finally:
        server.stop()
        embedded.stop()
    report(
        "redis_full",
        full_s=FULL_S,
        duels=len(matches),
        duels_finished=sum(p.finished for p in players) // 2,
        client_errors=dict(errors),
        update_before_accepted=sum(p.update_first for p in players),
        **figures,
        **result.figures(),
    )
    assert errors[E.SERVER_INTERNAL] == 0, dict(errors)
    assert errors[E.SERVER_UNAVAILABLE] > 0, "no request met Redis full"
    assert figures["healthz_said_oom"] == ROUNDS and figures["healthz_back_to_200"] == ROUNDS, figures
    assert all(p.finished for p in players)
    result.assert_clean()
