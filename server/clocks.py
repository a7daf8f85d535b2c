"""Chess clocks, derived from the log.

A match created with a clock has ``{"base_ms", "increment_ms"}`` in its
genesis action.  Every entry records ``ms``, the wall-clock time since the
previous entry; that time is charged to the seat that owed the decision
(``pending`` of the state before the entry), which then gets the increment.
So the clocks are a fold of the log like the rest of the state: any
process, and a restarted one, computes the same remaining times.

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


@dataclass(frozen=True, slots=True)
class ClockSettings:
    base_ms: int
    increment_ms: int = 0

    def to_action(self) -> dict[str, int]:
        return {"base_ms": self.base_ms, "increment_ms": self.increment_ms}

    @classmethod
    def from_genesis(cls, action: dict[str, Any]) -> ClockSettings | None:
        raw = action.get("clock")
        if not isinstance(raw, dict):
            return None
        return cls(int(raw["base_ms"]), int(raw.get("increment_ms", 0)))


@dataclass(slots=True)
class Clock:
    settings: ClockSettings
    remaining: list[int] = field(default_factory=list)

    @classmethod
    def start(cls, settings: ClockSettings) -> Clock:
        return cls(settings, [settings.base_ms, settings.base_ms])

    def charge(self, seat: int, spent_ms: int) -> None:
        self.remaining[seat] += self.settings.increment_ms - max(0, spent_ms)

    def left_ms(self, seat: int, since_ts_ms: int, now_ms: int) -> int:
        """What ``seat`` has left now, if it has owed the decision since ``since_ts_ms``."""
        return self.remaining[seat] - max(0, now_ms - since_ts_ms)


def forced_action(legal: list[dict[str, Any]]) -> dict[str, Any]:
    """The outcome of a timeout: pass if passing is legal, else concede."""
    if {"do": "pass"} in legal:
        return {"do": "pass"}
    return {"do": "concede"}


def timeout_action_id(seq: int) -> str:
    return f"timeout:{seq}"
