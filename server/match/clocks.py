"""Chess clocks, derived from the log.

A match created with a clock has ``{"base_ms", "increment_ms"}`` in its
genesis action.  Every entry records ``time_ms``, the time the seat that owed the
decision (``pending`` of the state before the entry) spent on it; that time is
charged to that seat, which then gets the increment. So the clocks are a fold of
the log like the rest of the state: any process, and a restarted one, computes the
same remaining times, and the engine never reads a clock.

The server measures ``time_ms`` (server.match.matches, on the process's
:class:`server.match.loopclock.LoopClock`): from the moment it wrote the update that
gave the seat its decision to the moment it read the seat's action, leaving out
the time it could not serve (its loop stalled; Redis failing). A seat with no
connection on the process is charged from when the process learned of the entry, or,
for a match it loads from the log, from the entry's wall-clock time: leaving does not
stop a clock (PROTOCOL.md, section 7).

When the owing seat's time runs out, the server appends the forced outcome
for it: a pass where passing is legal, otherwise a concession.  The forced
entry's client action id is ``timeout:<seq>``, and the conditional append
makes sure only one process appends it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

MIN_BASE_MS = 1_000
MAX_BASE_MS = 24 * 3600 * 1000
MAX_INCREMENT_MS = 10 * 60 * 1000

ELSEWHERE_GRACE_MS = 15_000
"""The process holding the owing seat's connection times the seat out. Another process that
holds the match (the opponent's) waits this much longer while the seat is connected elsewhere:
the holder may be stalled, and its stall is not the seat's. A process whose heartbeat stops
for 10 s counts as gone (server.match.fanout.PROCESS_TTL_MS) and its seats as disconnected; then
this wait ends."""


@dataclass(frozen=True, slots=True)
class ClockSettings:
    base_ms: int
    increment_ms: int = 0
    # what each seat has at the duel's start, when not ``base_ms``: a later duel of a match whose
    # clocks run over the whole match (server.match.series) starts where the last one ended
    left: tuple[int, int] | None = None

    def to_action(self) -> dict[str, Any]:
        out: dict[str, Any] = {"base_ms": self.base_ms, "increment_ms": self.increment_ms}
        if self.left is not None:
            out["left_ms"] = [self.left[0], self.left[1]]
        return out

    @classmethod
    def from_genesis(cls, action: dict[str, Any]) -> ClockSettings | None:
        raw = action.get("clock")
        if not isinstance(raw, dict):
            return None
        left = raw.get("left_ms")
        kept = (int(left[0]), int(left[1])) if isinstance(left, list) and len(left) == 2 else None
        return cls(int(raw["base_ms"]), int(raw.get("increment_ms", 0)), kept)


@dataclass(slots=True)
class Clock:
    settings: ClockSettings
    remaining: list[int] = field(default_factory=list)

    @classmethod
    def start(cls, settings: ClockSettings) -> Clock:
        if settings.left is not None:
            return cls(settings, list(settings.left))
        return cls(settings, [settings.base_ms, settings.base_ms])

    def charge(self, seat: int, spent_ms: int) -> None:
        self.remaining[seat] += self.settings.increment_ms - max(0, spent_ms)

    def left_ms(self, seat: int, spent_ms: int) -> int:
        """What ``seat`` has left once it has spent ``spent_ms`` on the decision it owes."""
        return self.remaining[seat] - max(0, spent_ms)


def forced_action(legal: list[dict[str, Any]]) -> dict[str, Any]:
    """The outcome of a timeout: pass if passing is legal, else concede."""
    if {"do": "pass"} in legal:
        return {"do": "pass"}
    return {"do": "concede"}


def timeout_action_id(seq: int) -> str:
    return f"timeout:{seq}"
