"""Matches of several duels (issue 39): a best of three to its end (2-0, 2-1), the loser's choice
of who goes first honoured, siding validated (an illegal swap refused, nothing changed) and
secret (the opponent learns only the counts), a concession that ends the match, the record that
links the duels' logs, each duel's log replayable alone. Real Redis, real websockets."""

from __future__ import annotations

import asyncio
import json
import random
import signal
import urllib.error
import urllib.request
from pathlib import Path

import redis.asyncio as aioredis
from account_helpers import ask, registered, unique
from duel_helpers import run, running_server, url_of
from match_helpers import at, concede_duel, duel_started, first_update, play_duel, side_cards, start_match, until
from proc_helpers import ServeProcess

from protocol.messages import (
    Accepted,
    ChooseFirst,
    CreateMatch,
    Error,
    GetMatch,
    GetReplay,
    Join,
    MatchState,
    Reconnect,
    ReplayLog,
    Seated,
    SideDeck,
)
from server import rules
from server.clients.client import DuelClient
from server.history.replay import verify_log
from server.storage import keys
from server.storage.entry import LogEntry


def test_best_of_three_two_nil_and_the_loser_chooses(redis_url: str, tmp_path: Path) -> None:
    async def body() -> None:
        async with running_server(redis_url, tmp_path) as server:
            a, b, match_id, _ = await start_match(url_of(server))
            assert a.match is not None and a.match.best_of == 3 and a.match.duel == 1 and a.match.score == [0, 0]
            # duel 1: B gives it up (the duel only)
            await concede_duel(b)
            for c in (a, b):
                await until(c, at("siding", 2))
            m = b.match
            assert m is not None and m.score == [1, 0] and m.chooser == 1 and m.first is None
            assert m.deadline_ms is not None and m.deck is not None
            assert a.match is not None and a.match.chooser == 1
            # duel 1's full replay (both decks) stays closed until the match is over
            assert await http_status(server.port, f"/replays/{match_id}.duelreplay") == 404
            await b.send(GetReplay(match_id=match_id))
            assert (await b.expect(Error)).code == "match/not_finished"
            # the loser (B) chooses to go second: A goes first in duel 2
            err = await a_choose_refused(a)
            assert err.code == "match/not_chooser"
            await b.choose_first(False)
            for c in (a, b):
                await c.keep_deck()
            for c in (a, b):
                await until(c, duel_started(2))
            duel2 = keys.duel_id(match_id, 2)
            assert a.match is not None and a.match.duel_id == duel2
            first = first_update(a, duel2)
            assert first.view is not None and first.view["turn_player"] == 0
            # duel 2: B gives it up again: 2-0, the match is over
            await concede_duel(b)
            for c in (a, b):
                await until(c, lambda c: c.finished)
            m = a.match
            assert m is not None and m.phase == "finished" and m.score == [2, 0]
            assert m.result == {"winner": 0, "reason": "score"}
            assert [d["duel_id"] for d in m.duels] == [match_id, duel2]
            assert all(d["conceded"] == "duel" and len(d["deck_hashes"]) == 2 for d in m.duels)
            assert m.duels[1]["chooser"] == 1 and m.duels[1]["first"] == 0
            # the record lists the duels' replay files; each is served now
            record = json.loads(await http_body(server.port, f"/matches/{match_id}.json"))
            assert record["score"] == [2, 0] and [d["replay"] for d in record["duels"]] == [
                f"/replays/{match_id}.duelreplay",
                f"/replays/{duel2}.duelreplay",
            ]
            assert await http_status(server.port, f"/replays/{duel2}.duelreplay") == 200
            # no third duel was made; each duel's log replays alone
            assert await server.store.last_seq(keys.duel_id(match_id, 3)) == 0
            for duel_id in (match_id, duel2):
                divergence, _state = verify_log(await server.store.read(duel_id))
                assert divergence is None
            for c in (a, b):
                await c.close()

    run(body())


async def http_body(port: int, path: str) -> str:
    def get() -> str:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=10) as r:
            return str(r.read().decode())

    return await asyncio.to_thread(get)


async def http_status(port: int, path: str) -> int:
    def get() -> int:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=10) as r:
                return int(r.status)
        except urllib.error.HTTPError as exc:
            return int(exc.code)

    return await asyncio.to_thread(get)


