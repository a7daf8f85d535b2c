"""A match as one process holds it: the state folded from the log, the
clocks, the connected watchers.  ``advance`` is the only way it moves on.

A match created with a spectator delay also keeps a second, trailing fold
(:class:`Delayed`): the log up to the entry spectators may see, which is
``spectator_delay`` entries behind the live one until the duel ends, and the
whole log after that.  Every process computes it from the log alone, so
spectators on different processes see the same entries at the same seq.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

import structlog

from protocol.messages import ServerMessage
from server import rules
from server.match.clocks import Clock, ClockSettings
from server.storage.entry import LogEntry

log = structlog.get_logger("duel.live")

Send = Callable[[ServerMessage | bytes], None]
"""How a watcher is sent a message: the message, or its frame already encoded (bytes: the
fan-out encodes each update once for all the watchers of a seat, or all the spectators)."""
Built = dict[int | None, list[bytes]]
"""The encoded updates of a fan-out, by the seat they are for (None: spectators)."""

RECENT = 2
"""The first entries of a duel are kept with their per-viewer facts after the fan-out, until the
log is longer or both seats are attached (``MatchService.attach``): the seat that joins just
after the first entry is caught up from them instead of from the log (read from Redis and
followed from its start). Not longer: the first entry is large (every card of the duel), and
keeping it until the next entries grew the server by ~11 KiB per duel held at a human pace
(1,000 duels arriving over 5 s: 139 against 128 KiB of RSS), as did keeping the last two
entries of every match for reconnects (rare)."""

SPECTATOR_DELAY_KEY = "spectator_delay"
"""Key of the genesis action that holds a match's spectator delay (entries)."""


def now_ms() -> int:
    return int(time.time() * 1000)


def spectator_delay_of(genesis_action: dict[str, Any]) -> int:
    raw = genesis_action.get(SPECTATOR_DELAY_KEY, 0)
    return raw if isinstance(raw, int) and not isinstance(raw, bool) and raw > 0 else 0


def owing_seat_of(state: rules.State | None) -> int | None:
    """The seat that must decide in ``state`` (None: nobody, or no duel yet)."""
    if state is None:
        return None
    seat = rules.owed_by(state)
    return seat if isinstance(seat, int) else None


def step_clock(clock: Clock | None, entry: LogEntry, owing: int | None) -> Clock | None:
    """The clocks after ``entry`` (genesis starts them; later entries charge
    the seat that owed the decision, ``owing``, with the time it spent)."""
    if entry.seq == 1:
        settings = ClockSettings.from_genesis(entry.action)
        return None if settings is None else Clock.start(settings)
    if clock is not None and owing is not None:
        clock.charge(owing, entry.time_ms)
    return clock


class Point(Protocol):
    """A position of a match's log: the state after entry ``seq``."""

    @property
    def state(self) -> rules.State | None: ...

    @property
    def seq(self) -> int: ...

    @property
    def state_hash(self) -> str: ...

    @property
    def vp(self) -> rules.Viewpoints: ...

    def clocks(self) -> list[int] | None: ...


@dataclass(frozen=True, slots=True)
class Seen:
    """A log entry and its facts as each viewer sees them (``Viewpoints.apply``), computed
    once, when the position follows the entry, and handed to the fan-out."""

    entry: LogEntry
    per: rules.PerViewer


def _written_anyway() -> None:
    """The default :attr:`Watcher.flush`: a watcher whose messages go out as they are sent."""


@dataclass(eq=False)
class Watcher:
    """A connected client of a match: a seat (0/1) or a spectator (None)."""

    seat: int | None
    send: Send
    # write what was sent so far now, not at the end of the event loop's turn: the fan-out
    # calls it once it has sent every watcher its updates (server.process.session.Session.flush)
    flush: Callable[[], None] = _written_anyway


