"""Spectator delay: spectators see an entry only once the live log is N
entries past it, and everything once the duel is over; players are not
delayed.  Real websockets, real Redis, two server instances on one Redis
(spectators on both, so the delay holds on the doorbell path too)."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from pathlib import Path

import redis.asyncio as aioredis
from duel_helpers import SECRET, choose, run, running_server, url_of, wait_for_turn

from protocol import errors as E
from protocol.messages import (
    Accepted,
    CreateMatch,
    Error,
    Join,
    ListMatches,
    MatchList,
    Seated,
    Spectate,
    Spectating,
    Sync,
    Update,
)
from server import rules
from server.clients.client import DuelClient
from server.lobby.tokens import SeatTokens
from server.storage.store import RedisEventStore

DELAY = 4


async def until(pred: Callable[[], bool], what: str, timeout: float = 5.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not pred():
        if loop.time() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.002)


def updates(c: DuelClient) -> list[Update]:
    return [m for m in c.inbox if isinstance(m, Update)]


def public_view_at(log: list[object], seq: int, match_id: str) -> tuple[dict[str, object], str]:
    """The spectators' view after entry ``seq`` (with the aliases the servers give them)."""
    vp = rules.viewpoints(SeatTokens(SECRET).alias_key(match_id))
    state = None
    for entry in log[:seq]:
        vp.apply(entry.facts)  # type: ignore[attr-defined]
        state = rules.fold(entry.facts, state)  # type: ignore[attr-defined]
    return vp.view(state, None), rules.state_hash(state)


async def spectate(url: str, name: str, match_id: str, last_seq: int = 0) -> tuple[DuelClient, Spectating]:
    c = await DuelClient.connect(url, name)
    await c.send(Spectate(match_id=match_id, last_seq=last_seq))
    return c, await c.expect(Spectating)


def test_spectators_trail_by_n_entries_and_see_everything_at_the_end(redis_url: str, tmp_path: Path) -> None:
    async def body() -> None:
        store = RedisEventStore(aioredis.Redis.from_url(redis_url))
        rnd = random.Random(77)
        async with running_server(redis_url, tmp_path) as s1, running_server(redis_url, tmp_path) as s2:
            a = await DuelClient.connect(url_of(s1), "A")
            b = await DuelClient.connect(url_of(s1), "B")
            await a.send(CreateMatch(spectator_delay=DELAY))
            match_id = (await a.expect(Seated)).match_id
            # one spectator before the duel starts (server 1), one after (server 2)
            early, hello = await spectate(url_of(s1), "S-early", match_id)
            assert (hello.seq, hello.delay) == (0, DELAY)
            await b.send(Join(match_id=match_id))
            await b.expect(Seated)
            await until(lambda: a.seq == 1 and b.seq == 1, "the genesis update")
            late, hello = await spectate(url_of(s2), "S-late", match_id)
            assert (hello.seq, hello.delay) == (0, DELAY)
            watchers = [early, late]
            seen = {id(s): 0 for s in watchers}

            def check_step(live: int) -> None:
                """No spectator holds an entry that is not DELAY behind ``live``."""
                for s in watchers:
                    new = updates(s)[seen[id(s)] :]
                    seen[id(s)] += len(new)
                    for u in new:
                        assert u.seq <= live - DELAY, f"{s.name} got entry {u.seq} at live seq {live}"
                        assert u.view is None or u.view["you"] is None

            snapshot_checked = False
            live = 1
            for step in range(400):
                # players are live: both are at the log's seq, right away
                assert a.seq == b.seq == live
                if a.finished:
                    break
                target = live - DELAY
                for s in watchers:
                    await until(lambda s=s, t=target: s.seq >= t, f"{s.name} to reach {target}")
                    assert s.seq == max(0, target)
                if target <= 0:
                    await asyncio.sleep(0.05)  # room for a wrongly early frame to show up
                check_step(live)
                if live == 3 * DELAY and not snapshot_checked:
                    snapshot_checked = True
                    log = await store.read(match_id)
                    view, state_hash = public_view_at(log, target, match_id)
                    # a spectator arriving now catches up to the delayed seq only
                    mid, hello = await spectate(url_of(s2), "S-mid", match_id)
                    assert hello.seq == target
                    await until(lambda c=mid: c.view is not None, "S-mid's view")
                    got = updates(mid)
                    assert [u.seq for u in got] == list(range(1, target + 1))
                    assert got[-1].view == view and got[-1].state_hash == state_hash
                    # ... and one that says it has seen that far gets a snapshot of it
                    snap, _ = await spectate(url_of(s1), "S-snap", match_id, last_seq=target)
                    snap_seq = target
                    first = await snap.expect(Update)
                    assert first.snapshot and first.seq == target
                    assert first.view == view and first.state_hash == state_hash
                    # sync resends up to the delayed seq, not further
                    mid.drain()
                    await mid.send(Sync(last_seq=target - 2))
                    resent = [await mid.expect(Update), await mid.expect(Update)]
                    assert [u.seq for u in resent] == [target - 1, target]
                    # the lobby shows the delayed seq too
                    await a.send(ListMatches())
                    row = next(m for m in (await a.expect(MatchList)).matches if m["match_id"] == match_id)
                    assert (row["seq"], row["spectator_delay"]) == (target, DELAY)
                    watchers += [mid, snap]
                    seen[id(mid)], seen[id(snap)] = len(updates(mid)), len(updates(snap))
                actor = await wait_for_turn([a, b])
                if actor is None:
                    break
                action = {"do": "concede"} if step == 300 else choose(actor.legal, rnd)
                reply = await actor.act(action)
                assert isinstance(reply, Accepted), reply
                live = reply.seq
                await until(lambda n=live: a.seq == b.seq == n, "the players' updates")
            assert a.finished and b.finished and snapshot_checked
            assert live > 3 * DELAY
            # the duel is over: every spectator sees it to the end
            for s in watchers:
                await until(lambda s=s: s.seq == live, f"{s.name} to see the end")
                assert s.state_hash == a.state_hash and s.finished
                seqs = {u.seq for u in updates(s) if not u.snapshot}  # a set: S-mid's sync resent two
                first = 1 if s is not snap else snap_seq + 1
                assert sorted(seqs) == list(range(first, live + 1)), s.name
            for s in watchers:
                s.drain()
                await s.send(Sync(last_seq=live - 1))
                assert (await s.expect(Update)).seq == live
            for c in (a, b, *watchers):
                await c.close()
        await store.redis.aclose()

    run(body())


def test_spectator_delay_is_validated(redis_url: str, tmp_path: Path) -> None:
    async def body() -> None:
        async with running_server(redis_url, tmp_path) as server:
            c = await DuelClient.connect(url_of(server), "c")
            await c.send(CreateMatch(spectator_delay=1001))
            assert (await c.expect(Error)).code == E.MESSAGE_BAD_FIELD
            await c.send(CreateMatch(spectator_delay=-1))
            assert (await c.expect(Error)).code == E.MESSAGE_BAD_FIELD
            await c.close()

    run(body())
