"""What each watcher is sent: an entry redacted for it, its view, and the
decision it owes.  Built once per kind of receiver (seat 0, seat 1,
spectators) for each batch of entries."""

from __future__ import annotations

from typing import Any

from protocol.entry import LogEntry
from protocol.messages import Update
from server import rules
from server.live import LiveMatch, Watcher


def legal_for(state: rules.State, seat: int | None, owed: dict[str, Any] | None) -> list[rules.Action]:
    if seat is None or owed is None or owed.get("seat") != seat:
        return []
    return rules.legal_actions(state, seat)


def entry_update(lm: LiveMatch, entry: LogEntry, seat: int | None, *, with_view: bool) -> Update:
    """``entry`` as ``seat`` may see it; with the current view if ``with_view``."""
    facts = rules.redact(entry.facts, seat)
    if not with_view:
        return Update(lm.match_id, entry.seq, entry.seat, facts, entry.state_hash)
    owed = rules.pending(lm.state)
    return Update(
        match_id=lm.match_id,
        seq=entry.seq,
        actor=entry.seat,
        facts=facts,
        state_hash=entry.state_hash,
        view=rules.view(lm.state, seat),
        pending=owed,
        legal=legal_for(lm.state, seat, owed),
        clocks=lm.clocks(),
    )


def snapshot_update(lm: LiveMatch, seat: int | None) -> Update:
    """The current view alone (no facts): for clients too far behind."""
    owed = rules.pending(lm.state)
    return Update(
        match_id=lm.match_id,
        seq=lm.seq,
        actor=None,
        facts=[],
        state_hash=lm.state_hash,
        view=rules.view(lm.state, seat),
        pending=owed,
        legal=legal_for(lm.state, seat, owed),
        snapshot=True,
        clocks=lm.clocks(),
    )


def fan_out(lm: LiveMatch, entries: list[LogEntry]) -> None:
    """Send new entries to every watcher; the last one carries the view."""
    if not lm.watchers or not entries:
        return
    built: dict[int | None, list[Update]] = {}
    last = len(entries) - 1
    for watcher in list(lm.watchers):
        if watcher.seat not in built:
            built[watcher.seat] = [
                entry_update(lm, entry, watcher.seat, with_view=i == last) for i, entry in enumerate(entries)
            ]
        for update in built[watcher.seat]:
            watcher.send(update)


def catch_up(lm: LiveMatch, watcher: Watcher, missed: list[LogEntry]) -> None:
    """Send a (re)connecting watcher the entries it missed, then its view;
    a snapshot instead if the missed entries do not reach the current seq."""
    if missed and missed[-1].seq == lm.seq:
        for entry in missed[:-1]:
            watcher.send(entry_update(lm, entry, watcher.seat, with_view=False))
        watcher.send(entry_update(lm, missed[-1], watcher.seat, with_view=True))
    else:
        watcher.send(snapshot_update(lm, watcher.seat))
