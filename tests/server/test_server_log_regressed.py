"""A log shorter than the match a server holds (Redis lost entries it had acknowledged:
``appendfsync everysec`` with a write postponed behind a slow fsync, then a crash; a failover
to a replica that was behind). The log is the truth: the server folds the match again from
it, sends both seats the position it holds, and the duel goes on from there. Before, every
action was refused as stale for ever (``make faults``, Redis SIGKILL under ``everysec``)."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import redis.asyncio as aioredis
from duel_helpers import choose, play_until, run, running_server, start_match, url_of, wait_for_turn

from protocol.messages import Accepted, Rejected, Update
from server import keys


def test_a_duel_goes_on_from_the_log_when_redis_lost_its_last_entries(redis_url: str, tmp_path: Path) -> None:
    async def body() -> None:
        client = aioredis.Redis.from_url(redis_url)
        rnd = random.Random(11)
        async with running_server(redis_url, tmp_path) as server:
            a, b, match_id, _ = await start_match(url_of(server))
            await play_until([a, b], 12, lambda legal: choose(legal, rnd))
            await wait_for_turn([a, b])
            log = await server.store.read(match_id)
            assert log[-1].seq == 12
            # Redis loses entries 11 and 12 (and the action ids they recorded), as a crash
            # would: the server still holds entry 12
            for entry in log[-2:]:
                await client.xdel(keys.log_key(match_id), f"{entry.seq}-0")
                await client.hdel(keys.actions_key(match_id), f"{entry.seat}:{entry.client_action_id}")
            await client.execute_command("XSETID", keys.log_key(match_id), "10-0")  # its top, as a lost tail leaves it
            want = log[-3].state_hash  # what entry 10 recorded
            actor = await wait_for_turn([a, b])
            assert actor is not None and actor.seq == 12
            reply = await actor.act(choose(actor.legal, rnd))
            assert isinstance(reply, Rejected) and reply.code == "action/stale", reply
            # both seats are sent the position the log holds, then the duel goes on from it
            for c in (a, b):
                for _ in range(200):
                    if c.seq == 10:
                        break
                    await asyncio.sleep(0.01)
                assert c.seq == 10 and c.state_hash == want
                assert any(isinstance(m, Update) and m.snapshot and m.seq == 10 for m in c.inbox)
            lm = server.service.cached(match_id)
            assert lm is not None and lm.seq == 10
            await play_until([a, b], 14, lambda legal: choose(legal, rnd))
            log = await server.store.read(match_id)
            assert [e.seq for e in log] == list(range(1, 15))
            assert "duel_log_regressions_total 1" in server.metrics.render()
            last = await wait_for_turn([a, b])
            assert last is not None
            assert isinstance(await last.act(choose(last.legal, rnd)), Accepted)
            for c in (a, b):
                await c.close()
        await client.aclose()

    run(body())
