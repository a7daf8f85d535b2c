"""Matches of several duels as the server plays them: the record in Redis, each change once, the
next duel started once, the news to every process that watches the match.

The record (server.match.series) changes by compare-and-set on its version (``SERIES_CAS_LUA``),
each change a pure function of the record before, retried on a lost race: a duel's end that two
processes report, a deadline that two timers see, change it once. What follows a change is
idempotent, so that a process killed after any step leaves nothing another cannot finish:

* a duel's end (``MatchService.ended``, on every process that records it; and on any process
  that finds the match's current duel over when a seat or spectator takes its place): its result
  is added to the record; the match ends, or siding begins;
* the next duel: the record says it started (``started``), then its meta is created and its seats
  taken (``MatchDirectory.create``/``join`` under the request id ``series``: a retry finds them
  taken by it), then its genesis is appended (``MatchService.start``: once, at seq 1), by
  :meth:`MatchPlay.ensure_duel`, which every process runs when it finds a started duel without a
  log;
* the news: a ``match`` bell on the channel of the duel the match's watchers follow
  (``Series.watch_id``), rung by the same script that changes the record (and once more when the
  next duel's first entry is appended). Each process that holds watchers of that duel tells them
  (server.process.matchdesk): they get ``match_state``, and move on to the next duel.

A rated match (server.accounts.rated) is told of the match's end (``rated_ended``), never of a
duel's; a match of one duel is told as it always was. A player who leaves a casual match of
several duels loses it (a drop: :class:`Drops`, at the end of this module).
"""

from __future__ import annotations

import asyncio
import dataclasses
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import redis.asyncio as aioredis
import structlog

from server import rules
from server.match import series as S
from server.match.clocks import ClockSettings
from server.match.directory import LIVE, MatchDirectory, MatchInfo
from server.storage import keys, resp
from server.storage.entry import EXTRA_KEY, first_of
from server.storage.redisconn import REDIS_DOWN, sweep_every

if TYPE_CHECKING:
    from server.match.matches import MatchService
    from server.runtime.metrics import Metrics
    from server.storage.store import RedisEventStore

log = structlog.get_logger("duel.matchplay")

SERIES_CAS_LUA = """
-- KEYS[1] the record; ARGV[1] the version it must be at ('0': no record yet), ARGV[2] the new
-- record, ARGV[3] a bell channel to ring ('': none). 1 if written, 0 if the version moved on.
local v = redis.call('HGET', KEYS[1], 'v') or '0'
if v ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'v', tonumber(v) + 1, 'rec', ARGV[2])
if ARGV[3] ~= '' then redis.call('PUBLISH', ARGV[3], 'match') end
return 1
"""

SERIES_REQUEST_ID = "series"
"""The request id under which a match's later duels are created and their seats taken."""

CAS_TRIES = 20

Change = Callable[[S.Series], S.Series | None]


def _now_ms() -> int:
    return int(time.time() * 1000)


def _text(value: object) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def _ignore(match_id: str) -> None:
    """``rated_ended`` with nobody to tell."""


def extra_codes() -> frozenset[int]:
    """The passcodes that go to the Extra Deck (a deck's counts)."""
    return frozenset(c.code for c in rules.CARDS.values() if c.extra_deck)


def conceded_kind(cid: str) -> str:
    """Which concession a duel's last entry was, by its client action id (server.match.series)."""
    if cid.startswith(S.DUEL_CONCESSION_PREFIX):
        return S.CONCEDED_DUEL
    if cid.startswith("timeout:"):
        return S.CONCEDED_TIME
    if cid.startswith(DROP_PREFIX):
        return S.CONCEDED_DROP
    return S.CONCEDED_MATCH


