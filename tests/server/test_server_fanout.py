"""The fan-out's settle checks (server/match/fanout.py): a bell that never arrives is made up
for soon after, and matches left idle stop costing Redis traffic."""

from __future__ import annotations

import asyncio
from pathlib import Path

from duel_helpers import deaf_to, run, running_server, start_match, url_of, wait_for_turn

from protocol.messages import Update
from server.clients.client import bot_choice
from server.match import fanout


def test_an_entry_whose_bell_was_lost_still_reaches_the_other_process(redis_url: str, tmp_path: Path) -> None:
    async def body() -> None:
        async with running_server(redis_url, tmp_path) as s1, running_server(redis_url, tmp_path) as s2:
            a, b, match_id, _ = await start_match(url_of(s1), url_of(s2))
            for s in (s1, s2):
                deaf_to(s, match_id)
            actor = await wait_for_turn([a, b])
            assert actor is not None
            other = b if actor is a else a
            before = other.seq
            reply = await actor.act(bot_choice(actor.legal, __import__("random").Random(1)))
            loop = asyncio.get_running_loop()
            deadline = loop.time() + 20
            while other.seq < before + 1:
                assert loop.time() < deadline, "the entry never reached the other process's client"
                await other.expect(Update, timeout=max(0.01, deadline - loop.time()))
            assert other.seq == getattr(reply, "seq", other.seq)
            for c in (a, b):
                await c.close()

    run(body())


def test_idle_matches_stop_costing_checks(redis_url: str, tmp_path: Path) -> None:
    """Three matches held with watchers and left idle: each is checked at most
    SETTLE_CHECKS times, then never again until something happens in it."""

    async def body() -> None:
        async with running_server(redis_url, tmp_path, poll_interval=0.02) as server:
            clients = []
            for _ in range(3):
                a, b, _mid, _ = await start_match(url_of(server))
                clients += [a, b]
            loop = asyncio.get_running_loop()
            deadline = loop.time() + 30
            while server.fanout._settle:  # every match has run out of checks
                assert loop.time() < deadline, f"still checking: {server.fanout._settle}"
                await asyncio.sleep(0.1)
            checks = server.fanout.checks
            assert 3 <= checks <= 3 * fanout.SETTLE_CHECKS
            await asyncio.sleep(1.0)  # 50 poll intervals
            assert server.fanout.checks == checks, "idle matches are still being checked"
            # activity in one match gives it its checks again
            actor = await wait_for_turn(clients[:2])
            assert actor is not None
            await actor.act(bot_choice(actor.legal, __import__("random").Random(2)))
            while server.fanout.checks == checks:
                assert loop.time() < deadline + 10, "a match in play again was never checked"
                await asyncio.sleep(0.05)
            for c in clients:
                await c.close()

    run(body())


def test_a_process_far_behind_sends_every_missed_entry_when_it_catches_up(redis_url: str, tmp_path: Path) -> None:
    """A spectator's process hears nothing while both seats play on another process (more
    entries than any cache of per-viewer facts would hold); when it catches up, it sends the
    spectator every entry it missed, in order, each once, then the view."""

    async def body() -> None:
        from protocol.messages import Spectate, Spectating
        from server.clients.client import DuelClient

        async with running_server(redis_url, tmp_path) as s1, running_server(redis_url, tmp_path) as s2:
            a, b, match_id, _ = await start_match(url_of(s2))
            watcher = await DuelClient.connect(url_of(s1), "S")
            await watcher.send(Spectate(match_id=match_id))
            await watcher.expect(Spectating)
            await watcher.expect(Update)
            start = watcher.seq
            s1.fanout._schedule = lambda *args, **kw: None  # type: ignore[method-assign]  # deaf, no checks
            rnd = __import__("random").Random(5)
            while max(a.seq, b.seq) < start + 150:
                actor = await wait_for_turn([a, b])
                assert actor is not None, "the duel ended before 150 entries"
                # no attacks: the duel (its deck random) lasts the 150 entries it needs
                peaceful = [act for act in actor.legal if act.get("do") != "attack"] or actor.legal
                await actor.act(bot_choice(peaceful, rnd))
            target = max(a.seq, b.seq)
            await asyncio.sleep(0.2)
            watcher.drain()
            assert watcher.seq == start, "the deaf process sent something"
            await s1.service.sync(match_id)
            got: list[Update] = []
            while not got or got[-1].seq < target:
                got.append(await watcher.expect(Update, timeout=10))
            assert [u.seq for u in got] == list(range(start + 1, target + 1))
            assert got[-1].view is not None and all(u.view is None for u in got[:-1])
            for c in (a, b, watcher):
                await c.close()

    run(body())


