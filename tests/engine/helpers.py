"""Small builders for engine tests: positions from a scenario-like dict, no I/O."""

from __future__ import annotations

from typing import Any

from engine import State, apply_facts, decide, legal_actions, pending
from engine.scenario import start_state
from engine.types import WireAction


def position(start: dict[str, Any], **top: Any) -> tuple[State, dict[str, int]]:
    doc = {"format": 1, "name": "t", "start": start, **top}
    s, labels, _ = start_state(doc)
    return s, labels


def act(s: State, seat: int, action: WireAction) -> State:
    return apply_facts(s, decide(s, seat, action))


def pass_until(s: State, cond: Any, limit: int = 60) -> State:
    for _ in range(limit):
        if cond(s):
            return s
        p = pending(s)
        assert p is not None, "duel over before the condition held"
        s = act(s, int(p["seat"]), {"do": "pass"})
    raise AssertionError("condition never held")


def can(s: State, seat: int, **action: Any) -> bool:
    from engine.legal import matches

    return any(matches(action, a) for a in legal_actions(s, seat))
