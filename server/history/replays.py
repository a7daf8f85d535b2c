"""Pages of a finished match's log for replay viewers (``get_replay``).

A finished match is public: ``viewpoint`` "all" gives every entry unredacted,
with the server's own card ids, the omniscient view and the story naming every
card. "0", "1" and "spectator" give exactly what that viewer was sent while
the duel ran (its facts, card aliases and view: ``engine.Viewpoints`` with the
match's alias key), so a viewer can watch the duel through one player's eyes.

The log of a finished match never changes, so the entries read from Redis are
kept in a small cache, with checkpoints of the folded position every
``CHECKPOINT_EVERY`` entries (the state and the viewpoints themselves): a page, or
the view at any seq, is folded from the nearest checkpoint before it.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from server import rules
from server.storage.entry import LogEntry

VIEWPOINTS: dict[str, int | None] = {"0": 0, "1": 1, "spectator": None}
V = TypeVar("V")

CACHE_MATCHES = 16
CHECKPOINT_EVERY = 100

Checkpoint = tuple[Any, "rules.Viewpoints"]
"""The state after an entry and the viewpoints (card aliases) after it."""


@dataclass(frozen=True, slots=True)
class Page:
    entries: list[dict[str, Any]]
    total: int
    next_seq: int | None
    result: dict[str, Any] | None


def page(
    log: list[LogEntry],
    alias_key: bytes,
    viewpoint: str,
    from_seq: int,
    limit: int,
    views: bool,
    checkpoints: dict[int, Checkpoint] | None = None,
) -> Page:
    """Entries ``from_seq`` .. ``from_seq + limit - 1`` as ``viewpoint`` saw them.
    ``checkpoints`` (seq -> the state and the viewpoints after it) lets the fold start near
    ``from_seq``; it is filled in as the log is folded. Engine states are never changed once
    made (copy-on-write, docs/adr/0006), so a checkpoint holds the state itself: decoding a
    snapshot blob cost more than folding 2,000 entries with the faster engine."""
    vp = rules.viewpoints(alias_key)
    state: rules.State | None = None
    start = 0
    if checkpoints:
        usable = [k for k in checkpoints if k < from_seq]
        if usable:
            start = max(usable)
            state, kept = checkpoints[start]
            vp = kept.copy()
    last = from_seq + limit - 1
    out: list[dict[str, Any]] = []
    viewer = VIEWPOINTS.get(viewpoint)
    for entry in log[start:]:
        seen = vp.apply(entry.facts)
        state = rules.fold(entry.facts, state)
        if checkpoints is not None and entry.seq % CHECKPOINT_EVERY == 0 and entry.seq not in checkpoints:
            checkpoints[entry.seq] = (state, vp.copy())
        if entry.seq < from_seq:
            continue
        if entry.seq > last:
            break
        out.append(_row(entry, state, vp, seen, viewpoint, viewer, views))
    total = log[-1].seq if log else 0
    result = None
    final = state if last >= total else None
    if final is not None and rules.finished(final):
        result = {"winner": rules.winner(final), "reason": str(final.end_reason or "")}
    elif log:
        result = _result_of(log)
    return Page(out, total, last + 1 if last < total else None, result)


def _row(
    entry: LogEntry,
    state: rules.State,
    vp: rules.Viewpoints,
    seen: rules.PerViewer,
    viewpoint: str,
    viewer: int | None,
    views: bool,
) -> dict[str, Any]:
    row: dict[str, Any] = {
        "seq": entry.seq,
        "actor": entry.seat,
        "state_hash": entry.state_hash,
        "time_ms": entry.time_ms,
    }
    if viewpoint == "all":
        names = {cid: c.data.name for cid, c in state.cards.items()}
        row["action"] = entry.action
        row["facts"] = rules.wire_facts(entry.facts)
        row["story"] = [line for f in entry.facts if (line := rules.describe(f, names.get))]
        if views:
            row["view"] = rules.view(state, None, omniscient=True)
    else:
        facts = seen[2 if viewer is None else viewer]
        row["facts"] = facts
        row["story"] = vp.story(viewer, facts)
        if views:
            row["view"] = vp.view(state, viewer)
    return row


def _result_of(log: list[LogEntry]) -> dict[str, Any] | None:
    """The result, from the last entry's facts (without folding up to it)."""
    for fact in reversed(log[-1].facts):
        if fact.get("t") == "duel_ended":
            return {"winner": fact.get("winner"), "reason": str(fact.get("reason", ""))}
    return None


class Recent(Generic[V]):
    """What was made for the last ``size`` finished matches used, the least recently used
    dropped first (a finished match never changes, so nothing kept goes stale)."""

    def __init__(self, size: int = CACHE_MATCHES) -> None:
        self._size = size
        self._kept: OrderedDict[str, V] = OrderedDict()

    def get(self, match_id: str) -> V | None:
        got = self._kept.get(match_id)
        if got is not None:
            self._kept.move_to_end(match_id)
        return got

    def peek(self, match_id: str) -> V | None:
        """As :meth:`get`, without counting as a use."""
        return self._kept.get(match_id)

    def put(self, match_id: str, value: V) -> None:
        self._kept[match_id] = value
        self._kept.move_to_end(match_id)
        while len(self._kept) > self._size:
            self._kept.popitem(last=False)

    def clear(self) -> None:
        self._kept.clear()


class LogCache:
    """The logs of recently replayed finished matches, with their checkpoints."""

    def __init__(self, size: int = CACHE_MATCHES) -> None:
        self._logs: Recent[tuple[list[LogEntry], dict[int, Checkpoint]]] = Recent(size)

    def get(self, match_id: str) -> list[LogEntry] | None:
        got = self._logs.get(match_id)
        return None if got is None else got[0]

    def checkpoints(self, match_id: str) -> dict[int, Checkpoint] | None:
        got = self._logs.peek(match_id)
        return None if got is None else got[1]

    def clear(self) -> None:
        self._logs.clear()

    def put(self, match_id: str, log: list[LogEntry]) -> None:
        self._logs.put(match_id, (log, {}))


class FileCache(Recent[bytes]):
    """The replay files (bytes) of recently downloaded finished matches: a file is made once in
    a reader process, then served from here."""