class MatchPlay:
    def __init__(
        self,
        client: aioredis.Redis,
        directory: MatchDirectory,
        service: MatchService,
        store: RedisEventStore,
        metrics: Metrics,
        pipe: resp.Pipe | None = None,
    ) -> None:
        self._redis = client
        self._pipe = pipe
        self.directory = directory
        self.service = service
        self.store = store
        self.metrics = metrics
        self._cas = resp.script_registrar(client, pipe)(SERIES_CAS_LUA)
        self.rated_ended: Callable[[str], None] = _ignore
        self._timers: dict[str, asyncio.TimerHandle] = {}
        self._tasks: set[asyncio.Task[object]] = set()
        self.extra = extra_codes()

    # ------------------------------------------------------------------ the record

    async def record(self, match_id: str) -> S.Series | None:
        raw = await resp.command(self._redis, self._pipe, "HMGET", keys.series_key(match_id), "v", "rec")
        if not raw or raw[1] is None:
            return None
        return S.loads(raw[1], int(_text(raw[0])))

    async def change(
        self, match_id: str, change: Change, bell: Callable[[S.Series], str] | None = None
    ) -> tuple[S.Series, bool]:
        """Apply ``change`` to the record once (None from it: nothing to change), retrying on a lost
        race; the record as it then is, and whether this call changed it (several tasks may settle
        the same duel: only the one that changed it logs and counts). ``bell``: the channel of
        whose duel to ring with the change."""
        for _ in range(CAS_TRIES):
            before = await self.record(match_id)
            if before is None:
                raise LookupError(f"match {match_id} has no record")
            after = change(before)
            if after is None or after == before:
                return before, False
            channel = "" if bell is None else keys.bell_channel(bell(after))
            args = [before.version, S.dumps(after), channel]
            if await self._cas(keys=[keys.series_key(match_id)], args=args):
                self.metrics.inc("duel_match_changes_total")
                return dataclasses.replace(after, version=before.version + 1), True
        raise RuntimeError(f"the record of match {match_id} kept changing")

    async def begin(self, info: MatchInfo) -> S.Series | None:
        """The record of a match of several duels, made from its meta when its first duel starts
        (once: a record already there is kept). None for a match of one duel."""
        if info.best_of <= 1 or info.parent:
            return None
        found = await self.record(info.match_id)
        if found is not None:
            return found
        if info.decks[0] is None or info.decks[1] is None:
            return None
        settings = S.Settings(
            info.best_of,
            info.format,
            info.side_ms,
            info.clock_scope,
            info.clock,
            info.spectators,
            info.spectator_delay,
            info.names,
        )
        decks = (
            S.SeatDeck(tuple(info.decks[0]), tuple(info.sides[0])),
            S.SeatDeck(tuple(info.decks[1]), tuple(info.sides[1])),
        )
        rec = S.new_series(info.match_id, settings, decks)
        bell = keys.bell_channel(info.match_id)  # its watchers (the creator, waiting) are told
        await self._cas(keys=[keys.series_key(info.match_id)], args=["0", S.dumps(rec), bell])
        # watched for a player who leaves until it is over (Drops, below)
        await resp.command(self._redis, self._pipe, "ZADD", keys.SERIES_OPEN, "NX", _now_ms(), info.match_id)
        return await self.record(info.match_id)

    async def over(self, info: MatchInfo) -> bool:
        """Is the match of duel ``info`` over (a match of one duel: that duel)? A duel's full replay
        shows both decks: a match's duels open only when the match is over (siding is secret)."""
        if info.best_of <= 1:
            return info.status == "finished"
        rec = await self.record(info.match_id_of_series)
        return rec is not None and rec.phase == S.FINISHED

    def record_json(self, rec: S.Series) -> dict[str, Any]:
        """A finished match's record as ``GET /matches/<id>.json`` serves it (docs/replay-format.md)."""
        state = S.state_for(rec, None, self.extra)
        return {
            "match_id": rec.match_id,
            "best_of": state.best_of,
            "format": rec.settings.fmt,
            "players": list(rec.settings.names),
            "score": state.score,
            "result": state.result,
            "clock_scope": state.clock_scope,
            "duels": [{**d, "replay": f"/replays/{d['duel_id']}.duelreplay"} for d in state.duels],
            "replay": f"/matches/{rec.match_id}.duelreplay",  # every duel in one file (server.history.replay_file)
        }

    def state_for(self, rec: S.Series, seat: int | None) -> Any:
        return S.state_for(rec, seat, self.extra)

    # ------------------------------------------------------------------ a duel ends

    def ended(self, duel_id: str) -> None:
        """``MatchService.ended``: a duel's end was recorded here."""
        self._spawn(self._duel_ended(duel_id))

    async def _duel_ended(self, duel_id: str) -> None:
        try:
            info = await self.directory.get(duel_id)
            if info is None:
                return
            if info.best_of <= 1:
                self.rated_ended(duel_id)  # a match of one duel: as it always was
                return
            await self.settle_duel(info.match_id_of_series, info.duel)
        except REDIS_DOWN:
            log.warning("match_end_redis_unavailable", duel_id=duel_id)  # the next look settles it
        except Exception:
            log.exception("match_end_failed", duel_id=duel_id)

    async def settle_duel(self, match_id: str, number: int) -> S.Series | None:
        """If duel ``number`` of the match has ended and its result is not in the record, add it."""
        rec = await self.record(match_id)
        if rec is None or rec.phase != S.DUELING or rec.current != number or rec.has_result(number):
            return rec
        duel_id = rec.duel_id(number)
        result = await self._result(rec, number, duel_id)
        if result is None:
            return rec
        duel, left = result
        now = _now_ms()
        rec, changed = await self.change(
            match_id,
            lambda s: S.after_duel(s, duel, now, left) if s.current == number and not s.has_result(number) else None,
            bell=lambda s: s.watch_id,
        )
        if changed:
            log.info("match_duel_ended", match_id=match_id, duel=number, winner=duel.winner, phase=rec.phase)
        await self.after_change(rec, changed)
        return rec

    async def _result(
        self, rec: S.Series, number: int, duel_id: str
    ) -> tuple[S.DuelResult, tuple[int, int] | None] | None:
        """Duel ``number``'s result from its log (None: it has not ended), and the clocks it left."""
        lm = await self.service.load(duel_id)
        if lm.state is None or not lm.finished:
            return None
        last = await self.store.entry(duel_id, lm.seq)
        genesis = await self.store.entry(duel_id, 1)
        if last is None or genesis is None:
            return None
        winner = rules.winner(lm.state)
        reason = str(getattr(lm.state, "end_reason", "") or "")
        conceded = conceded_kind(last.client_action_id) if reason == "concede" else ""
        decks = genesis.action.get("decks", [[], []])
        extra = genesis.action.get(EXTRA_KEY) or [[], []]
        hashes = tuple(S.SeatDeck(tuple(decks[i]) + tuple(extra[i])).digest() for i in (0, 1))
        chooser = None if number == 1 else rec.chooser
        duel = S.DuelResult(
            number,
            duel_id,
            first_of(genesis.action),
            chooser,
            winner if isinstance(winner, int) else None,
            reason,
            conceded,
            (hashes[0], hashes[1]),
            last.ts_ms,
        )
        left = None if lm.clock is None else (lm.clock.remaining[0], lm.clock.remaining[1])
        return duel, left

    async def after_change(self, rec: S.Series, changed: bool) -> None:
        """What follows a change: the match's end told (logged and counted by the call that ended
        it: ``changed``); the deadline armed; the next duel started."""
        if rec.phase == S.FINISHED:
            result = {"score": rec.score, "winner": "draw" if rec.winner is None else rec.winner, "reason": rec.reason}
            await self.directory.set_match_result(rec.match_id, result)
            await resp.command(self._redis, self._pipe, "ZREM", keys.SERIES_OPEN, rec.match_id)
            await resp.command(self._redis, self._pipe, "HDEL", keys.SERIES_ABSENT, *absent_fields(rec))
            if changed:
                self.metrics.inc("duel_matches_finished_total", reason=rec.reason)
                log.info("match_over", match_id=rec.match_id, winner=rec.winner, reason=rec.reason, score=rec.score)
            self.rated_ended(rec.match_id)
        elif rec.phase == S.SIDING:
            self.arm(rec)
            if S.may_start(rec, _now_ms()):
                await self.advance(rec.match_id)
        elif rec.phase == S.DUELING and rec.current > 1:
            await self.ensure_duel(rec)

    # ------------------------------------------------------------------ between duels

    def arm(self, rec: S.Series) -> None:
        """Look again at the siding deadline (this process; every process that holds watchers)."""
        if rec.match_id in self._timers:
            return
        loop = asyncio.get_running_loop()
        delay = max(0.0, (rec.deadline_ms - _now_ms()) / 1000) + 0.05
        self._timers[rec.match_id] = loop.call_later(delay, lambda: self._spawn(self._deadline(rec.match_id)))

    async def _deadline(self, match_id: str) -> None:
        self._timers.pop(match_id, None)
        try:
            await self.advance(match_id)
        except REDIS_DOWN:
            log.warning("match_deadline_redis_unavailable", match_id=match_id)
            rec = await self.record(match_id)
            if rec is not None and rec.phase == S.SIDING:
                self.arm(rec)

    async def advance(self, match_id: str) -> S.Series | None:
        """Start the next duel if it is time (both done, or the deadline past); at the deadline, a
        seat with no connection while the other has one has dropped: the match ends."""
        rec = await self.record(match_id)
        if rec is None or rec.phase != S.SIDING:
            return rec
        now = _now_ms()
        if not S.may_start(rec, now):
            self.arm(rec)
            return rec
        gone = await self._gone_seat(rec) if now >= rec.deadline_ms else None
        if gone is not None:
            rec, changed = await self.change(match_id, lambda s: S.dropped(s, gone, now), bell=lambda s: s.watch_id)
        else:
            rec, changed = await self.change(match_id, lambda s: S.started(s) if S.may_start(s, now) else None)
        await self.after_change(rec, changed)
        return rec

    async def _gone_seat(self, rec: S.Series) -> int | None:
        """The seat with no live connection while the other has one (None: both here, or neither)."""
        holders, _names = await self.directory.holders(rec.watch_id)
        here = []
        for holder in holders:
            alive = bool(holder) and (
                self.service.connected(holder) or await self.directory.process_alive(holder.split("/", 1)[0])
            )
            here.append(alive)
        if here[0] != here[1]:
            return 0 if not here[0] else 1
        return None

    async def side(self, match_id: str, seat: int, deck: S.SeatDeck) -> S.Series | None:
        """``seat`` sides ``deck`` (checked by the caller); None: not between duels."""
        rec, changed = await self.change(match_id, lambda s: S.sided(s, seat, deck), bell=lambda s: s.watch_id)
        if rec.phase != S.SIDING or rec.decks[seat] != deck:
            return None
        log.info("match_sided", match_id=match_id, seat=seat, duel=rec.current)  # never which cards
        await self.after_change(rec, changed)
        return rec

    async def choose(self, match_id: str, seat: int, go_first: bool) -> S.Series | None:
        rec, changed = await self.change(match_id, lambda s: S.chosen(s, seat, go_first), bell=lambda s: s.watch_id)
        if rec.phase != S.SIDING or rec.first is None:
            return None
        log.info("match_first_chosen", match_id=match_id, seat=seat, go_first=go_first, duel=rec.current)
        await self.after_change(rec, changed)
        return rec

    async def concede(self, match_id: str, seat: int) -> S.Series | None:
        """``seat`` concedes the match between duels (None: not between duels)."""
        now = _now_ms()
        rec, changed = await self.change(match_id, lambda s: S.conceded_match(s, seat, now), bell=lambda s: s.watch_id)
        if rec.phase != S.FINISHED:
            return None
        await self.after_change(rec, changed)
        return rec

    # ------------------------------------------------------------------ the next duel

    async def ensure_duel(self, rec: S.Series) -> None:
        """Duel ``rec.current`` exists and has started (each step once, whoever runs it)."""
        if rec.phase != S.DUELING or rec.current == 1:
            return
        duel_id = rec.duel_id()
        if await self.store.last_seq(duel_id) > 0:
            return
        st = rec.settings
        match = {"id": rec.match_id, "duel": rec.current, "best_of": st.best_of}
        decks = (list(rec.decks[0].deck), list(rec.decks[1].deck))
        series = {"best_of": st.best_of, "parent": rec.match_id, "duel": rec.current, "clock_scope": st.clock_scope}
        await self.directory.create(
            duel_id,
            SERIES_REQUEST_ID,
            decks[0],
            spectators=st.spectators,
            quick=False,
            name=st.names[0],
            clock=st.clock,
            spectator_delay=st.spectator_delay,
            fmt=st.fmt,
            series=series,
        )
        await self.directory.join(duel_id, SERIES_REQUEST_ID, decks[1], st.names[1])
        await self.directory.unlist_waiting(duel_id, gone=False)
        clock = st.clock
        if clock is not None and rec.clocks_left is not None:
            clock = ClockSettings(clock.base_ms, clock.increment_ms, rec.clocks_left)
        if await self.service.start(
            duel_id, decks, clock, st.spectator_delay, st.names, st.fmt, first=rec.first, match=match
        ):
            log.info("match_duel_started", match_id=rec.match_id, duel=rec.current, first=rec.first)
        # the watchers still follow the last duel: tell them (and anyone on the new one) to move on
        for number in (rec.current - 1, rec.current):
            await resp.command(self._redis, self._pipe, "PUBLISH", keys.bell_channel(rec.duel_id(number)), "match")

    async def current(self, match_id: str) -> S.Series | None:
        """The record, with whatever a stopped process left undone finished: a duel that ended
        and is not in the record, a next duel not started, a deadline past."""
        rec = await self.record(match_id)
        if rec is None:
            return None
        if rec.phase == S.DUELING:
            if rec.current > 1 and await self.store.last_seq(rec.duel_id()) == 0:
                await self.ensure_duel(rec)
            elif await self.directory.status(rec.duel_id()) == "finished":
                rec = await self.settle_duel(match_id, rec.current) or rec
        elif rec.phase == S.SIDING:
            rec = await self.advance(match_id) or rec
        return rec

    # ------------------------------------------------------------------ tasks

    def _spawn(self, coro: Any) -> None:
        task: asyncio.Task[object] = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def stop(self) -> None:
        for timer in self._timers.values():
            timer.cancel()
        self._timers.clear()
        for task in list(self._tasks):
            task.cancel()


