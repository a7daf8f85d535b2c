"""Rated matches from their start to their rating: registered, watched for a player who left,
rated once when they end, never lost.

**Registered before they start.** A rated match is put in the ladder's open set
(``keys.RATED_OPEN``) before its seat 1 is taken (server.accounts.desk), so before its first
entry can exist: whatever stops later, the match is there until its update is applied.

**Rated when they end.** The process that records a match's end (``MatchService._record_end``,
every process that sees it) calls :meth:`RatedMatches.ended`, which rates it ``delay`` seconds
later (0: at once). And every process sweeps the open set every ``every`` seconds (the first sweep
when it starts): a match whose log has ended is rated then, whether its end was recorded or not
(a process killed between the last entry and the update, or before it recorded the end). The
update itself is applied once whoever calls it, however often (server.accounts.ladder).

**A player who left loses.** A seat of a live rated match with no live connection (its player
closed the page, or its server process died: server.match.fanout's heartbeats) for ``grace``
seconds, while the other seat is connected, concedes: the server appends ``{"do": "concede"}`` for
it (``MatchService.forfeit``, the path of a clock's timeout), and the match ends as any other.
When it was first seen gone is kept in Redis (``keys.RATED_ABSENT``), so every process counts the
same grace; coming back within it (``reconnect``) forgets it.
"""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING, Any, Literal

import structlog

from server.accounts.ladder import Ladder, RatedResult
from server.match import series
from server.match.directory import LIVE, MatchDirectory, MatchInfo
from server.match.matchplay import watch_seats
from server.rules import wire_facts
from server.runtime.metrics import Metrics
from server.storage import keys
from server.storage.redisconn import REDIS_DOWN, sweep_every

if TYPE_CHECKING:
    import redis.asyncio as aioredis

    from server.match.matches import MatchService
    from server.storage.store import RedisEventStore

log = structlog.get_logger("duel.rated")

SWEEP_BATCH = 200
"""Open rated matches looked at per sweep, at most."""

Settled = Literal["applied", "done", "live", "later", "gone", "unrated"]


def _now_ms() -> int:
    return int(time.time() * 1000)


def _winner(value: object) -> int | None:
    return value if isinstance(value, int) and value in (0, 1) else None


