"""Pages of a finished match's log for replay viewers (``get_replay``).

A finished match is public: ``viewpoint`` "all" gives every entry unredacted,
with the server's own card ids, the omniscient view and the story naming every
card. "0", "1" and "spectator" give exactly what that viewer was sent while
the duel ran (its facts, card aliases and view: ``engine.Viewpoints`` with the
match's alias key), so a viewer can watch the duel through one player's eyes.

The log of a finished match never changes, so the entries read from Redis are
kept in a small cache; each page is folded from the start of the log (a few
milliseconds for a long duel).
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

import engine
from protocol.entry import LogEntry
from server import rules

VIEWPOINTS: dict[str, int | None] = {"0": 0, "1": 1, "spectator": None}
CACHE_MATCHES = 16


@dataclass(frozen=True, slots=True)
class Page:
    entries: list[dict[str, Any]]
    total: int
    next_seq: int | None
    result: dict[str, Any] | None


def page(log: list[LogEntry], alias_key: bytes, viewpoint: str, from_seq: int, limit: int, views: bool) -> Page:
    """Entries ``from_seq`` .. ``from_seq + limit - 1`` as ``viewpoint`` saw them."""
    vp = rules.viewpoints(alias_key)
    state: rules.State | None = None
    last = from_seq + limit - 1
    out: list[dict[str, Any]] = []
    viewer = VIEWPOINTS.get(viewpoint)
    for entry in log:
        seen = vp.apply(entry.facts)
        state = rules.fold(entry.facts, state)
        if entry.seq < from_seq:
            continue
        if entry.seq > last:
            break
        row: dict[str, Any] = {
            "seq": entry.seq,
            "actor": entry.seat,
            "state_hash": entry.state_hash,
            "time_ms": entry.time_ms,
        }
        if viewpoint == "all":
            names = {cid: c.data.name for cid, c in state.cards.items()}
            row["action"] = entry.action
            row["facts"] = entry.facts
            row["story"] = [line for f in entry.facts if (line := engine.describe(f, names.get))]
            if views:
                row["view"] = engine.view(state, None, omniscient=True)
        else:
            facts = seen[2 if viewer is None else viewer]
            row["facts"] = facts
            row["story"] = vp.story(viewer, facts)
            if views:
                row["view"] = vp.view(state, viewer)
        out.append(row)
    total = log[-1].seq if log else 0
    result = None
    if state is not None and rules.finished(state):
        result = {"winner": rules.winner(state), "reason": str(state.end_reason or "")}
    return Page(out, total, last + 1 if last < total else None, result)


class LogCache:
    """The logs of recently replayed finished matches (they never change)."""

    def __init__(self, size: int = CACHE_MATCHES) -> None:
        self._size = size
        self._logs: OrderedDict[str, list[LogEntry]] = OrderedDict()

    def get(self, match_id: str) -> list[LogEntry] | None:
        log = self._logs.get(match_id)
        if log is not None:
            self._logs.move_to_end(match_id)
        return log

    def put(self, match_id: str, log: list[LogEntry]) -> None:
        self._logs[match_id] = log
        self._logs.move_to_end(match_id)
        while len(self._logs) > self._size:
            self._logs.popitem(last=False)
