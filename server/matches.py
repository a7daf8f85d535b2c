"""The match service: one writer per match, state by folding the log, fan-out.

An action goes through small named steps (:meth:`MatchService.submit`):

1. ``_duplicate``   -- the seat's client action id was appended before: answer
                       with the original seq, append nothing;
2. ``_fresh``       -- the action was made against the current seq (catching up
                       from the log first if the client is ahead of us);
3. ``_decide``      -- the engine turns the action into facts or refuses it;
4. ``_append``      -- the entry is appended at the next seq, atomically; a lost
                       race reloads from the log and answers ``action/stale``;
5. ``_fan_out``     -- every watcher of the match gets the entry redacted for
                       it, its view, and its legal actions if it owes a decision.

In one process an asyncio lock per match serializes steps 1-5; across
processes the conditional append does (see :mod:`server.store`).  Entries
appended by other processes arrive through the Redis doorbell
(:mod:`server.fanout`) and go through the same ``_sync`` + ``_fan_out``.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import structlog

from protocol import errors as E
from protocol.entry import LogEntry
from protocol.messages import Accepted, Act, Rejected, ServerMessage, Update
from server import rules
from server.directory import FINISHED, LIVE, MatchDirectory
from server.metrics import Metrics
from server.store import RedisEventStore, action_key

log = structlog.get_logger("duel.matches")

MAX_CATCH_UP = 2000
"""A reconnecting client further behind than this gets a snapshot instead."""

Send = Callable[[ServerMessage], None]


@dataclass(eq=False)
class Watcher:
    """A connected client of a match: a seat (0/1) or a spectator (None)."""

    seat: int | None
    send: Send


@dataclass(eq=False)
class LiveMatch:
    """A match's folded state, cached in this process."""

    match_id: str
    state: rules.State | None = None
    seq: int = 0
    state_hash: str = ""
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    watchers: set[Watcher] = field(default_factory=set)
    decision_since: float = field(default_factory=time.monotonic)

    @property
    def started(self) -> bool:
        return self.state is not None

    @property
    def finished(self) -> bool:
        return self.state is not None and rules.finished(self.state)


class MatchNotFound(Exception):
    pass