def test_a_spectator_far_behind_gets_a_snapshot_not_more_frames_than_its_queue(redis_url: str, tmp_path: Path) -> None:
    """A catch-up is sent at once, one frame per missed entry: one longer than the outgoing
    queue dropped the client as too slow, and the same request after its reconnect dropped it
    again, for ever. Past half the queue it is a snapshot."""

    async def body() -> None:
        from protocol.messages import Spectate, Spectating
        from server.clients.client import DuelClient

        async with running_server(redis_url, tmp_path, out_queue=16) as server:
            a, b, match_id, _ = await start_match(url_of(server))
            rnd = __import__("random").Random(8)
            while max(a.seq, b.seq) < 40:
                actor = await wait_for_turn([a, b])
                assert actor is not None, "the duel ended before 40 entries"
                await actor.act(bot_choice(actor.legal, rnd))
            watcher = await DuelClient.connect(url_of(server), "S")
            await watcher.send(Spectate(match_id=match_id, last_seq=1))
            await watcher.expect(Spectating)
            first = await watcher.expect(Update)
            assert first.snapshot and first.seq == max(a.seq, b.seq) and first.view is not None
            assert server.metrics.get("duel_slow_clients_dropped_total") == 0
            for c in (a, b, watcher):
                await c.close()

    run(body())


def test_a_bell_that_rings_while_a_watcher_attaches_is_not_lost(redis_url: str, tmp_path: Path) -> None:
    """A process holding a match without watchers yet (one attaching: the creator's seat, a
    spectator, a reconnecting seat) read the log, then another process appended and rang; the
    bell found no watcher and was dropped, the new watcher was caught up to the entry before,
    and the entry waited for a settle check, 22-38 s away. Found by the benchmark of duels with
    their seats on two processes: now and then the joiner's process appended the genesis entry
    while the creator's seat was still attaching, and that duel stalled for 30 s (one round in
    two at 0.18-0.22x its throughput). The bell now waits for the attach, then syncs."""

    async def body() -> None:
        from protocol.messages import Spectate, Spectating
        from server.clients.client import DuelClient
        from server.storage.entry import LogEntry

        async with running_server(redis_url, tmp_path) as s1, running_server(redis_url, tmp_path) as s2:
            a, b, match_id, _ = await start_match(url_of(s1))
            actor = await wait_for_turn([a, b])
            assert actor is not None
            before = actor.seq
            real_read = s2.service.store.read
            rang = asyncio.Event()
            reads = 0

            async def read_then_let_the_other_process_append(
                mid: str, after: int = 0, limit: int | None = None
            ) -> list[LogEntry]:
                nonlocal reads
                entries = await real_read(mid, after, limit)
                reads += mid == match_id
                if reads == 2 and not rang.is_set():  # loading the match, then the attach's own read
                    rang.set()
                    await actor.act(bot_choice(actor.legal, __import__("random").Random(3)))
                    await asyncio.sleep(0.3)  # the bell reaches s2 while the attach still holds the match
                return entries

            s2.service.store.read = read_then_let_the_other_process_append  # type: ignore[method-assign]
            watcher = await DuelClient.connect(url_of(s2), "S")
            await watcher.send(Spectate(match_id=match_id))
            await watcher.expect(Spectating)
            first = await watcher.expect(Update)
            assert rang.is_set() and first.seq == before, "the spectator attached before the append"
            nxt = await watcher.expect(Update, timeout=5)  # not after a settle check, 22-38 s away
            assert nxt.seq == before + 1
            for c in (a, b, watcher):
                await c.close()

    run(body())


def test_the_bell_of_an_append_still_in_flight_starts_no_catch_up(redis_url: str, tmp_path: Path) -> None:
    """Under load an append's bell often comes before its reply (the reply waits behind other
    traffic on the command connection, and the match cannot go ahead while Redis appends). That
    bell announces this process's own entry: it must start no catch-up (a task that would wait
    for the match's lock only to find nothing to read), and the entry still reaches both seats."""

    async def body() -> None:
        async with running_server(redis_url, tmp_path) as server:
            a, b, match_id, _ = await start_match(url_of(server))
            service, fan = server.service, server.fanout
            service._go_ahead = lambda *args, **kw: None  # type: ignore[method-assign]  # as when not quiet
            real_begin = service.store.begin_append
            heard = asyncio.Event()
            catch_ups: list[int | None] = []
            real_sync = fan._sync

            async def counted_sync(mid: str, seq: int | None) -> None:
                catch_ups.append(seq)
                await real_sync(mid, seq)

            def late_reply(*args: object, **kw: object) -> object:
                heard.clear()
                appending = real_begin(*args, **kw)  # type: ignore[arg-type]

                async def after_the_bell() -> object:
                    result = await appending
                    await asyncio.wait_for(heard.wait(), timeout=5)  # the bell came first
                    return result

                return after_the_bell()

            real_ring = fan._ring

            def ring(mid: str, data: object) -> None:
                real_ring(mid, data)
                if isinstance(data, bytes) and data.isdigit():  # an entry's bell (not presence)
                    heard.set()

            fan._sync = counted_sync  # type: ignore[method-assign]
            fan._ring = ring  # type: ignore[method-assign]
            service.store.begin_append = late_reply  # type: ignore[method-assign]
            rnd = __import__("random").Random(3)
            for _ in range(5):
                actor = await wait_for_turn([a, b])
                assert actor is not None
                reply = await actor.act(bot_choice(actor.legal, rnd))
                seq = getattr(reply, "seq", None)
                assert seq is not None, f"the action was not accepted: {reply!r}"
                for c in (a, b):
                    while c.seq < seq:
                        await c.expect(Update, timeout=10)
            assert service.cached(match_id) is not None
            assert catch_ups == [], f"bells of this process's own appends started catch-ups: {catch_ups}"
            for c in (a, b):
                await c.close()

    run(body())


