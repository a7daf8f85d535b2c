"""Sealing finished matches' logs (issue 14: Redis memory per finished duel).

A log stream costs Redis ~210 bytes per entry; the same entries compressed together cost ~50.
Once a match has ended its log never grows, so the process that recorded the end seals it
``delay`` seconds later (``RedisEventStore.seal``: every entry but the last moves, byte for
byte, into one compressed segment; every reader finds them there). One task does it for the
whole process, one match at a time, oldest end first: the ends arrive in time order and all
wait the same delay, so a queue is in time order too.

No seal is lost with a process: each end is registered in Redis (``keys.SEALS_PENDING``, by
when its seal is due) before it is recorded, by every process that sees it, and taken off once
sealed. Every process sweeps that set now and then
and seals what is overdue there: the ends of a process that stopped first, and the seals given
up while Redis could not be reached. Normally the set holds only the seals of the last seconds
and a sweep reads nothing. ``duel matches --seal`` seals finished matches that were never
registered (those of a version without sealing, or of ``--seal-after never``).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import deque
from collections.abc import Iterable

import redis.asyncio as aioredis
import structlog

from server.match.directory import FINISHED
from server.runtime.metrics import Metrics
from server.storage import keys
from server.storage.redisconn import REDIS_DOWN, store_failure
from server.storage.store import RedisEventStore, SealResult

log = structlog.get_logger("duel.sealing")

ATTEMPTS = 3
"""A seal that finds Redis unreachable is tried again later, this many times in all (then the
sweep takes it up)."""

RETRY_AFTER_S = 5.0
"""How much later than a fresh end's delay a retry comes (so that the queue stays in time order)."""

SEAL_AFTER_S = 10.0
"""How long after its end a finished match's log is sealed, unless the server is told otherwise."""

SWEEP_EVERY_S = 60.0
"""How often each process looks for overdue seals."""

OVERDUE_S = 60.0
"""How long after it was due a registered seal counts as overdue: longer than the retries of the
process that registered it take."""

SWEEP_BATCH = 100
"""Overdue seals done per sweep, at most (the next sweep does the rest)."""


