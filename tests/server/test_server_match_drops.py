"""A player who leaves a casual match of several duels and does not come back within the grace
loses the match, as tournaments have it (a drop: server.match.matchplay.Drops); one who comes back within it
plays on. Real Redis, real websockets, short grace timings from the server's config."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from duel_helpers import run, running_server, url_of
from match_helpers import at, concede_duel, duel_started, start_match, until
from test_server_matches import http_body

from protocol.messages import MatchState, Reconnect, Seated
from server.clients.client import DuelClient
from server.storage import keys

FAST = {"drop_grace": 1.0, "drop_sweep_every": 0.2}


def test_a_player_who_leaves_mid_duel_loses_the_match_by_a_drop(redis_url: str, tmp_path: Path) -> None:
    async def body() -> None:
        async with running_server(redis_url, tmp_path, **FAST) as server:
            a, b, match_id, _ = await start_match(url_of(server))
            # duel 1 to A, then B leaves in the middle of duel 2 and does not come back
            await concede_duel(b)
            for c in (a, b):
                await until(c, at("siding", 2))
            for c in (a, b):
                await c.keep_deck()
            for c in (a, b):
                await until(c, duel_started(2))
            assert await server.redis.zscore(keys.SERIES_OPEN, match_id) is not None
            await b.close()
            await until(a, lambda c: c.finished, timeout=15)
            m = a.match
            assert m is not None and m.phase == "finished" and m.score == [2, 0]
            assert m.result == {"winner": 0, "reason": "drop"}
            assert m.duels[1]["conceded"] == "drop" and m.duels[1]["winner"] == 0
            # A was told: the duel's end (a concession for B) and the match's, in that order
            assert a.view is not None and a.view["winner"] == 0 and a.view["end_reason"] == "concede"
            told = [s for s in a.inbox if isinstance(s, MatchState) and s.phase == "finished"]
            assert told and told[-1].result == {"winner": 0, "reason": "drop"}
            # the record says so; the match left the watch, its absences are forgotten
            record = json.loads(await http_body(server.port, f"/matches/{match_id}.json"))
            assert record["result"] == {"winner": 0, "reason": "drop"} and record["score"] == [2, 0]
            info = await server.directory.get(match_id)
            assert info is not None and info.match_result == {"score": [2, 0], "winner": 0, "reason": "drop"}
            assert await server.redis.zscore(keys.SERIES_OPEN, match_id) is None
            assert not await server.redis.hkeys(keys.SERIES_ABSENT)
            assert server.metrics.get("duel_match_drops_total") == 1
            duel2 = keys.duel_id(match_id, 2)
            entry = await server.store.entry(duel2, await server.store.last_seq(duel2))
            assert entry is not None and entry.client_action_id == "abandoned:1" and entry.seat == 1
            await a.close()

    run(body())


def test_a_player_back_within_the_grace_plays_on(redis_url: str, tmp_path: Path) -> None:
    async def body() -> None:
        async with running_server(redis_url, tmp_path, drop_grace=1.5, drop_sweep_every=0.2) as server:
            a, b, match_id, tokens = await start_match(url_of(server))
            await b.close()
            await asyncio.sleep(0.5)
            b2 = await DuelClient.connect(url_of(server), "B2")
            await b2.send(Reconnect(token=tokens[1]))
            assert (await b2.expect(Seated)).seat == 1
            await asyncio.sleep(2.5)  # past the grace counted from B's leaving: B is here again
            rec = await server.play.record(match_id)
            assert rec is not None and rec.phase == "dueling" and rec.duels == ()
            assert server.metrics.get("duel_match_drops_total") == 0
            # and when A is the one gone past the grace, B wins the match by the drop
            await a.close()
            await until(b2, lambda c: c.finished, timeout=15)
            assert b2.match is not None and b2.match.result == {"winner": 1, "reason": "drop"}
            await b2.close()

    run(body())


def test_with_no_drop_grace_the_match_waits_for_its_player(redis_url: str, tmp_path: Path) -> None:
    """``drop_grace=None``: nobody is dropped; the match waits for its player."""

    async def body() -> None:
        async with running_server(redis_url, tmp_path, drop_grace=None, drop_sweep_every=0.2) as server:
            a, b, match_id, _ = await start_match(url_of(server))
            await b.close()
            await asyncio.sleep(1.5)
            rec = await server.play.record(match_id)
            assert rec is not None and rec.phase == "dueling"
            assert await server.redis.zscore(keys.SERIES_OPEN, match_id) is not None
            await a.close()

    run(body())
