"""Quick match per format (issue 37; PROTOCOL.md section 4): ``quick_match.format`` puts a
player in its format's queue; players are paired only within a format, and the paired match is
played under it. Real Redis, real websockets."""

from __future__ import annotations

from pathlib import Path

import redis.asyncio as aioredis
from duel_helpers import run, running_server, url_of

from engine.decks import DECKS_BY_NAME
from protocol.messages import Error, ListMatches, MatchList, QuickMatch, Seated, Update
from server.clients.client import DuelClient
from server.lobby.quick import queue_key
from server.storage import keys
from server.storage.store import RedisEventStore

GOAT = DECKS_BY_NAME["goat-control-flc22"]
CURRENT = DECKS_BY_NAME["battle-step"]


async def _queued(redis: aioredis.Redis, fmt: str) -> list[str]:
    return [m.decode() for m in await redis.zrange(queue_key(fmt), 0, -1)]


async def _first_update(c: DuelClient) -> Update:
    while True:
        msg = await c.expect(Update, timeout=15)
        if msg.view is not None:
            return msg


def test_quick_match_pairs_only_players_of_the_same_format(redis_url: str, tmp_path: Path) -> None:
    async def body() -> None:
        redis = aioredis.Redis.from_url(redis_url)
        # players other tests left waiting (still "connected" for a few seconds) are not ours
        await redis.delete(queue_key("current"), queue_key("goat"))
        assert queue_key("current") == keys.QUICK_QUEUE and "{lobby}" in queue_key("goat")
        async with running_server(redis_url, tmp_path) as server:
            url = url_of(server)
            ann, cid, bob, dan = [await DuelClient.connect(url, n) for n in ("ann", "cid", "bob", "dan")]
            # a Goat player waits in the Goat queue (with a Goat list of its own)
            await ann.send(QuickMatch(format="goat", deck=GOAT.codes(), name="Ann"))
            a = await ann.expect(Seated)
            assert a.seat == 0 and not a.started
            assert await _queued(redis, "goat") == [a.match_id]
            # a player of the default format is not paired with it: it waits in its own queue
            await cid.send(QuickMatch(name="Cid"))
            c = await cid.expect(Seated)
            assert c.seat == 0 and not c.started and c.match_id != a.match_id
            assert await _queued(redis, "current") == [c.match_id]
            assert await _queued(redis, "goat") == [a.match_id]
            # a second Goat player (the format's demo deck) is paired with the first
            await bob.send(QuickMatch(format="goat", name="Bob"))
            b = await bob.expect(Seated)
            assert (b.match_id, b.seat, b.started) == (a.match_id, 1, True)
            assert await _queued(redis, "goat") == []
            # and a second player of the default format with the other waiting one
            await dan.send(QuickMatch(format="current", deck=CURRENT.codes(), name="Dan"))
            d = await dan.expect(Seated)
            assert (d.match_id, d.seat) == (c.match_id, 1)
            assert await _queued(redis, "current") == []
            # the Goat pair plays under Goat rules: the first player draws in turn 1 (6 cards),
            # each side has its Fusion Deck; the other pair under the default rules (5 cards)
            goat_view = (await _first_update(ann)).view
            assert goat_view is not None
            first = goat_view["turn_player"]
            assert goat_view["players"][first]["hand_count"] == 6
            assert goat_view["players"][0]["extra_count"] == len(GOAT.extra_codes())
            current_view = (await _first_update(cid)).view
            assert current_view is not None
            assert current_view["players"][current_view["turn_player"]]["hand_count"] == 5
            await ann.send(ListMatches(status="live"))
            rows = {r["match_id"]: r for r in (await ann.expect(MatchList)).matches}
            assert rows[a.match_id]["format"] == "goat" and rows[a.match_id]["players"] == ["Ann", "Bob"]
            assert rows[c.match_id].get("format", "current") == "current"
            store = RedisEventStore(redis)
            genesis = (await store.read(a.match_id))[0].action
            assert genesis["format"] == "goat" and sorted(genesis["extra"][0]) == sorted(GOAT.extra_codes())
            assert "format" not in (await store.read(c.match_id))[0].action
            for cl in (ann, bob, cid, dan):
                await cl.close()
        await redis.aclose()

    run(body())


def test_a_quick_match_deck_is_checked_against_its_format(redis_url: str, tmp_path: Path) -> None:
    async def body() -> None:
        redis = aioredis.Redis.from_url(redis_url)
        await redis.delete(queue_key("goat"))
        async with running_server(redis_url, tmp_path) as server:
            c = await DuelClient.connect(url_of(server), "eve")
            for request, words in (
                (QuickMatch(format="goat", deck=CURRENT.codes()), "is not in the Goat (April 2005) card pool"),
                (QuickMatch(format="edison"), "no format 'edison'; the formats are: current, goat"),
            ):
                await c.send(request)
                err = await c.expect(Error)
                assert err.code == "deck/invalid" and words in err.reason, err.reason
            # nothing was queued or created; the connection is still free to queue
            assert await _queued(redis, "goat") == []
            assert await redis.zcard(queue_key("edison")) == 0
            await c.send(QuickMatch(format="goat"))
            s = await c.expect(Seated)
            assert await _queued(redis, "goat") == [s.match_id]
            await c.close()
        await redis.aclose()

    run(body())