# ---------------------------------------------------------------------- players who leave: a drop
#
# Players who leave a match of several duels lose it, as tournaments have it (a drop).
#
# A seat of a live match of several duels (server.match.series) with no live connection (its player
# closed the page or the terminal, or its server process died: server.match.fanout's heartbeats)
# for ``grace`` seconds, while the other seat is connected, concedes the duel being played: the
# server appends ``{"do": "concede"}`` for it under ``abandoned:<seat>`` (``MatchService.forfeit``,
# the path of a clock's timeout), and the match's record reads that concession as a drop
# (``series.CONCEDED_DROP``): the match ends at once, won by the seat that stayed, ``reason:
# "drop"``, and both seats' watchers are told (``match_state``). Between two duels the siding
# deadline does the same (``MatchPlay.advance``).
#
# Which matches are watched: every match of several duels has its id in ``keys.SERIES_OPEN`` from
# its first duel's start (``MatchPlay.begin``) until it is over; every process sweeps that set every
# ``every`` seconds. Rated matches are left to the ladder's own watch (server.accounts.rated, with
# the accounts' grace), and a match against the server's bot to the bot (it leaves a player who
# left: server.lobby.bot_seats, so leaving costs that player nothing). When each seat was first seen
# gone is kept in Redis (``keys.SERIES_ABSENT``), so every process counts the same grace; a seat
# seen back forgets it (coming back within the grace with its token: ``reconnect``).

drop_log = structlog.get_logger("duel.drops")

SWEEP_BATCH = 500
"""Open matches of several duels looked at per sweep, at most (oldest first; the next sweep goes on)."""

DROP_PREFIX = "abandoned:"
"""The client action id prefix of the concession the server appends for a seat that left
(``conceded_kind`` reads it back as a drop)."""


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
        drop_log.info("match_seat_dropped", match_id=match_id, duel=rec.current, seat=seat)
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
                drop_log.exception("drop_look_failed", match_id=match_id)
        return out

    async def run(self) -> None:
        await sweep_every(self.every, self.sweep, drop_log, "drops_sweep")
