"""Waiting matches nobody will join expire.

A match created (``create_match``, or a ``quick_match`` that waits) and never joined
expires, and leaves the lobby list, when

* its creator's connection let go of seat 0 ``waiting_grace`` seconds ago and no connection
  took the seat back since (the creator may come back with its token within that time), or
  the process holding seat 0 stopped (its heartbeat did: server.match.fanout) and the match is
  older than ``waiting_grace``; or
* it was created ``waiting_ttl`` seconds ago, creator connected or not (None: no limit).

Expiring deletes the match's keys in one script that a join cannot interleave with
(``MatchDirectory.expire``: a match whose seat 1 was taken is never deleted), then takes it
off the lobby's indexes. The script rings the match's bell with ``expired``: the process
holding the creator's connection (if still open) sends it ``error {match/expired, fatal}``
and closes it (1000). Afterwards the match is unknown (``match/not_found``); a retried
``create_match`` with the same ``request_id`` makes it again.

Every process sweeps the waiting index (``keys.LOBBY_WAITING``, by creation time) every
``waiting_sweep_every`` seconds: only matches older than the grace or the time to live can
expire, so a sweep reads only those, in pipelined batches, and takes matches that started
(or are gone) off the index as it goes. Several processes sweeping at once is harmless: the
script decides, once.
"""

from __future__ import annotations

import time

import structlog

from server.match.directory import WAITING, MatchDirectory
from server.match.matches import MatchService
from server.runtime.metrics import Metrics
from server.storage.redisconn import sweep_every

log = structlog.get_logger("duel.expiry")

BATCH = 200
"""Waiting matches read per pipelined round trip."""

MAX_PER_SWEEP = 5000
"""Waiting matches looked at per sweep, at most (the next sweep goes on)."""


def _now_ms() -> int:
    return int(time.time() * 1000)


class WaitingExpiry:
    """Sweeps the waiting matches and expires those nobody will join."""

    def __init__(
        self,
        directory: MatchDirectory,
        service: MatchService,
        metrics: Metrics,
        grace: float,
        ttl: float | None,
        every: float,
    ) -> None:
        self.directory = directory
        self.service = service
        self.metrics = metrics
        self.grace_ms = int(grace * 1000)
        self.ttl_ms = None if ttl is None else int(ttl * 1000)
        self.every = every

    async def run(self) -> None:
        await sweep_every(self.every, self.sweep, log, "expiry_sweep")

    async def sweep(self) -> list[str]:
        """One pass: the matches expired by it."""
        now = _now_ms()
        left_before = now - self.grace_ms
        created_before = 0 if self.ttl_ms is None else now - self.ttl_ms
        oldest_that_may_go = max(left_before, created_before)
        expired: list[str] = []
        looked = offset = 0
        while looked < MAX_PER_SWEEP:
            ids = await self.directory.waiting_before(oldest_that_may_go, offset, BATCH)
            looked += len(ids)
            kept = len(ids)
            for match_id, (status, joined, holder) in zip(ids, await self.directory.waiting_state(ids), strict=True):
                if status != WAITING or joined:
                    await self.directory.unlist_waiting(match_id, gone=status is None)
                    kept -= 1
                    continue
                dead = "" if not holder or await self._alive(holder) else holder
                why = await self.directory.expire(match_id, left_before, created_before, dead)
                if why:
                    kept -= 1
                    expired.append(match_id)
                    self.metrics.inc("duel_matches_expired_total", why=why)
                    log.info("waiting_match_expired", match_id=match_id, why=why)
            offset += kept
            if len(ids) < BATCH:
                break
        return expired

    async def _alive(self, holder: str) -> bool:
        """Is the process of the connection ``holder`` alive (this one, or one with a heartbeat)?"""
        if self.service.connected(holder):
            return True
        return await self.directory.process_alive(holder.split("/", 1)[0])
