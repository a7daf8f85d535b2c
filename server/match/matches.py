"""The match service: one writer per match, state by folding the log, fan-out.

An action goes through small named steps (:meth:`MatchService.submit`):

1. ``_fresh``       -- the action was made against the current seq (catching up
                       from the log first if the client is ahead of us);
2. ``_decide``      -- the engine turns the action into facts or refuses it;
3. ``_append``      -- the entry is appended at the next seq, atomically; a lost
                       race reloads from the log and answers ``action/stale``;
                       the append script answers a client action id that was
                       appended before with its original seq, appending nothing;
4. ``_duplicate``   -- before any refusal: if the seat's client action id was
                       appended before (a retry after a timeout is stale by
                       then), the answer is that original seq, not the refusal;
5. fan-out          -- every watcher of the match gets the entry redacted for
                       it, its view, and its legal actions if it owes a decision
                       (:mod:`server.match.views`).

So a retried action id always gets its original seq, and an accepted action
costs one Redis round trip (the append), not two.

In one process an asyncio lock per match serializes steps 1-5; across
processes the conditional append does (see :mod:`server.storage.store`).  Entries
appended by other processes arrive through the Redis doorbell
(:mod:`server.match.fanout`) and go through the same ``_sync`` and fan-out.
Clock timeouts (:mod:`server.match.clocks`) go through ``_append`` too.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import structlog

from protocol import errors as E
from protocol.messages import Accepted, Act, Presence, Rejected
from server import rules
from server.match import snapshots, views
from server.match.clocks import ELSEWHERE_GRACE_MS, ClockSettings, forced_action, timeout_action_id
from server.match.directory import FINISHED, LIVE, MatchDirectory
from server.match.live import SPECTATOR_DELAY_KEY, Checkpoint, LiveMatch, Send, Watcher, now_ms, spectator_delay_of
from server.match.loopclock import LoopClock
from server.runtime.metrics import Metrics
from server.storage.entry import EXTRA_KEY, FIRST_KEY, FORMAT_KEY, MATCH_KEY, PLAYERS_KEY, LogEntry
from server.storage.redisconn import REDIS_DOWN, StoreFailure, store_failure
from server.storage.store import RedisEventStore, action_key, fingerprint
from server.storage.storehealth import StoreHealth

if TYPE_CHECKING:
    from server.match.sealing import Sealer

log = structlog.get_logger("duel.matches")

MAX_CATCH_UP = 200
"""A reconnecting client further behind than this gets a snapshot instead. The missed entries
go out at once, one frame each, so this stays well under a connection's outgoing queue
(``ServerConfig.out_queue``, 256 frames): at 2000, a seat that came back 300 entries behind
overflowed its queue, was dropped as too slow, came back from the same seq, and so on for
ever (found by the racing-writers fault test, 2026-11-23)."""

__all__ = ["LiveMatch", "MatchService", "Watcher"]


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why an action is refused: a protocol error code and a reason in words."""

    code: str
    reason: str


