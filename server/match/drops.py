"""Players who leave a match of several duels lose it, as tournaments have it (a drop).

A seat of a live match of several duels (server.match.series) with no live connection (its player
closed the page or the terminal, or its server process died: server.match.fanout's heartbeats)
for ``grace`` seconds, while the other seat is connected, concedes the duel being played: the
server appends ``{"do": "concede"}`` for it under ``abandoned:<seat>`` (``MatchService.forfeit``,
the path of a clock's timeout), and the match's record reads that concession as a drop
(``series.CONCEDED_DROP``): the match ends at once, won by the seat that stayed, ``reason:
"drop"``, and both seats' watchers are told (``match_state``). Between two duels the siding
deadline does the same (``MatchPlay.advance``).

Which matches are watched: every match of several duels has its id in ``keys.SERIES_OPEN`` from
its first duel's start (``MatchPlay.begin``) until it is over; every process sweeps that set every
``every`` seconds. Rated matches are left to the ladder's own watch (server.accounts.rated, with
the accounts' grace), and a match against the server's bot to the bot (it leaves a player who
left: server.lobby.bot_seats, so leaving costs that player nothing). When each seat was first seen
gone is kept in Redis (``keys.SERIES_ABSENT``), so every process counts the same grace; a seat
seen back forgets it (coming back within the grace with its token: ``reconnect``).
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import structlog

from server.match import series as S
from server.match.directory import LIVE, MatchInfo
from server.storage import keys
from server.storage.redisconn import REDIS_DOWN, raise_if_cancelled

if TYPE_CHECKING:
    import redis.asyncio as aioredis

    from server.match.matchplay import MatchPlay
    from server.runtime.metrics import Metrics

log = structlog.get_logger("duel.drops")

SWEEP_BATCH = 500
"""Open matches of several duels looked at per sweep, at most (oldest first; the next sweep goes on)."""

DROP_PREFIX = "abandoned:"
"""The client action id prefix of the concession the server appends for a seat that left
(server.match.matchplay reads it back as a drop)."""

_jitter = random.Random()


def _now_ms() -> int:
    return int(time.time() * 1000)


def absent_fields(rec: S.Series) -> list[str]:
    """The fields of ``keys.SERIES_ABSENT`` a match's seats may have (one per duel and seat)."""
    return [f"{rec.duel_id(n)}:{seat}" for n in range(1, rec.current + 1) for seat in (0, 1)]


Present = Callable[[str], Awaitable[bool]]
Forfeit = Callable[[str, int, str], Awaitable[bool]]


async def watch_seats(
    client: aioredis.Redis,
    absent_key: str,
    info: MatchInfo,
    grace_ms: int,
    present: Present,
    forfeit: Forfeit,
) -> int | None:
    """Note in HASH ``absent_key`` when each seat of the live duel ``info`` was first seen without
    a connection; a seat gone ``grace_ms`` or longer while the other is here concedes for it
    (``forfeit(duel id, seat, action id)``). The seat that was made to concede by this call, if any."""
    here = [await present(h) for h in info.holders]
    now = _now_ms()
    for seat in (0, 1):
        field = f"{info.match_id}:{seat}"
        if here[seat]:
            await client.hdel(absent_key, field)
            continue
        await client.hsetnx(absent_key, field, now)
        since = int(await client.hget(absent_key, field) or now)
        if here[1 - seat] and now - since >= grace_ms:
            if await forfeit(info.match_id, seat, f"{DROP_PREFIX}{seat}"):
                return seat
            return None
    return None


class Drops:
    """The sweep of the open matches of several duels for players who left (one per process)."""

    def __init__(
        self, client: aioredis.Redis, play: MatchPlay, metrics: Metrics, *, grace: float | None, every: float
    ) -> None:
        self._redis = client
        self.play = play
        self.metrics = metrics
        self.grace_ms = None if grace is None else int(grace * 1000)
        self.every = every

    async def _present(self, holder: str) -> bool:
        if not holder:
            return False
        if self.play.service.connected(holder):
            return True
        return await self.play.directory.process_alive(holder.split("/", 1)[0])

    async def _close(self, match_id: str, rec: S.Series | None) -> None:
        """A match over (or gone) leaves the set, and its seats' absences are forgotten (as
        ``MatchPlay.after_change`` does when it ends)."""
        await self._redis.zrem(keys.SERIES_OPEN, match_id)
        if rec is not None:
            await self._redis.hdel(keys.SERIES_ABSENT, *absent_fields(rec))

    async def look(self, match_id: str) -> str:
        """One open match: ``over`` (it left the set), ``skipped`` (rated, against the bot),
        ``dropped`` (a seat that left conceded), or ``live``."""
        info = await self.play.directory.get(match_id)
        if info is None:
            await self._close(match_id, None)
            return "over"
        if info.rated or info.opponent == "bot":
            await self._redis.zrem(keys.SERIES_OPEN, match_id)
            return "skipped"
        # the record, with whatever a stopped process left undone finished (a duel ended and not
        # in the record, the next duel not started, the siding deadline past: a drop there too)
        rec = await self.play.current(match_id)
        if rec is None:
            return "live"  # its first duel has not started
        if rec.phase == S.FINISHED:
            await self._close(match_id, rec)
            return "over"
        if rec.phase != S.DUELING or self.grace_ms is None:
            return "live"
        duel = await self.play.directory.get(rec.duel_id())
        if duel is None or duel.status != LIVE:
            return "live"
        seat = await watch_seats(
            self._redis, keys.SERIES_ABSENT, duel, self.grace_ms, self._present, self.play.service.forfeit
        )
        if seat is None:
            return "live"
        self.metrics.inc("duel_match_drops_total")
        log.info("match_seat_dropped", match_id=match_id, duel=rec.current, seat=seat)
        return "dropped"

    async def sweep(self) -> dict[str, str]:
        out: dict[str, str] = {}
        raw: list[Any] = await self._redis.zrange(keys.SERIES_OPEN, 0, SWEEP_BATCH - 1)
        for item in raw:
            match_id = item.decode() if isinstance(item, bytes) else str(item)
            try:
                out[match_id] = await self.look(match_id)
            except REDIS_DOWN:
                raise
            except Exception:
                log.exception("drop_look_failed", match_id=match_id)
        return out

    async def run(self) -> None:
        while True:
            await asyncio.sleep(self.every * (0.75 + 0.5 * _jitter.random()))
            try:
                await self.sweep()
            except asyncio.CancelledError:
                raise
            except REDIS_DOWN:
                raise_if_cancelled()
                log.warning("drops_redis_unavailable")
            except Exception:
                raise_if_cancelled()
                log.exception("drops_sweep_failed")
            raise_if_cancelled()