class MatchService:
    def __init__(self, store: RedisEventStore, directory: MatchDirectory, metrics: Metrics) -> None:
        self.store = store
        self.directory = directory
        self.metrics = metrics
        self._live: dict[str, LiveMatch] = {}

    # ------------------------------------------------------------------ loading

    async def get(self, match_id: str) -> LiveMatch:
        """The cached match, folded from the log on first use."""
        lm = self._live.get(match_id)
        if lm is None:
            lm = self._live.setdefault(match_id, await self.load(match_id))
            self.metrics.set("duel_matches_live", len(self._live))
        return lm

    async def load(self, match_id: str) -> LiveMatch:
        """Fold a match from its log (not cached): the cached copy if there is one."""
        cached = self._live.get(match_id)
        if cached is not None:
            return cached
        lm = LiveMatch(match_id)
        for entry in await self.store.read(match_id):
            self._apply(lm, entry, check=False)
        if lm.state is not None and rules.state_hash(lm.state) != lm.state_hash:
            log.error("state_hash_mismatch_on_load", match_id=match_id, seq=lm.seq)
        return lm

    def cached(self, match_id: str) -> LiveMatch | None:
        return self._live.get(match_id)

    def _apply(self, lm: LiveMatch, entry: LogEntry, *, check: bool) -> None:
        if entry.seq != lm.seq + 1:
            raise RuntimeError(f"gap in log of {lm.match_id}: have {lm.seq}, got {entry.seq}")
        lm.state = rules.fold(entry.facts, lm.state)
        lm.seq = entry.seq
        lm.state_hash = entry.state_hash
        lm.decision_since = time.monotonic()
        if check and rules.state_hash(lm.state) != entry.state_hash:
            log.error("state_hash_mismatch", match_id=lm.match_id, seq=entry.seq)

    async def _sync(self, lm: LiveMatch) -> list[LogEntry]:
        """Apply and fan out entries other processes appended (lock held)."""
        entries = await self.store.read(lm.match_id, after=lm.seq)
        for entry in entries:
            self._apply(lm, entry, check=True)
        if entries:
            self._fan_out(lm, entries)
            if lm.finished:
                await self.directory.set_status(lm.match_id, FINISHED)
        return entries

    async def sync(self, match_id: str) -> None:
        """Catch a cached match up with its log (doorbell or poll)."""
        lm = self._live.get(match_id)
        if lm is None or not lm.watchers:
            return
        async with lm.lock:
            await self._sync(lm)

    def live_with_watchers(self) -> list[str]:
        return [m for m, lm in self._live.items() if lm.watchers]

    # ------------------------------------------------------------------ start

    async def start(self, match_id: str, decks: tuple[list[int], list[int]]) -> None:
        """Append the genesis entry (seq 1) once both seats are taken."""
        lm = await self.get(match_id)
        async with lm.lock:
            if lm.started:
                return
            seed = secrets.randbits(63)
            facts = rules.genesis(seed, decks)
            state = rules.fold(facts, None)
            entry = LogEntry(
                seq=1,
                seat=None,
                action={"do": "start", "seed": seed, "decks": [decks[0], decks[1]]},
                facts=facts,
                state_hash=rules.state_hash(state),
                ts_ms=int(time.time() * 1000),
            )
            result = await self.store.append(match_id, entry)
            self.metrics.inc("duel_appends_total", result=result.status)
            if result.status == "ok":
                lm.state, lm.seq, lm.state_hash = state, 1, entry.state_hash
                lm.decision_since = time.monotonic()
                await self.directory.set_status(match_id, LIVE)
                log.info("match_started", match_id=match_id, seq=1)
                self._fan_out(lm, [entry])
            else:
                await self._sync(lm)

    # ------------------------------------------------------------------ actions

    async def submit(self, match_id: str, seat: int, act: Act, reply: Send) -> None:
        """Handle one action of ``seat``; ``reply`` gets Accepted or Rejected,
        always before the fan-out of the entry it caused."""
        t0 = time.perf_counter()
        lm = await self.get(match_id)
        async with lm.lock:
            answer, entry = await self._submit_locked(lm, seat, act)
            reply(answer)
            if entry is not None:
                self._fan_out(lm, [entry])
                if lm.finished:
                    await self.directory.set_status(match_id, FINISHED)
        latency = time.perf_counter() - t0
        self.metrics.observe_action_latency(latency)
        outcome = "accepted" if isinstance(answer, Accepted) else answer.code
        self.metrics.inc("duel_actions_total", outcome=outcome)
        if isinstance(answer, Rejected):
            self.metrics.inc("duel_errors_total", code=answer.code)
        log.info(
            "action",
            match_id=match_id,
            seat=seat,
            seq=answer.seq,
            outcome=outcome,
            do=str(act.action.get("do", ""))[:32],
            latency_ms=round(latency * 1000, 2),
        )

    async def _submit_locked(
        self, lm: LiveMatch, seat: int, act: Act
    ) -> tuple[Accepted | Rejected, LogEntry | None]:
        def reject(code: str, reason: str) -> tuple[Rejected, None]:
            return Rejected(act.client_action_id, code, reason, lm.seq), None

        dup = await self._duplicate(lm, seat, act)
        if dup is not None:
            return dup, None
        if not lm.started:
            return reject(E.MATCH_NOT_STARTED, "the duel has not started yet")
        if not await self._fresh(lm, act):
            return reject(E.ACTION_STALE, f"the action was made at seq {act.expected_seq}; the match is at {lm.seq}")
        if lm.finished:
            return reject(E.MATCH_FINISHED, "the duel is over")
        decided = self._decide(lm, seat, act)
        if isinstance(decided, Rejected):
            return decided, None
        return await self._append(lm, seat, act, *decided)

    async def _duplicate(self, lm: LiveMatch, seat: int, act: Act) -> Accepted | None:
        seq = await self.store.action_outcome(lm.match_id, action_key(seat, act.client_action_id))
        if seq is None:
            return None
        return Accepted(act.client_action_id, seq, duplicate=True)

    async def _fresh(self, lm: LiveMatch, act: Act) -> bool:
        if act.expected_seq > lm.seq:
            await self._sync(lm)
        return act.expected_seq == lm.seq

    def _decide(self, lm: LiveMatch, seat: int, act: Act) -> tuple[list[rules.Fact], Any] | Rejected:
        state = lm.state
        try:
            facts = rules.decide(state, seat, act.action)
        except rules.IllegalAction as exc:
            code = exc.code if exc.code in E.ALL_CODES else E.ACTION_ILLEGAL
            owed = rules.pending(state)
            if code == E.ACTION_ILLEGAL and owed is not None and owed.get("seat") != seat:
                code = E.ACTION_NOT_YOUR_PRIORITY
            return Rejected(act.client_action_id, code, exc.reason, lm.seq)
        except Exception:  # the engine choked on a strange action: refuse it, change nothing
            log.exception("decide_failed", match_id=lm.match_id, seq=lm.seq, seat=seat)
            return Rejected(act.client_action_id, E.ACTION_MALFORMED, "the action could not be read", lm.seq)
        return facts, rules.fold(facts, state)

    async def _append(
        self, lm: LiveMatch, seat: int, act: Act, facts: list[rules.Fact], new_state: Any
    ) -> tuple[Accepted | Rejected, LogEntry | None]:
        entry = LogEntry(
            seq=lm.seq + 1,
            seat=seat,
            action=act.action,
            facts=facts,
            state_hash=rules.state_hash(new_state),
            time_ms=int((time.monotonic() - lm.decision_since) * 1000),
            client_action_id=act.client_action_id,
            ts_ms=int(time.time() * 1000),
        )
        result = await self.store.append(lm.match_id, entry, action_key(seat, act.client_action_id))
        self.metrics.inc("duel_appends_total", result=result.status)
        if result.status == "ok":
            lm.state, lm.seq, lm.state_hash = new_state, entry.seq, entry.state_hash
            lm.decision_since = time.monotonic()
            return Accepted(act.client_action_id, entry.seq), entry
        await self._sync(lm)  # another writer got there first: reload, then answer
        if result.status == "duplicate":
            return Accepted(act.client_action_id, result.seq, duplicate=True), None
        log.info("append_conflict", match_id=lm.match_id, seq=lm.seq, seat=seat)
        return (
            Rejected(
                act.client_action_id,
                E.ACTION_STALE,
                f"another action was appended first; the match is at {lm.seq}",
                lm.seq,
            ),
            None,
        )

    # ------------------------------------------------------------------ watchers

    async def attach(self, match_id: str, watcher: Watcher, last_seq: int) -> LiveMatch:
        """Add a watcher and send it what it missed after ``last_seq``, then its view."""
        lm = await self.get(match_id)
        async with lm.lock:
            await self._sync(lm)
            lm.watchers.add(watcher)
            if lm.started:
                await self._catch_up(lm, watcher, last_seq)
        return lm

    async def resync(self, match_id: str, watcher: Watcher, last_seq: int) -> None:
        """Send a watcher the entries after ``last_seq`` and its current view again."""
        lm = await self.get(match_id)
        async with lm.lock:
            await self._sync(lm)
            if lm.started:
                await self._catch_up(lm, watcher, last_seq)

    def detach(self, match_id: str, watcher: Watcher) -> None:
        lm = self._live.get(match_id)
        if lm is None:
            return
        lm.watchers.discard(watcher)
        if not lm.watchers and not lm.lock.locked():
            del self._live[match_id]
            self.metrics.set("duel_matches_live", len(self._live))

    async def _catch_up(self, lm: LiveMatch, watcher: Watcher, last_seq: int) -> None:
        missed: list[LogEntry] = []
        if 0 <= lm.seq - last_seq <= MAX_CATCH_UP and last_seq < lm.seq:
            missed = await self.store.read(lm.match_id, after=last_seq, limit=lm.seq - last_seq)
        if missed and missed[-1].seq == lm.seq:
            for entry in missed[:-1]:
                watcher.send(self._update(lm, entry, watcher.seat, with_view=False))
            watcher.send(self._update(lm, missed[-1], watcher.seat, with_view=True))
        else:
            watcher.send(self._snapshot(lm, watcher.seat))

    def _snapshot(self, lm: LiveMatch, seat: int | None) -> Update:
        state = lm.state
        owed = rules.pending(state)
        return Update(
            match_id=lm.match_id,
            seq=lm.seq,
            actor=None,
            facts=[],
            state_hash=lm.state_hash,
            view=rules.view(state, seat),
            pending=owed,
            legal=self._legal(state, seat, owed),
            snapshot=True,
        )

    @staticmethod
    def _legal(state: rules.State, seat: int | None, owed: dict[str, Any] | None) -> list[rules.Action]:
        if seat is None or owed is None or owed.get("seat") != seat:
            return []
        return rules.legal_actions(state, seat)

    def _update(self, lm: LiveMatch, entry: LogEntry, seat: int | None, *, with_view: bool) -> Update:
        if not with_view:
            return Update(lm.match_id, entry.seq, entry.seat, rules.redact(entry.facts, seat), entry.state_hash)
        owed = rules.pending(lm.state)
        return Update(
            match_id=lm.match_id,
            seq=entry.seq,
            actor=entry.seat,
            facts=rules.redact(entry.facts, seat),
            state_hash=entry.state_hash,
            view=rules.view(lm.state, seat),
            pending=owed,
            legal=self._legal(lm.state, seat, owed),
        )

    def _fan_out(self, lm: LiveMatch, entries: list[LogEntry]) -> None:
        """Send new entries to every watcher; the last one carries the view.

        Updates are built once per seat (0, 1, spectators), not per watcher."""
        if not lm.watchers:
            return
        built: dict[int | None, list[Update]] = {}
        for watcher in list(lm.watchers):
            if watcher.seat not in built:
                built[watcher.seat] = [
                    self._update(lm, entry, watcher.seat, with_view=i == len(entries) - 1)
                    for i, entry in enumerate(entries)
                ]
            for update in built[watcher.seat]:
                watcher.send(update)