class RatedMatches:
    def __init__(
        self,
        client: aioredis.Redis,
        ladder: Ladder,
        directory: MatchDirectory,
        store: RedisEventStore,
        service: MatchService,
        metrics: Metrics,
        *,
        delay: float = 0.0,
        every: float = 5.0,
        grace: float | None = 60.0,
    ) -> None:
        self._redis = client
        self.ladder = ladder
        self.directory = directory
        self.store = store
        self.service = service
        self.metrics = metrics
        self.delay_ms = int(delay * 1000)
        self.every = every
        self.grace_ms = None if grace is None else int(grace * 1000)
        self._tasks: set[asyncio.Task[object]] = set()

    # ------------------------------------------------------------ the end of a match

    def ended(self, match_id: str) -> None:
        """``MatchService.ended``: a match's end was recorded here; rate it if it is rated (after
        the delay)."""
        task: asyncio.Task[object] = asyncio.get_running_loop().create_task(self._rate_later(match_id))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _rate_later(self, match_id: str) -> None:
        try:
            if self.delay_ms:
                await asyncio.sleep(self.delay_ms / 1000)
            await self.settle(match_id, sweeping=False)
        except REDIS_DOWN:
            log.warning("rating_redis_unavailable", match_id=match_id)  # the sweep rates it later
        except Exception:
            log.exception("rating_failed", match_id=match_id)

    async def _record(self, info: MatchInfo) -> series.Series | None:
        """A match of several duels' record (server.match.series)."""
        raw: list[Any] = await self._redis.hmget(keys.series_key(info.match_id), ["v", "rec"])
        return None if raw[1] is None else series.loads(raw[1], int(raw[0]))

    async def result(self, info: MatchInfo) -> tuple[bool, int | None, int]:
        """(has the match ended, the winning seat or None, when it ended in ms), from its recorded
        end or else from its log's last entry (an end nobody recorded). A match of several duels
        ends with its record's last change (server.match.series), not with a duel."""
        if info.best_of > 1:
            rec = await self._record(info)
            if rec is None or rec.phase != series.FINISHED:
                return False, None, 0
            return True, rec.winner, rec.finished_ms
        if info.result is not None:
            return True, _winner(info.result["winner"]), int(info.result["finished_ms"])
        seq = await self.store.last_seq(info.match_id)
        entry = None if seq == 0 else await self.store.entry(info.match_id, seq)
        if entry is None:
            return False, None, 0
        for fact in wire_facts(entry.facts):
            if fact.get("t") == "duel_ended":
                return True, _winner(fact.get("winner")), entry.ts_ms
        return False, None, 0

    async def settle(self, match_id: str, *, sweeping: bool = True) -> Settled:
        """Rate ``match_id`` if it is a rated match that has ended (and its delay has passed)."""
        info = await self.directory.get(match_id)
        if info is None:
            if sweeping:
                await self.ladder.close(match_id)
            return "gone"
        if not info.rated or not all(info.accounts):
            if sweeping:
                await self.ladder.close(match_id)
            return "unrated"
        over, winner, ended_ms = await self.result(info)
        if not over:
            live = await self._live_duel(info) if sweeping else None
            if live is not None:
                await self._watch_seats(live)
            return "live"
        now = _now_ms()
        if now < ended_ms + self.delay_ms:
            return "later"
        outcome = await self.ladder.apply(RatedResult(match_id, info.format, info.accounts, winner), now)
        self.metrics.inc("duel_rated_reports_total", outcome=outcome)
        if outcome == "applied":
            self.metrics.inc("duel_rating_updates_total")
            log.info("match_rated", match_id=match_id, format=info.format, winner=winner)
        await self._redis.hdel(keys.RATED_ABSENT, f"{match_id}:0", f"{match_id}:1")
        return outcome

    # ------------------------------------------------------------ players who left

    async def _live_duel(self, info: MatchInfo) -> MatchInfo | None:
        """The duel of the match being played now (a match of several: its current one), if any."""
        if info.best_of <= 1:
            return info if info.status == LIVE else None
        rec = await self._record(info)
        if rec is None or rec.phase != series.DUELING:
            return None
        duel = await self.directory.get(rec.duel_id())
        return duel if duel is not None and duel.status == LIVE else None

    async def _present(self, holder: str) -> bool:
        if not holder:
            return False
        if self.service.connected(holder):
            return True
        return await self.directory.process_alive(holder.split("/", 1)[0])

    async def _watch_seats(self, info: MatchInfo) -> None:
        """Note when each seat of a live rated match was first seen gone; a seat gone past the
        grace while the other is here concedes."""
        if self.grace_ms is None:
            return
        seat = await watch_seats(
            self._redis, keys.RATED_ABSENT, info, self.grace_ms, self._present, self.service.forfeit
        )
        if seat is not None:
            self.metrics.inc("duel_rated_forfeits_total")

    # ------------------------------------------------------------ the sweep

    async def sweep(self) -> dict[str, Settled]:
        """Every open rated match: rated if it has ended, its seats watched if it is live."""
        out: dict[str, Settled] = {}
        for match_id in await self.ladder.open_matches(SWEEP_BATCH):
            try:
                out[match_id] = await self.settle(match_id)
            except REDIS_DOWN:
                raise
            except Exception:
                log.exception("rated_sweep_failed", match_id=match_id)
        return out

    async def run(self) -> None:
        """Sweep now (what a process killed before left), then every ``every`` seconds."""
        await sweep_every(self.every, self.sweep, log, "rated_sweep", first_now=True)

    def stop(self) -> None:
        for task in list(self._tasks):
            task.cancel()