def test_a_bell_reaches_only_the_processes_that_hold_its_match(redis_url: str, tmp_path: Path) -> None:
    """Each process subscribes to the bell of each match it holds, not to every match's bell
    (a pattern: every append would reach every process, docs/scaling.md). Redis's own count of
    a channel's subscribers shows who hears it: while both seats are on one process, one; with
    a seat on each, two; once the duel's connections are gone, none."""

    async def body() -> None:
        import redis.asyncio as aioredis

        from server.storage import keys

        direct = aioredis.Redis.from_url(redis_url)

        async def hearing(match_id: str, want: int) -> int:
            channel = keys.bell_channel(match_id)
            loop = asyncio.get_running_loop()
            deadline = loop.time() + 10
            while True:
                got = int(dict(await direct.pubsub_numsub(channel))[channel.encode()])
                if got == want or loop.time() > deadline:
                    return got
                await asyncio.sleep(0.02)

        async with running_server(redis_url, tmp_path) as s1, running_server(redis_url, tmp_path) as s2:
            a, b, one, _ = await start_match(url_of(s1))
            assert await hearing(one, 1) == 1, "one process holds the match: one subscriber"
            c, d, two, _ = await start_match(url_of(s1), url_of(s2))
            assert await hearing(two, 2) == 2, "a seat on each process: both hear its bell"
            assert await hearing(one, 1) == 1, "the second process does not hear the first match"
            for client in (a, b, c, d):
                await client.close()
            assert await hearing(one, 0) == 0 and await hearing(two, 0) == 0, "let go: not heard any more"
        await direct.aclose()

    run(body())


def test_an_entry_appended_before_a_process_subscribed_to_its_match_is_caught_up(
    redis_url: str, tmp_path: Path
) -> None:
    """A process starts to hold a match (a spectator attaches: the log is read) and subscribes
    to its bell: an entry appended between the two rang no bell there. Once Redis confirms the
    subscription the process reads the log once more. Here the subscription is held back while
    the other process appends, then sent; the settle checks are off (a poll interval of an
    hour), so only that read can bring the entry to the spectator."""

    async def body() -> None:
        from protocol.messages import Spectate, Spectating
        from server.clients.client import DuelClient
        from server.storage import keys, resp

        async with (
            running_server(redis_url, tmp_path, poll_interval=3600) as s1,
            running_server(redis_url, tmp_path, poll_interval=3600) as s2,
        ):
            a, b, match_id, _ = await start_match(url_of(s2))
            subs = s1.fanout._subs
            transport = subs.transport
            assert transport is not None
            subs.transport = None  # the subscription is not sent yet
            watcher = await DuelClient.connect(url_of(s1), "S")
            await watcher.send(Spectate(match_id=match_id))
            await watcher.expect(Spectating)
            await watcher.expect(Update)
            start = watcher.seq
            assert keys.bell_channel(match_id) in subs.channels
            actor = await wait_for_turn([a, b])
            assert actor is not None
            reply = await actor.act(bot_choice(actor.legal, __import__("random").Random(3)))
            appended = getattr(reply, "seq", 0)
            assert appended == start + 1
            await asyncio.sleep(0.2)
            watcher.drain()
            assert watcher.seq == start, "no bell, no read: the spectator's process is behind"
            subs.transport = transport
            transport.write(resp.encode(("SUBSCRIBE", keys.bell_channel(match_id))))
            got = await watcher.expect(Update, timeout=10)
            assert got.seq == appended, "the subscription's confirmation caught the match up"
            for client in (a, b, watcher):
                await client.close()

    run(body())
