"""A log shorter than the match a server holds (Redis lost entries it had acknowledged:
``appendfsync everysec`` with a write postponed behind a slow fsync, then a crash; a failover
to a replica that was behind). The log is the truth: the server folds the match again from
it, sends both seats the position it holds, and the duel goes on from there. Before, every
action was refused as stale for ever (``make faults``, Redis SIGKILL under ``everysec``)."""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import NamedTuple

import redis.asyncio as aioredis
from duel_helpers import choose, play_until, run, running_server, start_match, url_of, wait_for_turn

from protocol.messages import Accepted, Rejected, Spectate, Spectating, Update
from server import rules
from server.clients.client import DuelClient
from server.process.app import DuelServer
from server.storage import keys
from server.storage.entry import LogEntry


async def lose(client: aioredis.Redis, match_id: str, tail: list[LogEntry]) -> None:
    """Redis loses the last entries of a match's log, and the action ids they recorded, as a
    crash would: the stream's top id goes back with them."""
    for entry in tail:
        await client.xdel(keys.log_key(match_id), f"{entry.seq}-0")
        await client.hdel(keys.actions_key(match_id), f"{entry.seat}:{entry.client_action_id}")
    await client.execute_command("XSETID", keys.log_key(match_id), f"{tail[0].seq - 1}-0")


class Spectated(NamedTuple):
    client: aioredis.Redis  # straight to the Redis both servers use
    rnd: random.Random
    s1: DuelServer  # holds the seats
    s2: DuelServer  # holds only the spectator: it never appends to the match
    a: DuelClient
    b: DuelClient
    watcher: DuelClient
    match_id: str


@contextlib.asynccontextmanager
async def _spectated(redis_url: str, tmp_path: Path, seed: int, upto: int = 12) -> AsyncIterator[Spectated]:
    """A duel whose seats are on one server and a spectator on another, played to ``upto``
    entries, and the spectator there too; the clients are closed at the end."""
    client = aioredis.Redis.from_url(redis_url)
    rnd = random.Random(seed)
    async with running_server(redis_url, tmp_path) as s1, running_server(redis_url, tmp_path) as s2:
        a, b, match_id, _ = await start_match(url_of(s1))
        watcher = await DuelClient.connect(url_of(s2), "S")
        await watcher.send(Spectate(match_id=match_id))
        await watcher.expect(Spectating)
        await play_until([a, b], upto, lambda legal: choose(legal, rnd))
        await _reach(watcher, upto)
        yield Spectated(client, rnd, s1, s2, a, b, watcher, match_id)
        for c in (a, b, watcher):
            await c.close()
    await client.aclose()


async def _reach(client: DuelClient, seq: int, state_hash: str | None = None) -> None:
    """Wait (3 s at most) for ``client`` to be at ``seq`` (with ``state_hash``, if given)."""
    for _ in range(300):
        if client.seq == seq and (state_hash is None or client.state_hash == state_hash):
            return
        await asyncio.sleep(0.01)
    assert (client.seq, client.state_hash) == (seq, state_hash or client.state_hash)


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
            await lose(client, match_id, log[-2:])
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


