"""Catching a watcher up from the entries a live match keeps (``LiveMatch.recent``) sends the
very frames that catching it up from the log does (read from Redis, per-viewer facts followed
from the log's start): a seat that joins after the first entry, or comes back a few entries
behind, and a spectator. Real server, real Redis, real websockets."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from duel_helpers import choose, run, running_server, start_match, url_of, wait_for_turn

from protocol.messages import Reconnect, Seated, Spectate, Update
from server.client import DuelClient
from server.live import RECENT, LiveMatch


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


async def _caught_up(url: str, lm: LiveMatch, seat: int | None, token: str, last_seq: int) -> list[dict[str, Any]]:
    """The updates a watcher coming back at ``last_seq`` is sent, up to the live entry's view."""
    c = await DuelClient.connect(url, f"catch-up-{seat}")
    try:
        if seat is None:
            await c.send(Spectate(match_id=lm.match_id, last_seq=last_seq))
        else:
            await c.send(Reconnect(token=token, last_seq=last_seq))
            await c.expect(Seated)
        got: list[dict[str, Any]] = []
        while not got or got[-1]["seq"] < lm.seq or got[-1]["view"] is None:
            got.append(_essence(await c.expect(Update)))
        return got
    finally:
        await c.close()


def test_catch_up_from_kept_entries_equals_catch_up_from_the_log(redis_url: str, tmp_path: Path) -> None:
    async def body() -> None:
        async with running_server(redis_url, tmp_path) as server:
            url = url_of(server)
            a, b, match_id, tokens = await start_match(url)
            rnd = random.Random(5)
            compared = 0
            for _ in range(RECENT + 2):
                actor = await wait_for_turn([a, b])
                assert actor is not None
                await actor.act(choose(actor.legal, rnd))
                await wait_for_turn([a, b])
                # the match as the server holds it now (it lets go of a match nobody watches)
                lm = server.service.cached(match_id)
                assert lm is not None and lm.seq == a.seq == b.seq
                for seat in (0, 1, None):
                    token = "" if seat is None else tokens[seat]
                    for last_seq in range(max(0, lm.seq - RECENT - 1), lm.seq):
                        kept = lm.recent_after(last_seq)
                        from_kept = await _caught_up(url, lm, seat, token, last_seq)
                        saved = list(lm.recent)
                        lm.recent.clear()  # the same catch-up, from the log
                        from_log = await _caught_up(url, lm, seat, token, last_seq)
                        lm.recent.extend(saved)
                        assert from_kept == from_log, (seat, last_seq)
                        assert [u["seq"] for u in from_kept] == list(range(last_seq + 1, lm.seq + 1))
                        compared += kept is not None
                # the seats were taken over by the catch-up clients: take them back
                a, b = await _back(url, tokens, a, b)
            assert compared > 0  # the kept entries were used, not only the log

    run(body())


async def _back(url: str, tokens: list[str], *old: DuelClient) -> tuple[DuelClient, DuelClient]:
    out = []
    for seat, c in enumerate(old):
        await c.close()
        n = await DuelClient.connect(url, f"seat-{seat}")
        await n.send(Reconnect(token=tokens[seat], last_seq=0))
        await n.expect(Seated)
        while n.view is None:
            await n.expect(Update)
        out.append(n)
    return out[0], out[1]