@dataclass(eq=False)
class Delayed:
    """What spectators of a delayed match see: the log folded up to ``seq``,
    which trails the live log by ``entries`` entries while the duel runs.

    ``held`` are the entries spectators may not see yet; ``released`` the ones
    that became visible since the last :meth:`take_released` (the fan-out
    sends them to spectators)."""

    entries: int
    vp: rules.Viewpoints
    state: rules.State | None = None
    seq: int = 0
    state_hash: str = ""
    clock: Clock | None = None
    held: deque[LogEntry] = field(default_factory=deque)
    released: list[Seen] = field(default_factory=list)

    def clocks(self) -> list[int] | None:
        return None if self.clock is None else list(self.clock.remaining)

    def push(self, entry: LogEntry, *, live_finished: bool) -> None:
        """The live log has moved on to ``entry``: release what is now far enough behind
        (everything once the duel is over)."""
        self.held.append(entry)
        while self.held and (live_finished or self.held[0].seq <= entry.seq - self.entries):
            released = self.held.popleft()
            owing = owing_seat_of(self.state)
            self.state = rules.fold(released.facts, self.state)
            per = self.vp.apply(released.facts)
            self.clock = step_clock(self.clock, released, owing)
            self.seq, self.state_hash = released.seq, released.state_hash
            self.released.append(Seen(released, per))

    def take_released(self) -> list[Seen]:
        out, self.released = self.released, []
        return out


@dataclass(frozen=True, slots=True)
class Checkpoint:
    """What :meth:`LiveMatch.go_ahead` changes, as it was before (:meth:`LiveMatch.undo`)."""

    state: rules.State | None
    seq: int
    state_hash: str
    last_ts_ms: int
    clock: list[int] | None
    unsent: list[Seen]
    recent: list[Seen]
    vp: rules.Viewpoints