def test_a_process_that_only_watches_follows_the_log_after_it_forked(redis_url: str, tmp_path: Path) -> None:
    """A spectator on a second process, which never appends to the match: when the log forks
    from what that process followed (the seats' process went on from the shorter log), the
    first entry that does not fold to its recorded hash there makes it fold the match again,
    and the spectator is sent the position the log holds."""

    async def body() -> None:
        async with _spectated(redis_url, tmp_path, 12) as (client, rnd, s1, s2, a, b, watcher, match_id):
            log = await s1.store.read(match_id)
            # the newest entry k that moved a card, whose seat had another kind of action leading to
            # another state: the log loses entries k.. and goes on with that action, so that it
            # forks from what s2 holds
            states, state = [], None
            for e in log:
                state = rules.fold(e.facts, state)
                states.append(state)
            pick = None
            for k in range(12, 2, -1):
                took = log[k - 1]
                options = rules.legal_actions(states[k - 2], took.seat)
                if took.action["do"] not in ("summon", "set", "activate", "attack"):
                    continue  # a lost move that changes the board, so that the branches stay apart
                for i, option in enumerate(options):
                    if option["do"] not in ("concede", took.action["do"]):
                        _, after = rules.decide_state(states[k - 2], took.seat, option)
                        if rules.state_hash(after) != took.state_hash:
                            pick = i
                            break
                if pick is not None:
                    break
            assert pick is not None, "no other way in the last entries"
            await lose(client, match_id, log[k - 1 :])
            actor = await wait_for_turn([a, b])
            assert actor is not None
            assert isinstance(await actor.act(choose(actor.legal, rnd)), Rejected)  # s1 folds again
            actor = await wait_for_turn([a, b])
            assert actor is not None and actor.seq == k - 1
            assert actor.legal[pick]["do"] == options[pick]["do"]  # the same list, in aliases
            assert isinstance(await actor.act(actor.legal[pick]), Accepted)
            await play_until([a, b], 14, lambda legal: choose(legal, rnd))
            log = await s1.store.read(match_id)
            await _reach(watcher, 14, log[-1].state_hash)
            watched = s2.service.cached(match_id)
            assert watched is not None and rules.state_hash(watched.state) == log[-1].state_hash
            assert "duel_log_regressions_total 1" in s2.metrics.render()

    run(body())


def test_a_process_that_only_watches_goes_back_when_a_bell_rings_again_for_a_seq(
    redis_url: str, tmp_path: Path
) -> None:
    """The log loses entries 11 and 12, and the seats' process appends one entry at 11 again and
    no more: the log never passes 12, the seq the spectator's process holds. The bell for 11,
    heard a second time, makes that process check its position against the log and fold the
    match again (before, the spectator stayed at 12 for ever, on entries the log no longer had)."""

    async def body() -> None:
        async with _spectated(redis_url, tmp_path, 13) as (client, rnd, s1, s2, a, b, watcher, match_id):
            log = await s1.store.read(match_id)
            await lose(client, match_id, log[-2:])
            actor = await wait_for_turn([a, b])
            assert actor is not None
            assert isinstance(await actor.act(choose(actor.legal, rnd)), Rejected)  # s1 folds again: at 10
            actor = await wait_for_turn([a, b])
            assert actor is not None and actor.seq == 10
            assert isinstance(await actor.act(choose(actor.legal, rnd)), Accepted)  # 11, again
            log = await s1.store.read(match_id)
            assert log[-1].seq == 11
            await _reach(watcher, 11, log[-1].state_hash)
            watched = s2.service.cached(match_id)
            assert watched is not None and (watched.seq, watched.state_hash) == (11, log[-1].state_hash)
            assert "duel_log_regressions_total 1" in s2.metrics.render()
            # and the spectator's process follows the duel on from there
            await play_until([a, b], 13, lambda legal: choose(legal, rnd))
            log = await s1.store.read(match_id)
            await _reach(watcher, 13, log[-1].state_hash)

    run(body())


def test_processes_check_their_matches_against_the_log_when_they_subscribe_again(
    redis_url: str, tmp_path: Path
) -> None:
    """Redis loses the last entries of a match and nobody acts: when the processes' bell
    listeners subscribe again (they are cut off, as a Redis restart cuts them), each checks the
    matches it holds against the log and sends its watchers the position the log holds."""

    async def body() -> None:
        async with _spectated(redis_url, tmp_path, 14) as (client, rnd, s1, s2, a, b, watcher, match_id):
            await wait_for_turn([a, b])
            log = await s1.store.read(match_id)
            await lose(client, match_id, log[-2:])
            await asyncio.sleep(0.1)
            assert watcher.seq == 12  # nothing tells anyone yet
            await client.execute_command("CLIENT", "KILL", "TYPE", "pubsub")
            for c in (a, b, watcher):
                await _reach(c, 10, log[-3].state_hash)
            for s in (s1, s2):
                assert "duel_log_regressions_total 1" in s.metrics.render()
            actor = await wait_for_turn([a, b])
            assert actor is not None and actor.seq == 10
            assert isinstance(await actor.act(choose(actor.legal, rnd)), Accepted)

    run(body())
