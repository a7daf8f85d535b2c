"""A scenario file served as a match (``duel scenario --serve``)."""

from __future__ import annotations

import random
from pathlib import Path

import redis.asyncio as aioredis
import yaml
from duel_helpers import choose, run, running_server, url_of, wait_for_turn

from engine.facts import Setup
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


def test_a_goat_scenario_is_served_under_goat_rules(redis_url: str, tmp_path: Path) -> None:
    """``duel_format: goat`` goes into the puzzle's genesis entry: the match is played (the first
    player draws in turn 1, ruling FMT-1) and verified under the Goat rules."""
    doc = yaml.safe_load((SCENARIOS / "formats" / "fmt1-goat-first-player-draws.yaml").read_text("utf-8"))

    async def body() -> None:
        async with running_server(redis_url, tmp_path) as server:
            match_id, tokens = await create_puzzle_match(server, doc)
            clients = []
            for seat, token in enumerate(tokens):
                c = await DuelClient.connect(url_of(server), "AB"[seat])
                await c.send(Reconnect(token=token, last_seq=0))
                await c.expect(Seated)
                await c.expect(Update)
                clients.append(c)
            while clients[0].view is None or clients[0].view["turn"] < 1:
                actor = await wait_for_turn(clients)
                assert actor is not None
                assert isinstance(await actor.act({"do": "pass"}), Accepted)
            a = clients[0].view
            assert a["turn"] == 1 and a["players"][0]["hand_count"] == 6
            store = RedisEventStore(aioredis.Redis.from_url(redis_url))
            log = await store.read(match_id)
            genesis = log[0].facts[0]
            assert isinstance(genesis, Setup) and genesis.options["format"] == "goat"
            divergence, _ = verify_log(log)
            assert divergence is None, divergence
            await store.redis.aclose()
            for c in clients:
                await c.close()

    run(body())