@dataclass(eq=False)
class LiveMatch:
    match_id: str
    alias_key: bytes = b""
    vp: rules.Viewpoints = field(init=False)
    unsent: list[Seen] = field(default_factory=list)  # entries followed, not fanned out yet
    recent: list[Seen] = field(default_factory=list)  # the first entries (RECENT), while the log is short
    state: rules.State | None = None
    seq: int = 0
    state_hash: str = ""
    last_ts_ms: int = 0
    clock: Clock | None = None
    # the reading of the process's LoopClock from which the owing seat's time runs: when the
    # fan-out wrote it the update of the entry at ``seq`` (``MatchService._after``)
    due_at: float = 0.0
    delayed: Delayed | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    watchers: set[Watcher] = field(default_factory=set)
    holders: tuple[str, str] = ("", "")  # connection ids holding the seats (any process)
    names: tuple[str, str] = ("", "")  # the players' display names
    presence: list[bool] = field(default_factory=lambda: [False, False])
    timer: asyncio.TimerHandle | None = None
    built: Built | None = None  # the fan-out of the entry the match went ahead to (``go_ahead``)
    # snapshots (server.match.snapshots) as (seq, blob): of the position it went ahead to, when that
    # is one to keep; and the newest one made, until an append of the match keeps it
    made_snapshot: tuple[int, bytes] | None = None
    held_snapshot: tuple[int, bytes] | None = None
    # the seq of the newest bell heard for the match (server.match.fanout): bells ring in the order
    # of the appends, so one at or below it means the log went back (Redis lost entries)
    heard: int = 0
    # the seq this process is appending at (0: none): its bell needs no read of the log
    appending: int = 0

    def __post_init__(self) -> None:
        self.vp = rules.viewpoints(self.alias_key)

    @property
    def started(self) -> bool:
        return self.state is not None

    def take_unsent(self) -> list[Seen]:
        """The entries followed since the last call, with their per-viewer facts (the
        fan-out sends them; a match loaded from its log drops them: nobody watched)."""
        out, self.unsent = self.unsent, []
        return out

    def both_seats_watched(self) -> bool:
        """Both seats have a connection watching the match on this process."""
        seats = {w.seat for w in self.watchers}
        return 0 in seats and 1 in seats

    def recent_after(self, last_seq: int) -> list[Seen] | None:
        """The entries after ``last_seq`` up to the live one with their per-viewer facts, if
        the match still keeps them all (the first ``RECENT`` of the duel); else None (read
        them from the log)."""
        recent = self.recent
        if not recent or recent[-1].entry.seq != self.seq or not recent[0].entry.seq <= last_seq + 1:
            return None
        return [s for s in recent if s.entry.seq > last_seq]

    @property
    def finished(self) -> bool:
        return self.state is not None and rules.finished(self.state)

    @property
    def spectator_delay(self) -> int:
        return 0 if self.delayed is None else self.delayed.entries

    def owing_seat(self) -> int | None:
        return owing_seat_of(self.state)

    def restore(
        self,
        state: rules.State,
        seq: int,
        state_hash: str,
        last_ts_ms: int,
        clock: Clock | None,
        book: object,
    ) -> None:
        """Start from a snapshot (server.match.snapshots) instead of entry 1."""
        rules.share_unwritten(state)
        self.state, self.seq, self.state_hash, self.last_ts_ms, self.clock = state, seq, state_hash, last_ts_ms, clock
        self.vp = rules.Viewpoints(self.alias_key, book)  # type: ignore[arg-type]
        self.recent.clear()

    def clocks(self) -> list[int] | None:
        return None if self.clock is None else list(self.clock.remaining)

    def point_for(self, seat: int | None) -> Point:
        """Where ``seat`` (None: a spectator) is in the log: the live position,
        or the delayed one for spectators of a delayed match."""
        if seat is None and self.delayed is not None:
            return self.delayed
        return self

    def go_ahead(self, entry: LogEntry, state_after: rules.State) -> Checkpoint | None:
        """:meth:`advance` to ``entry`` before it is in the log, so that the fan-out can be
        built while Redis appends it; the checkpoint undoes it if the append fails. None (and
        nothing done) for the first entry and for a match with a spectator delay, whose
        trailing fold would be costly to undo: those advance once the append is done."""
        if entry.seq == 1 or self.delayed is not None:
            return None
        clock = self.clock
        cp = Checkpoint(
            self.state,
            self.seq,
            self.state_hash,
            self.last_ts_ms,
            None if clock is None else list(clock.remaining),
            list(self.unsent),
            list(self.recent),
            self.vp.copy(),
        )
        try:
            self.advance(entry, state_after)
        except BaseException:
            self.undo(cp)
            raise
        return cp

    def undo(self, cp: Checkpoint) -> None:
        """Back to the checkpoint (the entry :meth:`go_ahead` went to did not make the log)."""
        self.state, self.seq, self.state_hash, self.last_ts_ms = cp.state, cp.seq, cp.state_hash, cp.last_ts_ms
        if cp.clock is not None and self.clock is not None:
            self.clock.remaining[:] = cp.clock
        self.unsent, self.recent, self.vp, self.built = cp.unsent, cp.recent, cp.vp, None
        self.made_snapshot = None

    def take_position(self, other: LiveMatch) -> None:
        """Hold the position ``other`` holds (a copy of this match folded again from its log:
        ``MatchService._rewind``), with nothing left to send or keep from before. The watchers,
        lock, seats and timer stay."""
        self.state, self.seq, self.state_hash = other.state, other.seq, other.state_hash
        self.last_ts_ms, self.clock, self.delayed, self.vp = other.last_ts_ms, other.clock, other.delayed, other.vp
        self.due_at = other.due_at
        self.unsent, self.recent, self.built = [], [], None
        self.made_snapshot = self.held_snapshot = None

    def advance(self, entry: LogEntry, state_after: rules.State | None = None, *, check: bool = False) -> bool:
        """Move on by one entry (``state_after``: already folded by the caller). With ``check``:
        False if the state reached does not hash to what the entry recorded (the match here had
        followed other entries than the log now holds: see ``MatchService._sync``)."""
        if entry.seq != self.seq + 1:
            raise RuntimeError(f"gap in the log of {self.match_id}: at {self.seq}, got {entry.seq}")
        owing = self.owing_seat()
        new_state = rules.fold(entry.facts, self.state) if state_after is None else state_after
        if entry.seq == 1:  # the cards still in the Decks: shared with the process's other duels
            rules.share_unwritten(new_state)
        self.clock = step_clock(self.clock, entry, owing)
        self.state, self.seq, self.state_hash = new_state, entry.seq, entry.state_hash
        self.last_ts_ms = entry.ts_ms
        seen = Seen(entry, self.vp.apply(entry.facts))
        self.unsent.append(seen)
        if entry.seq <= RECENT and not self.both_seats_watched():
            self.recent.append(seen)  # for a seat still to attach here
        elif self.recent:
            self.recent.clear()
        agrees = True
        if check and rules.state_hash(new_state) != entry.state_hash:
            log.error("state_hash_mismatch", match_id=self.match_id, seq=entry.seq)
            agrees = False
        if entry.seq == 1:
            delay = spectator_delay_of(entry.action)
            self.delayed = Delayed(delay, rules.viewpoints(self.alias_key)) if delay else None
        if self.delayed is not None:
            self.delayed.push(entry, live_finished=self.finished)
        return agrees
