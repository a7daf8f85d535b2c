"""The seat that joins a match is caught up from the duel's first entries as the match kept them
(``LiveMatch.recent``, with their per-viewer facts) and is sent the very frames that catching it
up from the log sends (read from Redis, per-viewer facts followed from the log's start); the
match lets go of those entries once both seats are attached. Real server, real Redis, real
websockets."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from duel_helpers import run, running_server, start_match, url_of

from protocol.messages import Reconnect, Seated, Update
from server.clients.client import DuelClient
from server.match.live import LiveMatch, Seen


def _essence(u: Update) -> dict[str, Any]:
    """What a catch-up must get right: the entry as this viewer sees it, and the view."""
    return {
        "seq": u.seq,
        "actor": u.actor,
        "facts": u.facts,
        "hash": u.state_hash,
        "view": u.view,
        "pending": u.pending,
        "legal": u.legal,
        "story": u.story,
    }


def _updates(c: DuelClient) -> list[dict[str, Any]]:
    """The updates a client was sent so far, in order."""
    return [_essence(m) for m in c.inbox if isinstance(m, Update)]


def test_the_joining_seat_is_caught_up_from_kept_entries_as_from_the_log(
    redis_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    kept_used: list[list[Seen]] = []
    recent_after = LiveMatch.recent_after

    def spy(self: LiveMatch, last_seq: int) -> list[Seen] | None:
        got = recent_after(self, last_seq)
        if got is not None:
            kept_used.append(got)
        return got

    monkeypatch.setattr(LiveMatch, "recent_after", spy)

    async def body() -> None:
        async with running_server(redis_url, tmp_path) as server:
            url = url_of(server)
            a, b, match_id, tokens = await start_match(url)
            joined = _updates(b)
            assert [len(k) for k in kept_used] == [1]  # the joiner got the first entry as kept
            lm = server.service.cached(match_id)
            assert lm is not None and lm.recent == []  # both seats are attached: let go
            # the same seat coming back from the start is caught up from the log
            c = await DuelClient.connect(url, "again")
            await c.send(Reconnect(token=tokens[1], last_seq=0))
            await c.expect(Seated)
            again: list[dict[str, Any]] = []
            while not again or again[-1]["view"] is None:
                again.append(_essence(await c.expect(Update)))
            assert len(kept_used) == 1  # not from kept entries this time
            assert again == joined
            await c.close()
            await a.close()

    run(body())


def test_a_match_watched_by_both_seats_keeps_no_entries() -> None:
    """Both seats attached before the first entry (a quick match): nobody is left to join, so
    the first entries are not kept (the genesis is large); with one seat attached they are."""
    from engine.decks import deck_named
    from server import rules
    from server.match.live import Watcher
    from server.storage.entry import LogEntry

    decks = (deck_named("counters"), deck_named("battle-step"))
    facts = rules.genesis(7, decks)
    state = rules.fold(facts, None)
    entry = LogEntry(seq=1, seat=None, action={"do": "start"}, facts=facts, state_hash=rules.state_hash(state), ts_ms=0)
    kept = []
    for seats in ((0,), (0, 1)):
        lm = LiveMatch("m", b"k" * 32)
        for seat in seats:
            lm.watchers.add(Watcher(seat, lambda msg: None))
        lm.advance(entry, state)
        kept.append(len(lm.recent))
    assert kept == [1, 0]