async def a_choose_refused(a: DuelClient) -> Error:
    await a.send(ChooseFirst(go_first=True))
    return await a.expect(Error)


def test_best_of_three_two_one_played_out_with_a_choice_each_time(redis_url: str, tmp_path: Path) -> None:
    async def body() -> None:
        async with running_server(redis_url, tmp_path) as server:
            a, b, match_id, _ = await start_match(url_of(server))
            # duel 1 played to its end (no concession)
            await play_duel([a, b], random.Random(5))
            for c in (a, b):
                await until(c, lambda c: c.match is not None and c.match.phase != "dueling")
            assert a.view is not None
            w1 = a.view["winner"]
            assert w1 in (0, 1)
            loser = 1 - w1
            clients = (a, b)
            assert a.match is not None and a.match.chooser == loser
            # the loser goes second: the winner goes first
            await clients[loser].choose_first(False)
            for c in clients:
                await c.keep_deck()
            for c in clients:
                await until(c, duel_started(2))
            assert first_update(a, keys.duel_id(match_id, 2)).view["turn_player"] == w1  # type: ignore[index]
            # duel 2: the winner of duel 1 gives it up: 1-1
            await concede_duel(clients[w1])
            for c in clients:
                await until(c, at("siding", 3))
            assert a.match is not None and a.match.score == [1, 1] and a.match.chooser == w1
            await clients[w1].choose_first(True)
            for c in clients:
                await c.keep_deck()
            for c in clients:
                await until(c, duel_started(3))
            assert first_update(b, keys.duel_id(match_id, 3)).view["turn_player"] == w1  # type: ignore[index]
            # duel 3: the loser of duel 1 gives it up: 2-1 to the winner of duel 1
            await concede_duel(clients[loser])
            for c in clients:
                await until(c, lambda c: c.finished)
            m = b.match
            assert m is not None and m.score == ([2, 1] if w1 == 0 else [1, 2])
            assert m.result == {"winner": w1, "reason": "score"}
            assert [d["winner"] for d in m.duels] == [w1, loser, w1]
            assert [d["first"] for d in m.duels][1:] == [w1, w1]
            # the record is there for anyone (get_match), and the full replays open now
            c = a
            c.drain()
            await c.send(GetMatch(match_id=keys.duel_id(match_id, 2)))
            got = await c.expect(MatchState)
            while got.phase != "finished":  # pushes of the match's earlier states may be queued first
                got = await c.expect(MatchState)
            assert got.phase == "finished" and got.deck is None and len(got.duels) == 3
            await c.send(GetReplay(match_id=keys.duel_id(match_id, 3)))
            page = await c.expect(ReplayLog)
            assert page.entries[0]["action"]["match"] == {"id": match_id, "duel": 3, "best_of": 3}
            for c in clients:
                await c.close()

    run(body())


def test_a_concession_ends_the_match(redis_url: str, tmp_path: Path) -> None:
    async def body() -> None:
        async with running_server(redis_url, tmp_path) as server:
            a, b, match_id, _ = await start_match(url_of(server), best_of=5)
            reply = await a.act({"do": "concede"})
            assert isinstance(reply, Accepted)
            for c in (a, b):
                await until(c, lambda c: c.finished)
            m = b.match
            assert m is not None and m.phase == "finished" and m.score == [0, 1]
            assert m.result == {"winner": 1, "reason": "concede"} and m.duels[0]["conceded"] == "match"
            assert await server.store.last_seq(keys.duel_id(match_id, 2)) == 0
            info = await server.directory.get(match_id)
            assert info is not None and info.match_result == {"score": [0, 1], "winner": 1, "reason": "concede"}
            for c in (a, b):
                await c.close()

    run(body())


