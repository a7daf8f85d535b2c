"""What each watcher is sent: an entry as it may see it, its view, and the
decision it owes. Built once per kind of receiver (seat 0, seat 1,
spectators) for each batch of entries.

Everything goes through the position's ``Viewpoints`` (engine.viewpoints):
facts redacted per viewer and card ids given as that viewer's aliases, so
that no id follows a card through a place the viewer cannot see
(docs/adr/0005).

Seats always get the live position.  Spectators get the position
:meth:`LiveMatch.point_for` gives them: the live one, or, for a match with a
spectator delay, the delayed one, and only the entries that the delay has
released (:class:`server.match.live.Delayed`)."""

from __future__ import annotations

from protocol.codec import encode
from protocol.messages import Update
from server import rules
from server.match.live import Built, LiveMatch, Point, Watcher, owing_seat_of
from server.storage.entry import LogEntry


def viewer_index(seat: int | None) -> int:
    return 2 if seat is None else seat


def _state(at: Point) -> rules.State:
    if at.state is None:  # pragma: no cover - callers check that the match started
        raise RuntimeError("no state before the first entry")
    return at.state


def legal_for(at: Point, seat: int | None) -> list[rules.WireAction]:
    if seat is None or owing_seat_of(at.state) != seat:
        return []
    return at.vp.legal(_state(at), seat)


def entry_update(
    match_id: str,
    at: Point,
    entry: LogEntry,
    seat: int | None,
    *,
    with_view: bool,
    seen: rules.PerViewer,
    presence: list[bool] | None = None,
) -> Update:
    """``entry`` as ``seat`` may see it (``seen``: the entry's per-viewer facts); with the
    view at ``at`` if ``with_view``."""
    facts = seen[viewer_index(seat)]
    story = at.vp.story(seat, facts)
    if not with_view:
        return Update(match_id, entry.seq, entry.seat, facts, entry.state_hash, story=story)
    return Update(
        match_id=match_id,
        seq=entry.seq,
        actor=entry.seat,
        facts=facts,
        state_hash=entry.state_hash,
        view=at.vp.view(_state(at), seat),
        pending=at.vp.pending(_state(at), seat),
        legal=legal_for(at, seat),
        clocks=at.clocks(),
        presence=presence,
        story=story,
    )


def snapshot_update(match_id: str, at: Point, seat: int | None, presence: list[bool] | None = None) -> Update:
    """The view at ``at`` alone (no facts): for clients too far behind."""
    return Update(
        match_id=match_id,
        seq=at.seq,
        actor=None,
        facts=[],
        state_hash=at.state_hash,
        view=at.vp.view(_state(at), seat),
        pending=at.vp.pending(_state(at), seat),
        legal=legal_for(at, seat),
        snapshot=True,
        clocks=at.clocks(),
        presence=presence,
    )


def build(lm: LiveMatch) -> Built:
    """The updates of the entries the match followed since the last fan-out, for each kind of
    watcher it has (seat 0, seat 1, spectators), encoded once for all the watchers of that
    kind; the last one carries the view. Spectators of
    a delayed match get the entries the delay released instead."""
    entries = lm.take_unsent()
    for_spectators = entries if lm.delayed is None else lm.delayed.take_released()
    built: Built = {}
    for seat in {w.seat for w in lm.watchers}:
        batch = entries if seat is not None else for_spectators
        at = lm.point_for(seat)
        last = len(batch) - 1
        built[seat] = [
            encode(entry_update(lm.match_id, at, s.entry, seat, with_view=i == last, seen=s.per, presence=lm.presence))
            for i, s in enumerate(batch)
        ]
    return built


def fan_out(lm: LiveMatch) -> None:
    """Send every watcher its updates: those built while the entry was being appended
    (``LiveMatch.go_ahead``), else built now."""
    built, lm.built = lm.built, None
    if built is None:
        built = build(lm)
    elif lm.unsent:  # followed after it went ahead (not while the lock is held): send those too
        more = build(lm)
        built = {seat: [*built.get(seat, []), *more.get(seat, [])] for seat in {*built, *more}}
    watchers = list(lm.watchers)
    for watcher in watchers:
        for update in built.get(watcher.seat, ()):
            watcher.send(update)
    for watcher in watchers:  # the entry is on its way to every watcher before anything else runs
        watcher.flush()


def catch_up(lm: LiveMatch, watcher: Watcher, missed: list[LogEntry], seen: list[rules.PerViewer]) -> None:
    """Send a (re)connecting watcher the entries it missed (``seen``: their per-viewer
    facts), then its view; a snapshot instead if the missed entries do not reach its
    position. Nothing while its position is before the first entry (a delayed spectator
    early in the duel)."""
    at = lm.point_for(watcher.seat)
    if at.seq == 0:
        return
    if missed and missed[-1].seq == at.seq:
        last = len(missed) - 1
        for i, (entry, per) in enumerate(zip(missed, seen, strict=True)):
            watcher.send(
                entry_update(lm.match_id, at, entry, watcher.seat, with_view=i == last, seen=per, presence=lm.presence)
            )
    else:
        watcher.send(snapshot_update(lm.match_id, at, watcher.seat, lm.presence))


__all__ = ["build", "catch_up", "entry_update", "fan_out", "legal_for", "snapshot_update"]
