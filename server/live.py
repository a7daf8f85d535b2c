"""A match as one process holds it: the state folded from the log, the
clocks, the connected watchers.  ``advance`` is the only way it moves on."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import structlog

from protocol.entry import LogEntry
from protocol.messages import ServerMessage
from server import rules
from server.clocks import Clock, ClockSettings

log = structlog.get_logger("duel.live")

Send = Callable[[ServerMessage], None]


def now_ms() -> int:
    return int(time.time() * 1000)


@dataclass(eq=False)
class Watcher:
    """A connected client of a match: a seat (0/1) or a spectator (None)."""

    seat: int | None
    send: Send


@dataclass(eq=False)
class LiveMatch:
    match_id: str
    state: rules.State | None = None
    seq: int = 0
    state_hash: str = ""
    last_ts_ms: int = 0
    clock: Clock | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    watchers: set[Watcher] = field(default_factory=set)
    timer: asyncio.TimerHandle | None = None

    @property
    def started(self) -> bool:
        return self.state is not None

    @property
    def finished(self) -> bool:
        return self.state is not None and rules.finished(self.state)

    def owing_seat(self) -> int | None:
        if self.state is None:
            return None
        owed = rules.pending(self.state)
        if owed is None:
            return None
        seat = owed.get("seat")
        return seat if isinstance(seat, int) else None

    def clocks(self) -> list[int] | None:
        return None if self.clock is None else list(self.clock.remaining)

    def advance(self, entry: LogEntry, state_after: rules.State | None = None, *, check: bool = False) -> None:
        """Move on by one entry (``state_after``: already folded by the caller)."""
        if entry.seq != self.seq + 1:
            raise RuntimeError(f"gap in the log of {self.match_id}: at {self.seq}, got {entry.seq}")
        owing = self.owing_seat()
        new_state = rules.fold(entry.facts, self.state) if state_after is None else state_after
        if entry.seq == 1:
            settings = ClockSettings.from_genesis(entry.action)
            self.clock = None if settings is None else Clock.start(settings)
        elif self.clock is not None and owing is not None:
            self.clock.charge(owing, entry.time_ms)
        self.state, self.seq, self.state_hash = new_state, entry.seq, entry.state_hash
        self.last_ts_ms = entry.ts_ms
        if check and rules.state_hash(new_state) != entry.state_hash:
            log.error("state_hash_mismatch", match_id=self.match_id, seq=entry.seq)