class Sealer:
    """Seals each match :meth:`add` ed, ``delay`` seconds later, and sweeps overdue seals."""

    def __init__(
        self,
        store: RedisEventStore,
        metrics: Metrics,
        delay: float,
        sweep_every: float = SWEEP_EVERY_S,
        overdue: float = OVERDUE_S,
    ) -> None:
        self.store = store
        self.metrics = metrics
        self.delay = delay
        self.sweep_every = sweep_every
        self.overdue = overdue
        self._due: deque[tuple[float, str, int]] = deque()  # (when, match id, attempts made), in time order
        self._told_not_compact = False
        self._wakeup: asyncio.Future[None] | None = None  # what ``run`` waits on while idle

    async def register(self, match_id: str) -> None:
        """``match_id`` has ended: note in Redis that its log is to be sealed, before the end is
        recorded (``MatchService``), so that a process stopping at any point after cannot leave
        it unsealed for good. Every process that sees the end does it; the first note stays."""
        due = int((time.time() + self.delay) * 1000)
        try:
            await self.store.redis.zadd(keys.SEALS_PENDING, {match_id: due}, nx=True)
        except REDIS_DOWN:  # this process still seals it if it records the end
            log.warning("seal_not_registered", match_id=match_id)

    def add(self, match_id: str) -> None:
        """``match_id`` has ended (this process recorded it first): seal it after the delay."""
        self._due.append((time.monotonic() + self.delay, match_id, 0))
        self._wake()

    def _wake(self) -> None:
        if self._wakeup is not None and not self._wakeup.done():
            self._wakeup.set_result(None)

    @property
    def waiting(self) -> int:
        return len(self._due)

    async def run(self) -> None:
        next_sweep = time.monotonic() + self.sweep_every
        while True:  # after each await, from the top: an add may have come meanwhile
            now = time.monotonic()
            if now >= next_sweep:
                await self.sweep()
                next_sweep = time.monotonic() + self.sweep_every
                continue
            if self._due and self._due[0][0] <= now:
                # taken off the queue once done: a stop that cancels this seal midway leaves it
                # for ``flush`` (sealing twice is harmless: the second finds it sealed)
                _, match_id, attempts = self._due[0]
                await self.seal(match_id, attempts)
                self._due.popleft()
                continue
            wake_at = min(next_sweep, self._due[0][0]) if self._due else next_sweep
            # a future, not an Event in wait_for: no task is made for each wait
            self._wakeup = asyncio.get_running_loop().create_future()
            await asyncio.wait([self._wakeup], timeout=max(0.0, wake_at - now))
            self._wakeup = None

    async def flush(self) -> None:
        """Try once more to seal every match still waiting, now (the server is stopping)."""
        while self._due:
            _, match_id, _attempts = self._due.popleft()
            await self.seal(match_id, ATTEMPTS - 1)

    async def sweep(self) -> int:
        """Seal the registered matches whose seal is overdue; how many were looked at."""
        cutoff = int((time.time() - self.overdue) * 1000)
        try:
            overdue = await self.store.redis.zrangebyscore(keys.SEALS_PENDING, "-inf", cutoff, start=0, num=SWEEP_BATCH)
        except REDIS_DOWN:
            return 0
        for raw in overdue:
            match_id = _text(raw)
            log.info("seal_overdue", match_id=match_id)
            self.metrics.inc("duel_logs_sealed_overdue_total")
            await self.seal(match_id, ATTEMPTS - 1)
        return len(overdue)

    async def seal(self, match_id: str, attempts: int = ATTEMPTS - 1) -> SealResult | None:
        """Seal one match now; a failure is logged and counted, never raised (the log stays
        a plain stream, as correct as before, and registered: a sweep seals it later).
        ``attempts``: how many were made before; while fewer than :data:`ATTEMPTS`, a seal
        that finds Redis unreachable is queued again here."""
        try:
            result = await self.store.seal(match_id)
        except Exception as exc:
            failure = store_failure(exc)  # Redis down, out of memory, failing over: try again later
            if failure is None:
                log.exception("seal_failed", match_id=match_id)
                self.metrics.inc("duel_logs_seal_failed_total")
                return None
            log.warning("seal_redis_unavailable", match_id=match_id, attempt=attempts + 1, why=failure.health)
            if attempts + 1 < ATTEMPTS:
                self._due.append((time.monotonic() + self.delay + RETRY_AFTER_S, match_id, attempts + 1))
                self._wake()
            else:
                self.metrics.inc("duel_logs_seal_failed_total")
            return None
        if result.status == "ok":
            self.metrics.inc("duel_logs_sealed_total")
            self.metrics.inc("duel_logs_sealed_bytes_total", result.sealed_bytes)
            if not result.compact and not self._told_not_compact:
                self._told_not_compact = True  # once per process: it is this Redis's setting
                log.warning(
                    "seal_not_compact",
                    match_id=match_id,
                    reason="this Redis refuses DUMP or RESTORE: each sealed log keeps a 4 KiB stream node",
                )
        if result.status != "moved":  # done (or nothing to seal): no sweep need look at it again
            with contextlib.suppress(*REDIS_DOWN):
                await self.store.redis.zrem(keys.SEALS_PENDING, match_id)
        return result


async def seal_finished(client: aioredis.Redis, match_ids: Iterable[str] | None = None) -> dict[str, SealResult]:
    """Seal every finished match of the history not sealed yet (or those of ``match_ids``);
    a match whose meta does not say finished is left alone. ``duel matches --seal`` runs it."""
    store = RedisEventStore(client)
    if match_ids is None:
        match_ids = [_text(m) for m in await client.zrange(keys.LOBBY_FINISHED, 0, -1)]
    out: dict[str, SealResult] = {}
    for match_id in match_ids:
        status = await client.hget(keys.meta_key(match_id), "status")
        if status is None or _text(status) != FINISHED:
            continue
        if await client.exists(keys.sealed_key(match_id)):
            continue
        out[match_id] = await store.seal(match_id)
        if out[match_id].status != "moved":
            await client.zrem(keys.SEALS_PENDING, match_id)
    return out


def _text(v: object) -> str:
    return v.decode() if isinstance(v, bytes) else str(v)
