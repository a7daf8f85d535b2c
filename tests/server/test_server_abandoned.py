"""Abandoned matches and per-address creation limits (issue 34, finding 2 and part of 5).

Real Redis, real websockets. Before the fix:

* every abandoned vs-bot match kept the server's bot connection open for ever, counted
  against the client's address: once the bots of one address filled its connection limit
  (256; 8 here), every client from that address was refused (HTTP 429) and every later bot
  failed to join;
* a waiting match nobody joined stayed in the lobby list for ever, and one address could
  create as many as it liked (2,000 in 2.3 s).

Per-address figures use a trusted proxy's X-Forwarded-For to give clients their own addresses.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable
from pathlib import Path

import pytest
import redis.asyncio as aioredis
from duel_helpers import SECRET, run, running_server, url_of
from websockets.exceptions import InvalidStatus

from protocol import errors as E
from protocol.messages import (
    CreateMatch,
    Error,
    Join,
    ListMatches,
    MatchList,
    QuickMatch,
    Reconnect,
    Seated,
    Update,
)
from server.clients.client import DuelClient
from server.lobby.tokens import SeatTokens
from server.process.app import DuelServer
from server.runtime.limits import SERVER_OWNED
from server.storage import keys

TOKENS = SeatTokens(SECRET)


def rid() -> str:
    return secrets.token_urlsafe(18)


async def until(check: Callable[[], bool], what: str, timeout: float = 20.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not check():
        assert loop.time() < deadline, f"not within {timeout} s: {what}"
        await asyncio.sleep(0.02)


def both_seated(c: DuelClient) -> Callable[[], bool]:
    """Has ``c`` been told that both seats are connected?"""
    return lambda: c.presence == [True, True]


def bot_connections(server: DuelServer) -> int:
    """The server's own connections (its bots) open now."""
    return sum(1 for s in server.sessions if s.address == SERVER_OWNED)


async def client_from(server: DuelServer, address: str, name: str) -> DuelClient:
    """A client whose address, as the server counts it, is ``address`` (the test's proxy says so)."""
    return await DuelClient.connect(url_of(server), name, headers={"X-Forwarded-For": address})


async def listed(c: DuelClient) -> set[str]:
    await c.send(ListMatches(status="live", limit=200))
    return {row["match_id"] for row in (await c.expect(MatchList)).matches}


async def until_view(c: DuelClient) -> None:
    while c.view is None:
        await c.expect(Update, timeout=20)


def test_abandoned_vs_bot_matches_leave_no_bot_behind_and_do_not_lock_the_address_out(
    redis_url: str, tmp_path: Path
) -> None:
    """30 times: connect, hello, create a vs-bot match, close (an address limit of 8). Every
    connection is let in (the bots count against no address), every bot leaves its abandoned
    match, and afterwards a client from that address connects and plays against a new bot."""
    abandoned = 30

    async def body() -> None:
        async with running_server(
            redis_url, tmp_path, bot_think=0.0, max_connections_per_address=8, bot_abandoned_after=0.3
        ) as server:
            most_bots = 0
            matches = []
            for i in range(abandoned):
                c = await DuelClient.connect(url_of(server), f"leaver{i}")  # refused (429) before the fix, from the 9th
                await c.send(CreateMatch(opponent="bot", request_id=rid()))
                matches.append((await c.expect(Seated)).match_id)
                await c.close()
                most_bots = max(most_bots, bot_connections(server))
            assert most_bots > 0  # the bots were there, and counted apart
            await until(lambda: bot_connections(server) == 0 and len(server.bot_seats) == 0, "every bot left")
            assert not server.addresses.full("127.0.0.1")
            assert server.metrics.render().count("duel_bots_running 0") == 1
            # the address is not locked out, and the bot still plays
            me = await DuelClient.connect(url_of(server), "me")
            await me.send(CreateMatch(opponent="bot", name="Me"))
            seated = await me.expect(Seated)
            await until_view(me)
            await until(both_seated(me), "the new bot is seated")
            start = me.seq
            while me.seq < start + 6:  # both seats act: the duel goes on
                if me.legal:
                    await me.act(next((a for a in me.legal if a["do"] != "concede"), me.legal[0]))
                else:
                    me.changed.clear()
                    await asyncio.wait_for(me.changed.wait(), 20)
            assert bot_connections(server) == 1
            # a bot ends with its match
            await me.act({"do": "concede"})
            await until(lambda: len(server.bot_seats) == 0 and bot_connections(server) == 0, "the bot ended")
            await me.close()
            # an abandoned match's player who comes back gets the bot back
            back = await DuelClient.connect(url_of(server), "back")
            await back.send(Reconnect(token=TOKENS.issue(matches[-1], 0)))
            await back.expect(Seated)
            await until(both_seated(back), "the bot is seated again")
            assert bot_connections(server) == 1 and seated.match_id != matches[-1]
            await back.close()
            await until(lambda: bot_connections(server) == 0, "the bot left again")

    run(body())