class MatchService:
    def __init__(
        self,
        store: RedisEventStore,
        directory: MatchDirectory,
        metrics: Metrics,
        alias_key: Callable[[str], bytes],
        process_id: str = "",
        out_queue: int = 256,
        *,
        sealer: Sealer | None = None,
    ) -> None:
        """``out_queue``: the frames a connection may have queued (server.process.config): a
        catch-up longer than half of it is sent as a snapshot instead. ``sealer``: seals finished
        matches' logs (server.match.sealing), if this process does."""
        self.catch_up_limit = min(MAX_CATCH_UP, out_queue // 2)
        self.store = store
        self.directory = directory
        self.metrics = metrics
        self.alias_key = alias_key
        self.process_id = process_id
        self.live_processes: set[str] = set()  # other server processes known to be alive
        self.store_health = StoreHealth()  # whether writes to Redis succeed (/healthz)
        self.loop_clock = LoopClock()  # what the chess clocks charge: the time this process could serve
        self.sealer = sealer
        # told when this process starts and stops holding a match (server.match.fanout: its bell)
        self.holding: Callable[[str, bool], None] = _ignore_holding
        # told of every match whose end this process records (server.accounts: rated matches)
        self.ended: Callable[[str], None] = _ignore_end
        self._live: dict[str, LiveMatch] = {}

    # ------------------------------------------------------------------ loading

    async def get(self, match_id: str) -> LiveMatch:
        """The cached match, folded from the log on first use."""
        lm = self._live.get(match_id)
        if lm is None:
            folded = await self.load(match_id)
            lm = self._live.setdefault(match_id, folded)
            self.metrics.set("duel_matches_live", len(self._live))
            if lm is folded:
                self.holding(match_id, True)
                if lm.finished:
                    # the process that appended its last entry may have stopped before it recorded
                    # the end (and noted its seal): if so, do it now
                    try:
                        if await self.directory.status(match_id) != FINISHED:
                            await self._record_end(lm)
                    except REDIS_DOWN:
                        log.warning("end_not_recorded", match_id=match_id)
        return lm

    def fresh(self, match_id: str) -> None:
        """Hold a match this process has just created (the lobby said the id was new): its log
        is empty, so there is nothing to read from Redis (no snapshot, no entry) to load it.
        Were an entry there after all, the first append would conflict and sync it."""
        if match_id not in self._live:
            self._live[match_id] = LiveMatch(match_id, self.alias_key(match_id))
            self.metrics.set("duel_matches_live", len(self._live))
            self.holding(match_id, True)

    async def load(self, match_id: str) -> LiveMatch:
        """Fold a match from its log (the cached copy if there is one)."""
        cached = self._live.get(match_id)
        if cached is not None:
            return cached
        return await self._folded(match_id)

    async def _folded(self, match_id: str) -> LiveMatch:
        """The match folded from its newest usable snapshot and the log after it."""
        lm = LiveMatch(match_id, self.alias_key(match_id))
        after = await self._from_snapshot(lm)
        for entry in await self.store.read(match_id, after=after):
            lm.advance(entry)
        lm.take_unsent()  # nobody watched them being appended (or released, below)
        if lm.delayed is not None:
            lm.delayed.take_released()
        # nobody here saw the last entry arrive: the owing seat's time runs from when it was
        # appended, as far as the wall clock tells (a seat that left is charged meanwhile)
        lm.due_at = self.loop_clock.now() - max(0, now_ms() - lm.last_ts_ms) / 1000
        if lm.state is not None and rules.state_hash(lm.state) != lm.state_hash:
            log.error("state_hash_mismatch_on_load", match_id=match_id, seq=lm.seq)
        return lm

    async def _from_snapshot(self, lm: LiveMatch) -> int:
        """Start ``lm`` from the match's newest snapshot if it can be trusted; the seq it
        starts after (0: fold from the start)."""
        found = await self.store.newest_snapshot(lm.match_id)
        if found is None:
            return 0
        seq, blob = found
        try:
            snap = snapshots.loads(blob, lm.alias_key)
            logged = await self.store.entry(lm.match_id, seq)
            genesis = await self.store.entry(lm.match_id, 1)
            if logged is None or genesis is None or snap.seq != seq:
                raise snapshots.SnapshotError("its entry is not in the log")
            if spectator_delay_of(genesis.action):
                return 0  # a delayed match keeps a second, trailing position: fold it all
            if logged.state_hash != snap.state_hash or rules.state_hash(snap.state) != logged.state_hash:
                raise snapshots.SnapshotError("its state does not hash to what the log recorded")
        except snapshots.SnapshotError as exc:
            log.warning("snapshot_ignored", match_id=lm.match_id, seq=seq, reason=str(exc))
            self.metrics.inc("duel_snapshots_ignored_total")
            return 0
        lm.restore(snap.state, snap.seq, snap.state_hash, snap.last_ts_ms, snap.clock, snap.book)
        self.metrics.inc("duel_snapshots_loaded_total")
        return snap.seq

    def _snapshot(self, lm: LiveMatch) -> tuple[int, bytes] | None:
        """The position to keep beside the log (every snapshots.EVERY entries), as (seq, blob).
        None for the entry that ends the match: the end keeps only the newest snapshot written
        before it (``directory``'s end script), and one written after would be a second."""
        if lm.state is None or lm.delayed is not None or lm.finished:
            return None
        snap = snapshots.Snapshot(lm.seq, lm.state_hash, lm.last_ts_ms, lm.state, lm.vp.book, lm.clock)
        return lm.seq, snapshots.dumps(snap)

    def cached(self, match_id: str) -> LiveMatch | None:
        return self._live.get(match_id)

    def live_with_watchers(self) -> list[str]:
        return [m for m, lm in self._live.items() if lm.watchers]

    async def _sync(self, lm: LiveMatch, *, announce: bool = True) -> list[LogEntry]:
        """Apply and fan out entries other processes appended (lock held). Without
        ``announce`` they are followed but not sent: the caller answers its request first,
        then fans them out (``_fan_out_followed``)."""
        entries = await self.store.read(lm.match_id, after=lm.seq)
        for entry in entries:
            if not lm.advance(entry, check=True):
                # the log forked from what this process followed: Redis lost entries, and the
                # process that found it (at its append) went on from the shorter log
                await self._rewind(lm, found="sync", entry_seq=entry.seq)
                return entries
        if entries and announce:
            await self._after(lm)
        return entries

    async def _fan_out_followed(self, lm: LiveMatch) -> None:
        """Fan out what the match followed without sending it (``_sync(announce=False)``)."""
        if lm.unsent:
            await self._after(lm)

    async def _rewind(self, lm: LiveMatch, found: str, **seen: int) -> None:
        """The log is shorter than the match held here: Redis lost entries it had acknowledged
        (``appendfsync everysec`` with a write postponed behind a slow fsync, then a crash; a
        failover to a replica that was behind). The log is the truth: the match is folded again
        from it (lock held), and every watcher is sent the position it now holds (a snapshot
        update), so that the duel goes on from there. Before, every action was refused as stale
        for ever: the match held a seq the log no longer reached (``make faults`` found a duel
        stalled so, SIGKILL of Redis under ``everysec``). Logged as ``log_regressed`` with how
        it was ``found`` (and what was ``seen`` then) and counted."""
        log.error("log_regressed", match_id=lm.match_id, seq=lm.seq, found=found, **seen)
        self.metrics.inc("duel_log_regressions_total")
        lm.take_position(await self._folded(lm.match_id))
        if lm.state is not None:
            for watcher in list(lm.watchers):
                at = lm.point_for(watcher.seat)
                if at.seq > 0:
                    watcher.send(views.snapshot_update(lm.match_id, at, watcher.seat, lm.presence))
                    watcher.flush()
        self._arm_clock(lm)

    async def verify(self, match_id: str) -> None:
        """Check that the log still holds the entry a cached match is at, then catch the match
        up (``sync``); if it does not (Redis lost entries it had acknowledged), fold the match
        again from the log (``_rewind``). For a process that only watches the match, which
        never appends to it and so never meets the conflict an append would: the fan-out calls
        this when a bell rings again for a seq it had heard (the log went back and an entry was
        appended there again) and when it subscribes again (Redis may have restarted from an
        older file). Before, such a process kept the position it held until the log passed it
        and an entry then failed to fold, and for ever if the log never passed it."""
        lm = self._live.get(match_id)
        if lm is None or lm.state is None:
            return
        async with lm.lock:
            if lm.state is None:  # a rewind meanwhile found not even the first entry in the log
                return
            logged = await self.store.entry(match_id, lm.seq)
            if logged is not None and logged.state_hash == lm.state_hash:
                if lm.watchers:
                    await self._sync(lm)
                return
            await self._rewind(lm, found="verify")

    async def sync(self, match_id: str, seq: int | None = None) -> None:
        """Catch a cached match up with its log (doorbell or poll); nothing to
        read if it is at ``seq`` already (the bell of our own append)."""
        lm = self._live.get(match_id)
        if lm is None:
            return
        if not lm.watchers and not lm.lock.locked():
            return  # nobody here watches it, and nobody is attaching (``attach`` holds the lock)
        # a watcher being attached: ``attach`` may have read the log before this entry was
        # appended; wait for it, then read what it did not (the bell is not rung again)
        async with lm.lock:
            if lm.watchers and (seq is None or lm.seq < seq):
                await self._sync(lm)

    async def _after(self, lm: LiveMatch) -> None:
        """After new entries (``lm.advance``): mark the end, fan out, re-arm the clock. The end is in the
        directory before anyone is sent the last entry, so that a client that learns the duel
        is over and asks for the finished matches finds it there."""
        try:
            if lm.finished:
                await self._record_end(lm)
        finally:  # the watchers get the entries even if the directory could not be written
            views.fan_out(lm)
            lm.due_at = self.loop_clock.now()  # the owing seat has its decision from now
            self._arm_clock(lm)

    async def _record_end(self, lm: LiveMatch) -> None:
        """Record a finished match's end in the directory (idempotent), its seal noted first."""
        if self.sealer is not None:
            await self.sealer.register(lm.match_id)  # noted first: no process stopping after can lose it
        state = lm.state
        assert state is not None  # a finished match has folded its genesis
        first = await self.directory.finish(
            lm.match_id,
            winner=rules.winner(state),
            reason=str(getattr(state, "end_reason", "") or ""),
            length=lm.seq,
            turns=int(getattr(state, "turn", 0)),
            by=self.process_id,
        )
        if first and self.sealer is not None:
            self.sealer.add(lm.match_id)  # its log is sealed a little later
        self.ended(lm.match_id)

    # ------------------------------------------------------------------ start

    async def start(
        self,
        match_id: str,
        decks: tuple[list[int], list[int]],
        clock: ClockSettings | None = None,
        spectator_delay: int = 0,
        players: tuple[str, str] | None = None,
        fmt: str = rules.DEFAULT_FORMAT,
        *,
        first: int | None = 0,
        match: dict[str, Any] | None = None,
    ) -> bool:
        """Append the genesis entry (seq 1) once both seats are taken.  The
        match's options (clock, spectator delay, its format) are part of it, so that every
        process (and a replay) reads them from the log, and so are the players'
        display names: the history an imported replay file adds takes them from
        the log (server.history.archive). A seat's deck is one list: its Extra Deck monsters
        go to its Extra Deck (recorded apart, ``extra``, when a seat has one). ``first``: the seat
        that goes first (None: a coin toss from the seed, the first duel of a match of several);
        ``match``: the match of several duels it is a duel of (recorded, ``MATCH_KEY``)."""
        seed = secrets.randbits(63)
        first = (seed >> 31) & 1 if first is None else first
        mains, extras = rules.split_decks(decks)
        extra = extras if extras[0] or extras[1] else None
        action: dict[str, Any] = {"do": "start", "seed": seed, "decks": [mains[0], mains[1]]}
        if extra is not None:
            action[EXTRA_KEY] = [extra[0], extra[1]]
        if fmt != rules.DEFAULT_FORMAT:
            action[FORMAT_KEY] = fmt
        if players is not None:
            action[PLAYERS_KEY] = list(players)
        if clock is not None:
            action["clock"] = clock.to_action()
        if spectator_delay > 0:
            action[SPECTATOR_DELAY_KEY] = spectator_delay
        if first:
            action[FIRST_KEY] = first
        if match is not None:
            action[MATCH_KEY] = match
        return await self.genesis(match_id, action, lambda: rules.genesis(seed, mains, extra, fmt, first))

    async def genesis(self, match_id: str, action: dict[str, Any], make_facts: Callable[[], list[rules.Fact]]) -> bool:
        """Append entry 1 (``action`` by the server, with the facts
        ``make_facts`` gives) unless the match has started; True if appended."""
        lm = await self.get(match_id)
        async with lm.lock:
            if lm.started:
                return False
            facts = make_facts()
            state = rules.fold(facts, None)
            entry = LogEntry(
                seq=1, seat=None, action=action, facts=facts, state_hash=rules.state_hash(state), ts_ms=now_ms()
            )
            result = await self.store.append(match_id, entry)
            self.metrics.inc("duel_appends_total", result=result.status)
            if result.status != "ok":
                await self._sync(lm)
                return False
            lm.advance(entry, state)
            await self.directory.set_status(match_id, LIVE)
            log.info("match_started", match_id=match_id, seq=1, do=action.get("do"))
            await self._after(lm)
            return True

    # ------------------------------------------------------------------ actions

    async def submit(self, match_id: str, seat: int, act: Act, reply: Send) -> None:
        """Handle one action of ``seat``; ``reply`` gets Accepted or Rejected,
        always before the fan-out of the entry it caused. The seat's time on its decision
        stops now, when the action is read (whatever the action then waits for)."""
        arrived = self.loop_clock.now()
        t0 = time.perf_counter()
        lm = await self.get(match_id)
        async with lm.lock:
            try:
                answer, entry = await self._submit_locked(lm, seat, act, arrived)
            except Exception as exc:
                if (failure := store_failure(exc)) is not None:
                    if seat == lm.owing_seat():  # the time its action waited for Redis is not the seat's
                        lm.due_at += max(0.0, self.loop_clock.now() - arrived)
                    self.store_failed(failure)
                raise
            reply(answer)
            if entry is not None:
                await self._after(lm)
                self._hold_snapshot(lm, entry)
            else:
                await self._fan_out_followed(lm)
        latency = time.perf_counter() - t0
        self.metrics.observe_action_latency(latency)
        outcome = "accepted" if isinstance(answer, Accepted) else answer.code
        self.metrics.inc("duel_actions_total", outcome=outcome)
        if isinstance(answer, Rejected):
            self.metrics.inc("duel_errors_total", code=answer.code)
        # per action: debug (at info, one line per action cost up to a third of the server's
        # saturation throughput, issue 36); a refusal stays at info
        (log.info if isinstance(answer, Rejected) else log.debug)(
            "action",
            match_id=match_id,
            seat=seat,
            seq=answer.seq,
            outcome=outcome,
            do=str(act.action.get("do", ""))[:32],
            latency_ms=round(latency * 1000, 2),
        )

    async def _submit_locked(
        self, lm: LiveMatch, seat: int, act: Act, arrived: float
    ) -> tuple[Accepted | Rejected, LogEntry | None]:
        answer, entry = await self._try(lm, seat, act, arrived)
        if isinstance(answer, Rejected):
            dup = await self._duplicate(lm, seat, act)
            if dup is not None:
                return dup, None
        return answer, entry

    async def _try(
        self, lm: LiveMatch, seat: int, act: Act, arrived: float
    ) -> tuple[Accepted | Rejected, LogEntry | None]:
        def reject(code: str, reason: str) -> tuple[Rejected, None]:
            return Rejected(act.client_action_id, code, reason, lm.seq), None

        if not lm.started:
            return reject(E.MATCH_NOT_STARTED, "the duel has not started yet")
        if not await self._fresh(lm, act) and not _timeless(lm, act):
            return reject(E.ACTION_STALE, f"the action was made at seq {act.expected_seq}; the match is at {lm.seq}")
        if lm.finished:
            return reject(E.MATCH_FINISHED, "the duel is over")
        try:
            action = lm.vp.to_engine(seat, act.action)  # the seat's card aliases -> engine ids
        except rules.IllegalAction as exc:
            return reject(exc.code, exc.reason)
        decided = self._decide(lm, seat, action)
        if isinstance(decided, Refusal):
            return reject(decided.code, decided.reason)
        facts, new_state = decided
        spent = self._spent_ms(lm, arrived)
        result = await self._append(
            lm, seat, action, facts, new_state, act.client_action_id, spent, fingerprint(act.action)
        )
        if result is None:
            return reject(E.ACTION_STALE, f"another action was appended first; the match is at {lm.seq}")
        entry, duplicate = result
        if duplicate:
            return _same_id(act, lm, entry.seq, entry.client_action_id), None
        return Accepted(act.client_action_id, entry.seq), entry

    async def _duplicate(self, lm: LiveMatch, seat: int, act: Act) -> Accepted | Rejected | None:
        outcome = await self.store.action_outcome(lm.match_id, action_key(seat, act.client_action_id))
        if outcome is None:
            return None
        return _same_id(act, lm, *outcome)

    async def _fresh(self, lm: LiveMatch, act: Act) -> bool:
        if act.expected_seq > lm.seq:
            await self._sync(lm)
        return act.expected_seq == lm.seq

    def _decide(
        self, lm: LiveMatch, seat: int, action: rules.WireAction
    ) -> tuple[list[rules.Fact], rules.State] | Refusal:
        """The facts of an action and the state after them (computed once, not folded
        again), or why it is refused."""
        assert lm.state is not None  # a live match has folded its genesis
        try:
            return rules.decide_state(lm.state, seat, action)
        except rules.IllegalAction as exc:
            code = exc.code if exc.code in E.ALL_CODES else E.ACTION_ILLEGAL
            owed = lm.owing_seat()
            if code == E.ACTION_ILLEGAL and owed is not None and owed != seat:
                code = E.ACTION_NOT_YOUR_PRIORITY
            return Refusal(code, exc.reason)
        except Exception:  # the engine choked on a strange action: refuse it, change nothing
            log.exception("decide_failed", match_id=lm.match_id, seq=lm.seq, seat=seat)
            return Refusal(E.ACTION_MALFORMED, "the action could not be read")

    async def _append(
        self,
        lm: LiveMatch,
        seat: int,
        action: rules.WireAction,
        facts: list[rules.Fact],
        new_state: rules.State,
        action_id: str,
        spent_ms: int,
        print_: str = "",
    ) -> tuple[LogEntry, bool] | None:
        """Append at the next seq (``new_state``: the state after ``facts``, as
        ``rules.decide_state`` gave it; ``spent_ms``: the owing seat's time on the decision,
        ``_spent_ms``).  (entry, False) when appended; (entry, True)
        when the action id was appended before (the entry then holds only the
        original seq and, as ``client_action_id``, the original action's
        fingerprint); None when another writer won."""
        ts = now_ms()
        entry = LogEntry(
            seq=lm.seq + 1,
            seat=seat,
            action=action,
            facts=facts,
            state_hash=rules.state_hash(new_state),
            time_ms=spent_ms,
            client_action_id=action_id,
            ts_ms=ts,
        )
        t0 = time.perf_counter()
        at_once = self.store.quiet  # else the append waits for this turn's write: nothing to overlap
        held = lm.held_snapshot  # kept by this append if it makes the log (``_hold_snapshot``)
        appending = self.store.begin_append(lm.match_id, entry, action_key(seat, action_id), print_, held)
        ahead = self._go_ahead(lm, entry, new_state) if at_once else None
        lm.appending = entry.seq
        try:
            result = await appending
        except BaseException:  # Redis failed, or the caller was cancelled: not in the log as far as we know
            if ahead is not None:
                lm.undo(ahead)
            raise
        finally:
            lm.appending = 0
        self.metrics.observe("duel_append_latency_seconds", time.perf_counter() - t0)
        self.metrics.inc("duel_appends_total", result=result.status)
        if result.status == "ok":
            self.store_wrote()
            if lm.held_snapshot is held:
                lm.held_snapshot = None
            if ahead is None:
                lm.advance(entry, new_state)
            return entry, False
        if ahead is not None:
            lm.undo(ahead)
        if result.status == "conflict" and result.seq < lm.seq:
            # the log is shorter than what we had applied: Redis lost entries it had acknowledged
            await self._rewind(lm, found="append", log_seq=result.seq)
        # another writer got there first (or this action's first attempt, whose reply was lost):
        # reload; the caller answers, then fans out, so that an ``accepted`` always goes out
        # before the update of its entry (read back here when the reply was lost)
        await self._sync(lm, announce=False)
        if result.status == "duplicate":
            return LogEntry(result.seq, seat, action, [], "", client_action_id=result.fingerprint), True
        log.info("append_conflict", match_id=lm.match_id, seq=lm.seq, seat=seat)
        return None

    def _go_ahead(self, lm: LiveMatch, entry: LogEntry, new_state: rules.State) -> Checkpoint | None:
        """While Redis appends ``entry`` (and fsyncs), move the match on and build the fan-out
        (``lm.built``), which ``_after`` sends once the append is acknowledged: the watchers
        get the entry the time it takes to build their views sooner. Undone if the append
        fails. Any error here leaves the match as it was: it then advances after the append."""
        ahead = None
        try:
            ahead = lm.go_ahead(entry, new_state)
            if ahead is not None:
                lm.built = views.build(lm)
        except Exception:
            log.exception("go_ahead_failed", match_id=lm.match_id, seq=entry.seq)
            if ahead is not None:
                lm.undo(ahead)
            return None
        if ahead is not None and entry.seq % snapshots.EVERY == 0:
            # while Redis appends (see _hold_snapshot); no bytes: tried, and it could not be made
            lm.made_snapshot = self._try_snapshot(lm) or (entry.seq, b"")
        return ahead

    def _try_snapshot(self, lm: LiveMatch) -> tuple[int, bytes] | None:
        """:meth:`_snapshot`, or None (logged) if it cannot be made: a snapshot is a cache."""
        try:
            return self._snapshot(lm)
        except Exception:
            log.exception("snapshot_failed", match_id=lm.match_id, seq=lm.seq)
            self.metrics.inc("duel_snapshots_failed_total")
            return None

    def _hold_snapshot(self, lm: LiveMatch, entry: LogEntry) -> None:
        """After every ``snapshots.EVERY``-th entry (in the log now), the snapshot of the match
        at that entry is held until the match's next append from this process, which keeps it
        in the same command (``RedisEventStore.begin_append``).

        Written alone after the fan-out, its command and its fsync came just before the next
        action's append: one duel back to back, that action took 0.81 ms at the median against
        0.52 for the others, 40 % of the slowest 1 %. Made while Redis appended the entry (when
        the match went ahead), it took 0.75; carried by the next append, it costs that action
        nothing of its own. A snapshot is a cache: if no append follows (the match stays idle,
        the process stops), a load folds from the one before."""
        if entry.seq % snapshots.EVERY:
            return
        made, lm.made_snapshot = lm.made_snapshot, None
        held = made if made is not None and made[0] == entry.seq else self._try_snapshot(lm)
        if held is not None and held[1]:
            lm.held_snapshot = held

    # ------------------------------------------------------------------ clocks

    def _spent_ms(self, lm: LiveMatch, at: float) -> int:
        """The owing seat's time on its decision as of the LoopClock reading ``at``: since the
        update that gave it the decision was written (``lm.due_at``), stalls and Redis failures
        left out (server.match.loopclock)."""
        return max(0, round((at - lm.due_at) * 1000))

    def _left_ms(self, lm: LiveMatch, seat: int, at: float) -> int:
        """What the owing ``seat`` has left at the reading ``at``, before this process times it
        out: its clock, and a grace while its connection is on another process (that process
        times it out; ``ELSEWHERE_GRACE_MS``)."""
        assert lm.clock is not None
        elsewhere = lm.presence[seat] and not any(w.seat == seat for w in lm.watchers)
        return lm.clock.left_ms(seat, self._spent_ms(lm, at)) + (ELSEWHERE_GRACE_MS if elsewhere else 0)

    def store_failed(self, failure: StoreFailure) -> None:
        """Redis failed a request: ``/healthz`` says so, and no chess clock runs until a write
        succeeds (nobody's action can be stored)."""
        self.store_health.failed(failure)
        self.loop_clock.hold()

    def store_wrote(self) -> None:
        """A write to Redis succeeded: after a failure, the clocks run again and are armed."""
        if self.store_health.failing is None and not self.loop_clock.held:
            return
        self.store_health.wrote()
        self.loop_clock.release()
        for lm in list(self._live.values()):
            self._arm_clock(lm)

    def _arm_clock(self, lm: LiveMatch) -> None:
        """Schedule the timeout of the seat that owes the next decision (none while the
        clocks are held: Redis failing; they are armed again when it serves)."""
        if lm.timer is not None:
            lm.timer.cancel()
            lm.timer = None
        owing = lm.owing_seat()
        if lm.clock is None or lm.finished or owing is None or not lm.watchers or self.loop_clock.held:
            return
        delay = max(0.0, self._left_ms(lm, owing, self.loop_clock.now()) / 1000)
        seq = lm.seq
        loop = asyncio.get_running_loop()
        lm.timer = loop.call_later(delay, lambda: loop.create_task(self._timeout(lm.match_id, seq)))

    async def _timeout(self, match_id: str, seq: int) -> None:
        fired = self.loop_clock.now()  # the seat's time stops here, whatever the append waits for
        lm = self._live.get(match_id)
        if lm is None:
            return
        try:
            async with lm.lock:
                await self._sync(lm)
                owing = lm.owing_seat()
                if lm.seq != seq or lm.clock is None or owing is None or lm.finished:
                    return
                if self._left_ms(lm, owing, fired) > 0:  # the loop stalled, or the seat is elsewhere
                    self._arm_clock(lm)
                    return
                assert lm.state is not None  # it owes a decision: its genesis is folded
                action = forced_action(rules.legal_actions(lm.state, owing))
                decided = self._decide(lm, owing, action)
                if isinstance(decided, Refusal):
                    log.error("forced_action_refused", match_id=match_id, seq=seq, code=decided.code)
                    return
                facts, new_state = decided
                spent = self._spent_ms(lm, fired)
                result = await self._append(lm, owing, action, facts, new_state, timeout_action_id(seq), spent)
                if result is not None and not result[1]:
                    log.info("clock_timeout", match_id=match_id, seq=result[0].seq, seat=owing, do=action["do"])
                    await self._after(lm)
                    self._hold_snapshot(lm, result[0])
                else:
                    await self._fan_out_followed(lm)
        except Exception as exc:
            if (failure := store_failure(exc)) is None:
                log.exception("timeout_failed", match_id=match_id, seq=seq)
                return
            log.warning("timeout_not_stored", match_id=match_id, seq=seq, why=failure.health)
            self.store_failed(failure)  # armed again once Redis serves

    async def forfeit(self, match_id: str, seat: int, action_id: str) -> bool:
        """Concede for ``seat``, whose player left (server.accounts.rated: a rated match's seat
        gone past its grace), as a clock timeout is appended (``_timeout``): by the server, under
        ``action_id``, so that of several processes one appends it. True if this call did."""
        lm = await self.get(match_id)
        try:
            async with lm.lock:
                await self._sync(lm)
                if not lm.started or lm.finished or lm.state is None:
                    return False
                action: rules.WireAction = {"do": "concede"}
                decided = self._decide(lm, seat, action)
                if isinstance(decided, Refusal):
                    log.error("forfeit_refused", match_id=match_id, seat=seat, code=decided.code)
                    return False
                facts, new_state = decided
                result = await self._append(lm, seat, action, facts, new_state, action_id, 0)
                if result is not None and not result[1]:
                    log.info("seat_forfeited", match_id=match_id, seq=result[0].seq, seat=seat)
                    await self._after(lm)
                    return True
                await self._fan_out_followed(lm)
                return False
        finally:
            if not lm.watchers:
                self._drop(match_id, lm)

    def _drop(self, match_id: str, lm: LiveMatch) -> None:
        """Forget a match nobody here watches (``detach``'s end)."""
        if self._live.get(match_id) is lm and not lm.watchers and not lm.lock.locked():
            if lm.timer is not None:
                lm.timer.cancel()
            del self._live[match_id]
            self.metrics.set("duel_matches_live", len(self._live))
            self.holding(match_id, False)

    # ------------------------------------------------------------------ watchers

    async def attach(
        self,
        match_id: str,
        watcher: Watcher,
        last_seq: int,
        greet: Callable[[LiveMatch], None] | None = None,
    ) -> LiveMatch:
        """Add a watcher and send it what it missed after ``last_seq``, then its view.
        ``greet`` is called first, with the match caught up (and locked)."""
        while True:
            lm = await self.get(match_id)
            async with lm.lock:
                # ``detach`` drops a cached match whose last watcher left while its lock was
                # free; that can happen between ``get`` and taking the lock (a waiter woken
                # by a release has not run yet). A watcher added to a dropped copy would
                # never hear of later entries: take the cached match again
                if self._live.get(match_id) is not lm:
                    continue
                await self._sync(lm)
                if greet is not None:
                    greet(lm)
                lm.watchers.add(watcher)
                await self._read_presence(lm)
                if lm.started:
                    await self._catch_up(lm, watcher, last_seq)
                if lm.recent and lm.both_seats_watched():
                    lm.recent.clear()  # both seats are here: the first entries were for the joiner
                self._arm_clock(lm)
            return lm

    # ------------------------------------------------------------------ presence

    def connected(self, holder: str) -> bool:
        """Is the connection ``holder`` (``<process>/<session>``) alive?"""
        if not holder:
            return False
        process = holder.split("/", 1)[0]
        return process == self.process_id or process in self.live_processes

    async def _read_presence(self, lm: LiveMatch) -> None:
        """Re-read who holds the seats; tell the watchers if connectedness changed."""
        names_before = lm.names
        lm.holders, lm.names = await self.directory.holders(lm.match_id)
        for holder in lm.holders:
            process = holder.split("/", 1)[0]
            if holder and process != self.process_id and process not in self.live_processes:
                # a process newer than our last heartbeat round: ask whether it is alive
                if await self.directory.process_alive(process):
                    self.live_processes.add(process)
        self._announce_presence(lm, force=lm.names != names_before)

    def _announce_presence(self, lm: LiveMatch, force: bool = False) -> None:
        flags = [self.connected(h) for h in lm.holders]
        if flags == lm.presence and not force:
            return
        changed, lm.presence = flags != lm.presence, flags
        if changed:
            self._arm_clock(lm)  # a seat connected elsewhere or not: when this process times it out
        for w in list(lm.watchers):
            w.send(Presence(lm.match_id, list(flags), list(lm.names)))

    async def refresh_presence(self, match_id: str) -> tuple[str, str] | None:
        """A seat was taken or let go (a doorbell from any process): re-read who holds the
        seats of a match watched here. The players' names as read, or None (not read)."""
        lm = self._live.get(match_id)
        if lm is None or not lm.watchers:
            return None
        await self._read_presence(lm)
        return lm.names

    def processes_changed(self) -> None:
        """The set of live processes changed: seats held by a dead one are disconnected."""
        for lm in list(self._live.values()):
            if lm.watchers:
                self._announce_presence(lm)

    async def resync(self, match_id: str, watcher: Watcher, last_seq: int) -> None:
        """Send a watcher the entries after ``last_seq`` and its current view again."""
        lm = await self.get(match_id)
        async with lm.lock:
            await self._sync(lm)
            if lm.started:
                await self._catch_up(lm, watcher, last_seq)

    async def _catch_up(self, lm: LiveMatch, watcher: Watcher, last_seq: int) -> None:
        """The entries after ``last_seq`` up to where the watcher may see (the
        live seq, or the delayed one of a spectator), then its view.  The missed
        entries' per-viewer facts are the ones the match kept when it followed them
        (``LiveMatch.recent``: the duel's first entries, for the joining seat), or else come
        from following the log from its start (a viewer's card aliases depend on everything
        before)."""
        upto = lm.point_for(watcher.seat).seq
        missed: list[LogEntry] = []
        seen: list[rules.PerViewer] = []
        kept = lm.recent_after(last_seq) if 0 <= last_seq < upto == lm.seq else None
        if kept is not None:  # the seat joining just after the first entry
            missed = [s.entry for s in kept]
            seen = [s.per for s in kept]
        elif 0 <= upto - last_seq <= self.catch_up_limit and last_seq < upto:
            log_entries = await self.store.read(lm.match_id, after=0, limit=upto)
            vp = rules.viewpoints(lm.alias_key)
            for entry in log_entries:
                per = vp.apply(entry.facts)
                if entry.seq > last_seq:
                    missed.append(entry)
                    seen.append(per)
        views.catch_up(lm, watcher, missed, seen)

    def detach(self, match_id: str, watcher: Watcher) -> None:
        lm = self._live.get(match_id)
        if lm is None:
            return
        lm.watchers.discard(watcher)
        if not lm.watchers and not lm.lock.locked():
            if lm.timer is not None:
                lm.timer.cancel()
            del self._live[match_id]
            self.metrics.set("duel_matches_live", len(self._live))
            self.holding(match_id, False)


def _ignore_holding(match_id: str, held: bool) -> None:
    """``MatchService.holding`` with no fan-out (a process alone, the tools)."""


def _ignore_end(match_id: str) -> None:
    """``MatchService.ended`` with nobody to tell (the tools)."""


def _same_id(act: Act, lm: LiveMatch, seq: int, recorded: str) -> Accepted | Rejected:
    """An action id seen before: the same action is answered with its original entry; a
    different action under a used id is refused (it was never applied)."""
    if recorded and recorded != fingerprint(act.action):
        return Rejected(
            act.client_action_id,
            E.ACTION_ID_REUSED,
            f"client action id {act.client_action_id!r} was already used for another action (entry {seq});"
            " every new action needs a new id",
            lm.seq,
        )
    return Accepted(act.client_action_id, seq, duplicate=True)


def _timeless(lm: LiveMatch, act: Act) -> bool:
    """A concession made against an older seq is not stale: it means the
    same whatever happened since (the engine accepts it from either seat at
    any time while the duel runs), and a seat that does not owe a decision
    would otherwise race the opponent's actions to get it in."""
    return act.action.get("do") == "concede" and act.expected_seq <= lm.seq