def test_siding_is_checked_and_secret(redis_url: str, tmp_path: Path) -> None:
    """A's Side Deck holds cards in nobody's deck; an illegal swap is refused with the reason and
    changes nothing; a legal one is played in duel 2; B is told only counts, never a card."""

    async def body() -> None:
        deck_a, deck_b = rules.default_deck(0), rules.default_deck(1)
        side = side_cards(3, set(deck_a) | set(deck_b))
        async with running_server(redis_url, tmp_path) as server:
            a, b, match_id, _ = await start_match(url_of(server), sides=(side, None))
            await concede_duel(a)
            for c in (a, b):
                await until(c, at("siding", 2))
            m = a.match
            assert m is not None and m.deck == deck_a and m.side == side and m.counts[0][2] == 3
            mark = len(b.frames)
            # not one for one: a Side Deck card in, nothing out
            await a.send(SideDeck(deck=[*deck_a, side[0]], side=side[1:]))
            err = await a.expect(Error)
            assert err.code == "deck/invalid" and "one for one" in err.reason
            # a card A never registered
            await a.send(SideDeck(deck=[*deck_a[1:], deck_b[0] if deck_b[0] not in deck_a else 89631139], side=side))
            err = await a.expect(Error)
            assert err.code == "deck/invalid" and "not in the deck and Side Deck you registered" in err.reason
            rec = await server.play.record(match_id)
            assert rec is not None and not rec.ready[0] and list(rec.decks[0].deck) == deck_a
            # a legal swap: the first card of the deck out, side[0] in
            new_deck = [side[0], *deck_a[1:]]
            new_side = [deck_a[0], *side[1:]]
            await a.send(SideDeck(deck=new_deck, side=new_side))
            await until(b, lambda c: c.match is not None and c.match.ready[0])
            assert b.match is not None and b.match.deck == rules.default_deck(1) and b.match.counts[0] == [40, 0, 3]
            await b.keep_deck()  # B chooses (it lost... no: A lost; A chooses)
            await a.choose_first(True)
            for c in (a, b):
                await until(c, duel_started(2))
            duel2 = keys.duel_id(match_id, 2)
            genesis = await server.store.entry(duel2, 1)
            assert genesis is not None and sorted(genesis.action["decks"][0]) == sorted(new_deck)
            # B's frames from the break to duel 2's first update: no card of A's Side Deck in them
            seen = b"".join(b.frames[mark:])
            for code in side:
                assert b"\xce" + code.to_bytes(4, "big") not in seen
            assert not any(isinstance(x, Error) for x in b.inbox)
            for c in (a, b):
                await c.close()

    run(body())


def test_a_server_killed_between_duels_loses_nothing(redis_url: str, tmp_path: Path) -> None:
    """Between duels 1 and 2, A has sided and B has not chosen: the server is SIGKILLed. A new
    server process goes on from the record: A's deck as sided, B's choice, duel 2 started once."""
    workdir = tmp_path / "k"
    first = ServeProcess(workdir, "--redis-url", redis_url).start()

    async def body() -> None:
        client = aioredis.Redis.from_url(redis_url)
        deck_a, deck_b = rules.default_deck(0), rules.default_deck(1)
        side = side_cards(2, set(deck_a) | set(deck_b))
        a, b, match_id, tokens = await start_match(first.url, sides=(side, None))
        await concede_duel(b)
        for c in (a, b):
            await until(c, at("siding", 2))
        new_deck, new_side = [side[0], *deck_a[1:]], [deck_a[0], side[1]]
        await a.send(SideDeck(deck=new_deck, side=new_side))
        await until(b, lambda c: c.match is not None and c.match.ready[0])
        first.stop(signal.SIGKILL)
        second = ServeProcess(workdir, "--redis-url", redis_url).start()
        try:
            a2 = await DuelClient.connect(second.url, "A2")
            b2 = await DuelClient.connect(second.url, "B2")
            for c, token, last in ((a2, tokens[0], a.seq), (b2, tokens[1], b.seq)):
                await c.send(Reconnect(token=token, last_seq=last, duel=1))
                await until(c, at("siding", 2))
            assert a2.match is not None and a2.match.ready == [True, False] and a2.match.deck == new_deck
            assert a2.match.side == new_side and a2.match.chooser == 1
            await b2.choose_first(False)
            await b2.keep_deck()
            for c in (a2, b2):
                await until(c, duel_started(2))
            duel2 = keys.duel_id(match_id, 2)
            rows = await client.xrange(keys.log_key(duel2), count=2)
            assert len(rows) == 1  # its genesis, once
            genesis = LogEntry.from_fields(rows[0][1])
            assert sorted(genesis.action["decks"][0]) == sorted(new_deck) and genesis.action.get("first", 0) == 0
            await concede_duel(b2)
            for c in (a2, b2):
                await until(c, lambda c: c.finished)
            assert a2.match is not None and a2.match.score == [2, 0] and len(a2.match.duels) == 2
            for c in (a, b, a2, b2):
                await c.close()
        finally:
            second.stop()
        await client.aclose()

    try:
        run(body())
    finally:
        if first.proc is not None and first.proc.poll() is None:
            first.stop()