def test_the_bot_returns_when_its_player_came_back_as_it_was_leaving(redis_url: str, tmp_path: Path) -> None:
    """The player comes back at once, again and again, while the bot may be on its way out:
    each time, the player ends up with the bot seated (never alone in the match)."""

    async def body() -> None:
        async with running_server(redis_url, tmp_path, bot_think=0.0, bot_abandoned_after=0.05) as server:
            me = await DuelClient.connect(url_of(server), "me")
            await me.send(CreateMatch(opponent="bot"))
            seated = await me.expect(Seated)
            await until_view(me)
            for i in range(8):
                await me.close()
                await asyncio.sleep(0.01 * i)  # around the bot's 50 ms
                me = await DuelClient.connect(url_of(server), f"me{i}")
                await me.send(Reconnect(token=seated.token))
                await me.expect(Seated)
                await until(both_seated(me), f"the bot is back (round {i})")
            await me.close()

    run(body())


def test_a_waiting_match_whose_creator_left_expires_and_one_whose_creator_came_back_stays(
    redis_url: str, tmp_path: Path
) -> None:
    async def body() -> None:
        redis = aioredis.Redis.from_url(redis_url)
        async with running_server(redis_url, tmp_path, waiting_grace=0.5, waiting_sweep_every=0.1) as server:
            leaver = await DuelClient.connect(url_of(server), "leaver")
            await leaver.send(CreateMatch(request_id=rid()))
            gone = (await leaver.expect(Seated)).match_id
            stayer = await DuelClient.connect(url_of(server), "stayer")
            await stayer.send(QuickMatch(request_id=rid()))  # a quick-match waiter's match too
            kept = await stayer.expect(Seated)
            watcher = await DuelClient.connect(url_of(server), "watcher")
            assert {gone, kept.match_id} <= await listed(watcher)
            await leaver.close()
            await stayer.close()
            stayer = await DuelClient.connect(url_of(server), "stayer-again")  # within the grace
            await stayer.send(Reconnect(token=kept.token))
            await stayer.expect(Seated)
            for _ in range(500):
                if not await redis.exists(keys.meta_key(gone)):
                    break
                await asyncio.sleep(0.02)
            assert not await redis.exists(keys.meta_key(gone))
            await asyncio.sleep(1.0)  # two graces more: the match whose creator came back is still there
            now = await listed(watcher)
            assert gone not in now and kept.match_id in now
            assert await redis.zscore(keys.LOBBY_WAITING, gone) is None
            assert await redis.zscore(keys.LOBBY_MATCHES, gone) is None
            joiner = await DuelClient.connect(url_of(server), "joiner")
            await joiner.send(Join(match_id=gone))
            assert (await joiner.expect(Error)).code == E.MATCH_NOT_FOUND
            assert server.metrics.render().count('duel_matches_expired_total{why="left"}') == 1
            # the kept one is played as ever
            await joiner.send(Join(match_id=kept.match_id))
            assert (await joiner.expect(Seated)).started
            for c in (stayer, watcher, joiner):
                await c.close()
        await redis.aclose()

    run(body())


