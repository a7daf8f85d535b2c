"""What a finished duel keeps in Redis (issue 14): the log and meta for ever, one snapshot
(the newest), and its action ids for a day (a client may still resend its last action and get
its seq back); the older snapshots go when the match finishes. (Seconds later its log is
sealed, and a short log's snapshot goes too: test_server_sealing.py.)"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
import redis.asyncio as aioredis
from duel_helpers import play_until, quietly, run, running_server, start_match, url_of, wait_for_turn

from protocol.messages import Accepted
from server.match import snapshots
from server.match.directory import ACTION_IDS_KEPT_S
from server.storage import keys


async def recorded_finished(r: aioredis.Redis, match_id: str) -> None:
    """Wait until the end is recorded (right after the last update goes out)."""
    for _ in range(500):
        if await r.hget(keys.meta_key(match_id), "status") == b"finished":
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the end of the match was not recorded")


def test_a_finished_duel_keeps_one_snapshot_and_its_action_ids_for_a_day(redis_url: str, tmp_path: Path) -> None:
    async def main() -> None:
        async with running_server(redis_url, tmp_path) as server:
            a, b, match_id, _ = await start_match(url_of(server))
            await play_until([a, b], 2 * snapshots.EVERY + 5, quietly)
            r = aioredis.Redis.from_url(redis_url)
            try:
                assert len(await r.hkeys(keys.snapshots_key(match_id))) >= 2
                assert await r.ttl(keys.actions_key(match_id)) == -1  # a live match keeps them
                actor = await wait_for_turn([a, b])
                assert actor is not None
                last = await actor.act({"do": "concede"}, action_id="last-one")
                assert isinstance(last, Accepted)
                await recorded_finished(r, match_id)
                kept = sorted(int(s) for s in await r.hkeys(keys.snapshots_key(match_id)))
                assert len(kept) == 1 and kept[0] >= 2 * snapshots.EVERY
                ttl = await r.ttl(keys.actions_key(match_id))
                assert ACTION_IDS_KEPT_S - 60 <= ttl <= ACTION_IDS_KEPT_S
                assert await r.xlen(keys.log_key(match_id)) == last.seq  # the log is all there
                again = await actor.act({"do": "concede"}, action_id="last-one", expected_seq=last.seq - 1)
                assert isinstance(again, Accepted) and again.duplicate and again.seq == last.seq
            finally:
                await r.aclose()
            for c in (a, b):
                await c.close()

    run(main())


def test_a_duel_that_ends_on_a_snapshot_entry_keeps_one_snapshot(
    redis_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The entry that ends the match falls on a snapshot's seq: no snapshot is written for it
    (the end has kept the newest one already), so the finished match still has exactly one."""
    monkeypatch.setattr(snapshots, "EVERY", 5)

    async def main() -> None:
        async with running_server(redis_url, tmp_path) as server:
            a, b, match_id, _ = await start_match(url_of(server))
            await play_until([a, b], 9, quietly)
            assert a.seq == 9
            actor = await wait_for_turn([a, b])
            assert actor is not None
            last = await actor.act({"do": "concede"})
            assert isinstance(last, Accepted) and last.seq == 10
            r = aioredis.Redis.from_url(redis_url)
            try:
                await recorded_finished(r, match_id)
                await asyncio.sleep(0.2)  # anything still on its way to Redis lands
                assert sorted(int(s) for s in await r.hkeys(keys.snapshots_key(match_id))) == [5]
            finally:
                await r.aclose()
            for c in (a, b):
                await c.close()

    run(main())
