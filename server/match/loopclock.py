"""The time a server process could serve: what its chess clocks charge (issue 34, finding 4).

A monotonic clock in seconds that stops while the process cannot serve, so that no seat is
charged for it:

* while the event loop stalls (the process was stopped, swapped out, or a callback held the
  loop): a watchdog ticks every :data:`TICK_S`; once a tick is more than :data:`STALL_S`
  overdue, the clock stands still until the loop runs again. A stall costs a seat at most
  ``STALL_S`` (the part before it can be told from a slow turn);
* while Redis fails (:meth:`hold`, from when a request met the failure until a write
  succeeds again, :meth:`release`): no action can be stored then, nor a timeout.

Its readings only mean something within the process: a chess clock's time is measured here
between two events of one process (an update written to a seat's connection, that seat's
action read from it) and kept in the log as a duration (``time_ms``), which every process
and every replay folds alike (server.match.clocks).
"""

from __future__ import annotations

import asyncio
import time

TICK_S = 0.1
"""How often the watchdog ticks."""

STALL_S = 0.25
"""A tick this late means the loop stalled: the clock stands still from then on."""


class LoopClock:
    def __init__(self) -> None:
        self._lost = 0.0  # seconds the clock stood still, accounted so far
        self._tick_at = time.monotonic()
        self._timer: asyncio.TimerHandle | None = None
        self._held_at: float | None = None  # the reading it is held at (Redis failing)

    def start(self) -> None:
        """Start the watchdog on the running loop (until then, stalls are not told apart)."""
        if self._timer is None:
            self._tick_at = time.monotonic()
            self._timer = asyncio.get_running_loop().call_later(TICK_S, self._tick)

    def stop(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _overdue(self, mono: float) -> float:
        """How long the loop has been stalled beyond ``STALL_S`` as of ``mono`` (0: it runs)."""
        if self._timer is None:
            return 0.0
        return max(0.0, mono - self._tick_at - STALL_S)

    def _tick(self) -> None:
        mono = time.monotonic()
        self._lost += self._overdue(mono)
        self._tick_at = mono
        self._timer = asyncio.get_running_loop().call_later(TICK_S, self._tick)

    def _running(self) -> float:
        mono = time.monotonic()
        return mono - self._lost - self._overdue(mono)

    def now(self) -> float:
        """The reading now (seconds; compare only with readings of the same clock)."""
        return self._running() if self._held_at is None else self._held_at

    @property
    def held(self) -> bool:
        return self._held_at is not None

    def hold(self) -> None:
        """Stand still from now until :meth:`release`."""
        if self._held_at is None:
            self._held_at = self._running()

    def release(self) -> None:
        """Run again from the reading it was held at."""
        if self._held_at is not None:
            self._lost += self._running() - self._held_at
            self._held_at = None