def test_a_waiting_match_expires_after_its_time_to_live_and_its_creator_is_told(redis_url: str, tmp_path: Path) -> None:
    async def body() -> None:
        async with running_server(redis_url, tmp_path, waiting_ttl=0.5, waiting_sweep_every=0.1) as server:
            creator = await DuelClient.connect(url_of(server), "creator")
            await creator.send(CreateMatch(request_id=rid()))
            match_id = (await creator.expect(Seated)).match_id
            told = await creator.expect(Error, timeout=20)
            assert told.code == E.MATCH_EXPIRED and told.fatal
            await until(lambda: creator.closed, "the creator's connection is closed")
            assert creator.ws.close_code == 1000
            watcher = await DuelClient.connect(url_of(server), "watcher")
            assert match_id not in await listed(watcher)
            await watcher.close()

    run(body())


def test_one_address_may_have_so_many_matches_waiting_and_create_so_many_a_minute(
    redis_url: str, tmp_path: Path
) -> None:
    async def body() -> None:
        redis = aioredis.Redis.from_url(redis_url)
        async with running_server(
            redis_url,
            tmp_path,
            bot_think=0.0,
            trusted_proxies=("127.0.0.1",),
            address_waiting_matches=2,
            address_matches_per_minute=3,
        ) as server:
            # waiting: two at once from 198.51.100.1; a third create, or a quick match, is refused
            waiting = []
            for i in range(2):
                c = await client_from(server, "198.51.100.1", f"w{i}")
                await c.send(CreateMatch(request_id=rid()))
                waiting.append((c, await c.expect(Seated)))
            third = await client_from(server, "198.51.100.1", "w2")
            refused_request = rid()
            await third.send(CreateMatch(request_id=refused_request))
            err = await third.expect(Error)
            assert err.code == E.RATE_TOO_MANY_WAITING and "at most 2 matches" in err.reason
            assert not await redis.exists(keys.meta_key(TOKENS.match_id_for(refused_request)))  # nothing made
            await third.send(QuickMatch(request_id=rid()))
            assert (await third.expect(Error)).code == E.RATE_TOO_MANY_WAITING
            # another address is not concerned
            other = await client_from(server, "198.51.100.2", "other")
            await other.send(CreateMatch(request_id=rid()))
            await other.expect(Seated)
            # once one of its matches started, the address may create again (the retried request)
            joiner = await client_from(server, "198.51.100.2", "joiner")
            await joiner.send(Join(match_id=waiting[0][1].match_id))
            assert (await joiner.expect(Seated)).started
            await third.send(CreateMatch(request_id=refused_request))
            assert (await third.expect(Seated)).match_id == TOKENS.match_id_for(refused_request)
            # per minute: 3 created from 198.51.100.1 (one waits now); the fourth is refused
            joiner2 = await client_from(server, "198.51.100.2", "joiner2")
            await joiner2.send(Join(match_id=waiting[1][1].match_id))
            assert (await joiner2.expect(Seated)).started
            late = await client_from(server, "198.51.100.1", "late")
            await late.send(CreateMatch(opponent="bot", request_id=rid()))
            err = await late.expect(Error)
            assert err.code == E.RATE_CREATE_LIMITED and "at most 3 new matches a minute" in err.reason
            # a retry of a request that passed is not counted again
            again = await client_from(server, "198.51.100.1", "again")
            await again.send(CreateMatch(request_id=refused_request))
            assert (await again.expect(Seated)).match_id == TOKENS.match_id_for(refused_request)
            for c in (third, other, joiner, joiner2, late, again, *(c for c, _ in waiting)):
                await c.close()
        await redis.aclose()

    run(body())


def test_a_client_cannot_pass_for_the_servers_bot(redis_url: str, tmp_path: Path) -> None:
    """The header that marks the server's own connections is checked against the process's key:
    a client sending it with any other value is counted against its address as ever."""

    async def body() -> None:
        async with running_server(redis_url, tmp_path, max_connections_per_address=2) as server:
            header = {"X-Duel-Server-Seat": "guess"}
            held = [await DuelClient.connect(url_of(server), f"c{i}", headers=header) for i in range(2)]
            with pytest.raises(InvalidStatus) as refused:
                await DuelClient.connect(url_of(server), "c2", headers=header)
            assert refused.value.response.status_code == 429
            assert bot_connections(server) == 0
            for c in held:
                await c.close()

    run(body())