def test_a_rated_best_of_three_is_rated_once_on_the_match(redis_url: str, tmp_path: Path) -> None:
    """Duel 1's end rates nothing; the match's end rates both accounts once, on its winner."""

    async def body() -> None:
        client = aioredis.Redis.from_url(redis_url)
        async with running_server(redis_url, tmp_path) as server:
            url = url_of(server)
            a, _ = await registered(url, unique("Ann"), "a long enough password")
            b, _ = await registered(url, unique("Bob"), "a long enough password")
            seated = await ask(a, CreateMatch(rated=True, best_of=3), Seated)
            assert isinstance(seated, Seated)
            match_id = seated.match_id
            assert isinstance(await ask(b, Join(match_id=match_id), Seated), Seated)
            for c in (a, b):
                await until(c, lambda c: c.view is not None)
            await concede_duel(a)  # duel 1 to B
            for c in (a, b):
                await until(c, at("siding", 2))
            assert server.accounts.rated is not None
            assert await server.accounts.rated.settle(match_id) == "live"
            assert not await client.hexists(keys.RATINGS_APPLIED, match_id)
            for c in (a, b):
                await c.keep_deck()
            for c in (a, b):
                await until(c, duel_started(2))
            await concede_duel(a)  # duel 2 to B: 0-2
            for c in (a, b):
                await until(c, lambda c: c.finished)
            loop = asyncio.get_running_loop()
            deadline = loop.time() + 20
            while not await client.hexists(keys.RATINGS_APPLIED, match_id):
                assert loop.time() < deadline, "the match was not rated"
                await asyncio.sleep(0.05)
            assert await server.accounts.rated.settle(match_id) == "done"
            rows = [f for _id, f in await client.xrange(keys.RATING_LOG, "-", "+") if f[b"match"] == match_id.encode()]
            assert len(rows) == 1 and json.loads(rows[0][b"update"])["winner"] == 1
            logged = {f[b"match"] for _id, f in await client.xrange(keys.RATING_LOG, "-", "+")}
            assert keys.duel_id(match_id, 2).encode() not in logged  # no duel is rated on its own
            for c in (a, b):
                await c.close()
        await client.aclose()

    run(body())


def test_clocks_over_the_whole_match_go_on_from_duel_to_duel(redis_url: str, tmp_path: Path) -> None:
    """``clock_scope: "match"``: duel 2's clocks start where duel 1's ended (recorded in its
    genesis); with the default, each duel's clocks start afresh."""

    async def body() -> None:
        async with running_server(redis_url, tmp_path) as server:
            for scope in ("match", "duel"):
                a, b, match_id, _ = await start_match(url_of(server), clock_ms=600_000, clock_scope=scope)
                await asyncio.sleep(0.3)  # the seat to move spends time on its decision
                actor = a if a.legal else b
                reply = await actor.act(actor.legal[0])
                assert isinstance(reply, Accepted)
                await until(a, lambda c: c.seq >= 2)
                await concede_duel(b)
                for c in (a, b):
                    await until(c, at("siding", 2))
                    await c.keep_deck()
                for c in (a, b):
                    await until(c, duel_started(2))
                genesis = await server.store.entry(keys.duel_id(match_id, 2), 1)
                assert genesis is not None
                clock = genesis.action["clock"]
                if scope == "match":
                    left = clock["left_ms"]
                    assert left[actor.seat or 0] < 600_000 + 1 and min(left) < 600_000
                    first = first_update(a, keys.duel_id(match_id, 2))
                    assert first.clocks == left
                else:
                    assert "left_ms" not in clock
                    assert first_update(a, keys.duel_id(match_id, 2)).clocks == [600_000, 600_000]
                for c in (a, b):
                    await c.close()

    run(body())
