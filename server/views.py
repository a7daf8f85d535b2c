"""What each watcher is sent: an entry redacted for it, its view, and the
decision it owes.  Built once per kind of receiver (seat 0, seat 1,
spectators) for each batch of entries.

Seats always get the live position.  Spectators get the position
:meth:`LiveMatch.point_for` gives them: the live one, or, for a match with a
spectator delay, the delayed one, and only the entries that the delay has
released (:class:`server.live.Delayed`)."""

from __future__ import annotations

from typing import Any

from protocol.entry import LogEntry
from protocol.messages import Update
from server import rules
from server.live import LiveMatch, Point, Watcher


def legal_for(state: rules.State, seat: int | None, owed: dict[str, Any] | None) -> list[rules.Action]:
    if seat is None or owed is None or owed.get("seat") != seat:
        return []
    return rules.legal_actions(state, seat)


def entry_update(match_id: str, at: Point, entry: LogEntry, seat: int | None, *, with_view: bool) -> Update:
    """``entry`` as ``seat`` may see it; with the view at ``at`` if ``with_view``."""
    facts = rules.redact(entry.facts, seat)
    if not with_view:
        return Update(match_id, entry.seq, entry.seat, facts, entry.state_hash)
    owed = rules.pending(at.state)
    return Update(
        match_id=match_id,
        seq=entry.seq,
        actor=entry.seat,
        facts=facts,
        state_hash=entry.state_hash,
        view=rules.view(at.state, seat),
        pending=owed,
        legal=legal_for(at.state, seat, owed),
        clocks=at.clocks(),
    )


def snapshot_update(match_id: str, at: Point, seat: int | None) -> Update:
    """The view at ``at`` alone (no facts): for clients too far behind."""
    owed = rules.pending(at.state)
    return Update(
        match_id=match_id,
        seq=at.seq,
        actor=None,
        facts=[],
        state_hash=at.state_hash,
        view=rules.view(at.state, seat),
        pending=owed,
        legal=legal_for(at.state, seat, owed),
        snapshot=True,
        clocks=at.clocks(),
    )


def fan_out(lm: LiveMatch, entries: list[LogEntry]) -> None:
    """Send new entries to every watcher; the last one carries the view.
    Spectators of a delayed match get the entries the delay released instead."""
    for_spectators = entries if lm.delayed is None else lm.delayed.take_released()
    if not lm.watchers:
        return
    built: dict[int | None, list[Update]] = {}
    for watcher in list(lm.watchers):
        seat = watcher.seat
        if seat not in built:
            batch = entries if seat is not None else for_spectators
            at = lm.point_for(seat)
            last = len(batch) - 1
            built[seat] = [
                entry_update(lm.match_id, at, entry, seat, with_view=i == last) for i, entry in enumerate(batch)
            ]
        for update in built[seat]:
            watcher.send(update)


def catch_up(lm: LiveMatch, watcher: Watcher, missed: list[LogEntry]) -> None:
    """Send a (re)connecting watcher the entries it missed, then its view;
    a snapshot instead if the missed entries do not reach its position.
    Nothing while its position is before the first entry (a delayed
    spectator early in the duel)."""
    at = lm.point_for(watcher.seat)
    if at.seq == 0:
        return
    if missed and missed[-1].seq == at.seq:
        for entry in missed[:-1]:
            watcher.send(entry_update(lm.match_id, at, entry, watcher.seat, with_view=False))
        watcher.send(entry_update(lm.match_id, at, missed[-1], watcher.seat, with_view=True))
    else:
        watcher.send(snapshot_update(lm.match_id, at, watcher.seat))
