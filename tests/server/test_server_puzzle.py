"""A scenario file served as a match (``duel scenario --serve``)."""

from __future__ import annotations

import random
from pathlib import Path

import redis.asyncio as aioredis
import yaml
from duel_helpers import choose, run, running_server, url_of, wait_for_turn

from protocol.messages import Accepted, Reconnect, Seated, Update
from server.cli.puzzle import create_puzzle_match
from server.clients.client import DuelClient
from server.history.replay import verify_log
from server.storage.store import RedisEventStore

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"


def test_a_scenario_position_is_served_and_verifiable(redis_url: str, tmp_path: Path) -> None:
    path = sorted(SCENARIOS.rglob("*.yaml"))[0]
    doc = yaml.safe_load(path.read_text("utf-8"))

    async def body() -> None:
        async with running_server(redis_url, tmp_path) as server:
            match_id, tokens = await create_puzzle_match(server, doc)
            clients = []
            for seat, token in enumerate(tokens):
                c = await DuelClient.connect(url_of(server), "AB"[seat])
                await c.send(Reconnect(token=token, last_seq=0))
                seated = await c.expect(Seated)
                assert (seated.match_id, seated.seat, seated.started) == (match_id, seat, True)
                await c.expect(Update)
                clients.append(c)
            assert clients[0].view is not None and clients[0].view["turn"] == doc["start"].get("turn", 1)
            rnd = random.Random(1)
            for _ in range(5):
                actor = await wait_for_turn(clients)
                if actor is None:
                    break
                assert isinstance(await actor.act(choose(actor.legal, rnd)), Accepted)
            store = RedisEventStore(aioredis.Redis.from_url(redis_url))
            log = await store.read(match_id)
            assert log[0].action["do"] == "scenario"
            divergence, _ = verify_log(log)
            assert divergence is None, divergence
            await store.redis.aclose()
            for c in clients:
                await c.close()

    run(body())
