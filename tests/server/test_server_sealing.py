"""Sealed logs (issue 14, Redis memory per finished duel): a finished match's entries but the
last, moved byte for byte into one compressed segment. Every reader must get the same entries
as before, the append's checks must hold as before, and a seal must never lose or change an
entry, whatever happens around it. Real Redis, and the server over real websockets."""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import redis.asyncio as aioredis
import redis.exceptions
import structlog.testing
from duel_helpers import SECRET, run, running_server, url_of
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from test_server_archive import played_match
from test_server_finished_memory import recorded_finished
from test_server_store import entry

from protocol.messages import Reconnect, Seated, Update
from server.clients.client import DuelClient
from server.history import archive
from server.match import sealing, snapshots
from server.match.directory import MatchDirectory
from server.match.matches import MatchService
from server.match.sealing import Sealer
from server.runtime.metrics import Metrics
from server.storage import keys, resp, store
from server.storage.store import LogGapError, RedisEventStore, action_key

REPO = Path(__file__).resolve().parents[2]


def new_match() -> str:
    return "s" + secrets.token_hex(6)


async def filled(st: RedisEventStore, n: int) -> str:
    m = new_match()
    for seq in range(1, n + 1):
        got = await st.append(m, entry(seq, client_action_id=f"c{seq}"), action_key(0, f"c{seq}"), f"fp{seq}")
        assert got.status == "ok"
    return m


@pytest.mark.parametrize("lean", [False, True], ids=["redis-py", "lean pipe"])
def test_a_sealed_log_reads_as_it_did_and_appends_as_it_did(redis_url: str, lean: bool) -> None:
    async def body() -> None:
        client = aioredis.Redis.from_url(redis_url)
        pipe = resp.Pipe(redis_url) if lean else None
        st = RedisEventStore(client, pipe)
        n = store.READ_BATCH * 2 + 37  # reads cross batches, in the segment and out of it
        m = await filled(st, n)
        before = await st.read(m)
        await st.put_snapshot(m, 1000, b"a long log keeps its snapshot")
        probes = [(0, None), (0, 1), (1, 5), (n - 2, None), (n - 1, None), (n, None), (498, 600), (250, 3)]
        reads = {p: await st.read(m, after=p[0], limit=p[1]) for p in probes}

        sealed = await st.seal(m)
        assert sealed.status == "ok" and sealed.seq == n and sealed.compact
        assert await client.xlen(keys.log_key(m)) == 1  # the stream keeps the last entry only
        assert await client.memory_usage(keys.log_key(m)) < 2048  # restored: not a 4 KiB node
        assert not await client.exists(keys.sealing_key(m))
        segment = await client.get(keys.sealed_key(m))
        assert segment is not None and len(segment) == sealed.sealed_bytes < sealed.raw_bytes
        assert await st.read(m) == before
        for (after, limit), want in reads.items():
            assert await st.read(m, after=after, limit=limit) == want, (after, limit)
        for seq in (1, 2, 500, 501, n - 1, n):
            assert await st.entry(m, seq) == before[seq - 1]
        assert await st.entry(m, n + 1) is None and await st.entry(m, 0) is None
        assert await st.last_seq(m) == n and await st.length(m) == n
        assert await st.newest_snapshot(m) == (1000, b"a long log keeps its snapshot")  # n >= SNAPSHOTS_KEPT_FROM

        # a second seal does nothing; the append's checks are those of the log's top
        assert (await st.seal(m)).status == "sealed"
        assert (await st.append(m, entry(n))).status == "conflict"
        assert (await st.append(m, entry(n - 5))).status == "conflict"
        # the stream holds one entry: seq 2 passes the script's length check (XLEN is seq - 1),
        # and XADD's refusal of an ID below the top answers it, with the top
        second = await st.append(m, entry(2))
        assert (second.status, second.seq) == ("conflict", n)
        assert await client.xlen(keys.log_key(m)) == 1
        dup = await st.append(m, entry(n + 1, client_action_id="c7"), action_key(0, "c7"), "fp7")
        assert (dup.status, dup.seq, dup.fingerprint) == ("duplicate", 7, "fp7")
        assert (await st.append(m, entry(n + 1))).status == "ok"
        assert await st.read(m, after=n - 2) == [*before[n - 2 :], entry(n + 1)]
        assert await st.read(m) == [*before, entry(n + 1)]
        await client.aclose()
        if pipe is not None:
            await pipe.close()

    run(body())


def test_a_seal_changes_nothing_if_the_log_moved_after_it_was_read(redis_url: str) -> None:
    """An entry appended between the seal's read and its script: the script sees the log's top
    moved and writes nothing (the stream keeps every entry, no segment is made)."""

    async def body() -> None:
        client = aioredis.Redis.from_url(redis_url)
        st = RedisEventStore(client)
        m = await filled(st, 20)
        real = st._xrange

        async def read_then_append(key: str, lo: str, hi: str, count: int) -> list[dict[bytes, Any]]:
            rows = await real(key, lo, hi, count)
            await RedisEventStore(client).append(m, entry(21))  # another writer, meanwhile
            return rows

        st._xrange = read_then_append  # type: ignore[method-assign]
        got = await st.seal(m)
        assert (got.status, got.seq) == ("moved", 21)
        assert await client.xlen(keys.log_key(m)) == 21 and not await client.exists(keys.sealed_key(m))
        st._xrange = real  # type: ignore[method-assign]
        assert [e.seq for e in await st.read(m)] == list(range(1, 22))
        assert (await st.seal(m)).status == "ok"
        assert [e.seq for e in await st.read(m)] == list(range(1, 22))
        await client.aclose()

    run(body())


def test_a_read_that_a_seal_overtakes_between_two_batches_still_gets_every_entry(
    redis_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(store, "READ_BATCH", 10)

    async def body() -> None:
        client = aioredis.Redis.from_url(redis_url)
        st = RedisEventStore(client)
        m = await filled(st, 45)
        want = await st.read(m)
        real = st._xrange
        calls = 0

        async def sealing_after_the_first_batch(key: str, lo: str, hi: str, count: int) -> list[dict[bytes, Any]]:
            nonlocal calls
            calls += 1
            rows = await real(key, lo, hi, count)
            if calls == 1:
                assert (await RedisEventStore(client).seal(m)).status == "ok"
            return rows

        st._xrange = sealing_after_the_first_batch  # type: ignore[method-assign]
        assert await st.read(m) == want
        assert calls >= 2
        await client.aclose()

    run(body())


def test_entries_in_neither_the_stream_nor_a_segment_are_an_error_not_a_shorter_log(redis_url: str) -> None:
    async def body() -> None:
        client = aioredis.Redis.from_url(redis_url)
        st = RedisEventStore(client)
        m = await filled(st, 12)
        assert (await st.seal(m)).status == "ok"
        await client.delete(keys.sealed_key(m))
        with pytest.raises(LogGapError, match=r"entries 1\.\.11"):
            await st.read(m)
        assert [e.seq for e in await st.read(m, after=11)] == [12]  # what is there still reads
        await client.aclose()

    run(body())


@pytest.mark.parametrize("keep_snapshot", [False, True], ids=["short log", "long log"])
def test_a_server_seals_a_finished_duel_and_everything_reads_it_as_before(
    redis_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, keep_snapshot: bool
) -> None:
    """Played to the end over websockets: the process that recorded the end seals the log
    ``seal_after`` seconds later. The replay file is the same, and a player who comes back
    finds the finished duel, folded from the segment alone (a short log drops its snapshot)
    or from its snapshot and the segment (a long one keeps it)."""
    monkeypatch.setattr(snapshots, "EVERY", 10)
    monkeypatch.setattr(store, "SNAPSHOTS_KEPT_FROM", 20 if keep_snapshot else 10_000)

    async def body() -> None:
        client = aioredis.Redis.from_url(redis_url)
        async with running_server(redis_url, tmp_path, seal_after=0.3) as server:
            match_id = await played_match(url_of(server), 3)
            await recorded_finished(client, match_id)
            assert await client.hkeys(keys.snapshots_key(match_id))
            before = await archive.export_match(client, match_id, SECRET)
            assert not await client.exists(keys.sealed_key(match_id))
            # registered in Redis before the end was recorded: no seal is lost with a process
            assert await client.zscore(keys.SEALS_PENDING, match_id) is not None or await client.exists(
                keys.sealed_key(match_id)
            )
            for _ in range(300):
                done = await client.exists(keys.sealed_key(match_id))
                if done and await client.zscore(keys.SEALS_PENDING, match_id) is None:
                    break  # sealed, and taken off the seals still to do
                await asyncio.sleep(0.01)
            assert await client.zscore(keys.SEALS_PENDING, match_id) is None
            assert await client.xlen(keys.log_key(match_id)) == 1
            assert server.metrics.get("duel_logs_sealed_total") == 1
            assert bool(await client.hkeys(keys.snapshots_key(match_id))) is keep_snapshot
            after = await archive.export_match(client, match_id, SECRET)
            assert after.entries == before.entries and after.header["chain"] == before.header["chain"]
            # a seat holder comes back to the finished duel: the server folds it from the segment
            server.service._live.clear()
            c = await DuelClient.connect(url_of(server), "back")
            await c.send(Reconnect(token=server.tokens.issue(match_id, 0), last_seq=0))
            assert (await c.expect(Seated)).match_id == match_id
            while c.seq < len(before.entries):
                await c.expect(Update)
            assert c.finished and c.state_hash == before.entries[-1].state_hash
            assert server.metrics.get("duel_snapshots_loaded_total") == int(keep_snapshot)
            assert server.metrics.get("duel_snapshots_ignored_total") == 0
            assert await client.zscore(keys.SEALS_PENDING, match_id) is None  # its end was recorded: not noted again
            await c.close()
        await client.aclose()

    run(body())


def test_duel_matches_seal_seals_the_finished_matches_a_server_left_unsealed(redis_url: str, tmp_path: Path) -> None:
    async def body() -> list[str]:
        async with running_server(redis_url, tmp_path, seal_after=None) as server:
            ids = [await played_match(url_of(server), seed) for seed in (4, 5)]
            client = aioredis.Redis.from_url(redis_url)
            for m in ids:
                await recorded_finished(client, m)
            await client.aclose()
        return ids

    ids = run(body())

    async def check(want_sealed: bool) -> list[list[Any]]:
        client = aioredis.Redis.from_url(redis_url)
        out = []
        for m in ids:
            assert bool(await client.exists(keys.sealed_key(m))) is want_sealed
            out.append([(e.seq, e.state_hash) for e in await RedisEventStore(client).read(m)])
        await client.aclose()
        return out

    unsealed = run(check(False))
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "server.cli",
            "matches",
            "--seal",
            "--redis-url",
            redis_url,
            "--data-dir",
            str(tmp_path),
        ],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "sealed the logs of" in done.stdout and " KiB of entries in " in done.stdout
    assert run(check(True)) == unsealed


def test_a_seal_that_finds_redis_down_is_tried_again_then_given_up(
    redis_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each try really meets a Redis that cannot be reached (nothing listens on the port): the
    seal is queued again until it has been tried ATTEMPTS times, then counted as failed; the
    log is left whole, and a later seal (Redis back) seals it."""
    monkeypatch.setattr(sealing, "RETRY_AFTER_S", 0.05)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        dead_port = s.getsockname()[1]

    async def body() -> None:
        client = aioredis.Redis.from_url(redis_url)
        st = RedisEventStore(client)
        m = await filled(st, 12)
        down = aioredis.Redis(host="127.0.0.1", port=dead_port, retry=Retry(NoBackoff(), 0))
        metrics = Metrics()
        sealer = Sealer(RedisEventStore(down), metrics, delay=0.0)
        task = asyncio.create_task(sealer.run())
        with structlog.testing.capture_logs() as logged:
            sealer.add(m)
            for _ in range(1000):
                if metrics.get("duel_logs_seal_failed_total"):
                    break
                await asyncio.sleep(0.01)
        assert metrics.get("duel_logs_seal_failed_total") == 1 and sealer.waiting == 0
        tries = [e["attempt"] for e in logged if e["event"] == "seal_redis_unavailable"]
        assert tries == list(range(1, sealing.ATTEMPTS + 1))
        assert not await client.exists(keys.sealed_key(m)) and await client.xlen(keys.log_key(m)) == 12
        sealer.store = st  # Redis is back
        sealer.add(m)
        for _ in range(300):
            if metrics.get("duel_logs_sealed_total"):
                break
            await asyncio.sleep(0.01)
        assert metrics.get("duel_logs_sealed_total") == 1 and await client.xlen(keys.log_key(m)) == 1
        assert [e.seq for e in await st.read(m)] == list(range(1, 13))
        task.cancel()
        await down.aclose()
        await client.aclose()

    run(body())


@pytest.mark.parametrize("refused", [["dump", "restore"], ["restore"]], ids=["dump+restore", "restore"])
def test_a_redis_that_refuses_dump_and_restore_still_seals_and_loses_nothing(
    redis_url: str, refused: list[str]
) -> None:
    """A managed Redis may refuse DUMP and RESTORE (here: an ACL user without them, so the
    script's own calls are refused): the seal still moves the entries into the segment and
    leaves the last one in a plain stream (4 KiB); nothing is lost on the way, even when the
    refusal comes after the new stream was dumped."""

    async def body() -> None:
        admin = aioredis.Redis.from_url(redis_url)
        user = "sealer-" + secrets.token_hex(4)
        await admin.acl_setuser(
            user,
            enabled=True,
            passwords=["+pw"],
            keys=["*"],
            channels=["*"],
            commands=["+@all", *(f"-{c}" for c in refused)],
        )
        client = aioredis.Redis.from_url(redis_url, username=user, password="pw")
        try:
            st = RedisEventStore(client)
            m = await filled(st, 30)
            before = await st.read(m)
            with pytest.raises(redis.exceptions.NoPermissionError):  # the user really cannot
                await client.execute_command("RESTORE", keys.sealing_key(m), 0, b"payload")
            with structlog.testing.capture_logs() as logged:
                got = await Sealer(st, Metrics(), 0.0).seal(m)
            assert got is not None and (got.status, got.seq, got.compact) == ("ok", 30, False)
            assert [e["event"] for e in logged] == ["seal_not_compact"]  # the operator is told
            assert await admin.xlen(keys.log_key(m)) == 1 and not await admin.exists(keys.sealing_key(m))
            assert await st.read(m) == before
            assert (await st.append(m, entry(31))).status == "ok"
            assert [e.seq for e in await st.read(m)] == list(range(1, 32))
        finally:
            await client.aclose()
            await admin.acl_deluser(user)
            await admin.aclose()

    run(body())


def test_the_process_that_recorded_an_end_is_told_so_again_on_a_retry(redis_url: str) -> None:
    """The end's script answers "first" to the process that recorded it, also when it runs
    again (its first reply was lost, its client retried): that process still seals the log.
    Another process, or a caller that names nobody, is told it was recorded before."""

    async def body() -> None:
        client = aioredis.Redis.from_url(redis_url)
        directory = MatchDirectory(client)
        m = new_match()
        await directory.create(m, "req", [], spectators=True, quick=False)

        async def finish(by: str) -> bool:
            return await directory.finish(m, winner=0, reason="lp", length=3, turns=1, by=by)

        assert await finish("proc-a") is True
        assert await finish("proc-a") is True  # the retry of the one that recorded it
        assert await finish("proc-b") is False
        assert await finish("") is False
        await client.aclose()

    run(body())


def test_a_seal_left_by_a_process_that_stopped_is_done_by_another_process_sweep(redis_url: str) -> None:
    """A process registers each end in Redis before it records it, then stops before the
    seal is due (its task cancelled: nothing flushed). Another process's sweep finds it once
    overdue, seals it and takes it off; a seal not yet due is left to its own process."""

    async def body() -> None:
        client = aioredis.Redis.from_url(redis_url)
        st = RedisEventStore(client)
        gone, young = await filled(st, 15), await filled(st, 15)
        first = Sealer(st, Metrics(), delay=30.0)
        task = asyncio.create_task(first.run())
        await first.register(gone)  # as the process does before it records the end
        first.add(gone)
        due = await client.zscore(keys.SEALS_PENDING, gone)
        assert due is not None and abs(due / 1000 - (time.time() + 30)) < 5
        task.cancel()  # the process stops (killed: no flush)
        with contextlib.suppress(asyncio.CancelledError):
            await task
        await client.zadd(keys.SEALS_PENDING, {young: int((time.time() + 3600) * 1000)})  # due in an hour
        assert not await client.exists(keys.sealed_key(gone))

        # as if 90 s had passed since `gone` was due
        other = Sealer(st, metrics := Metrics(), delay=10.0, overdue=-60.0)
        # (the set is shared: earlier tests' killed processes may have left overdue seals too,
        # done first, the oldest first, at most SWEEP_BATCH a sweep)
        for _ in range(20):
            if await other.sweep() == 0 or await client.exists(keys.sealed_key(gone)):
                break
        assert await client.exists(keys.sealed_key(gone)) and not await client.exists(keys.sealed_key(young))
        assert metrics.get("duel_logs_sealed_overdue_total") >= 1 and metrics.get("duel_logs_sealed_total") >= 1
        assert await client.zscore(keys.SEALS_PENDING, gone) is None
        assert await client.zscore(keys.SEALS_PENDING, young) is not None
        assert [e.seq for e in await st.read(gone)] == list(range(1, 16))
        await client.zrem(keys.SEALS_PENDING, young)
        await client.aclose()

    run(body())


def test_an_end_its_process_did_not_record_is_recorded_and_sealed_by_the_next_load(
    redis_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The process that appended a duel's last entry stops before it records the end (found by
    the server-kill fault run: such a duel stayed "live" in the lobby, out of the history, and
    unsealed, for good). The next process that loads the match records the end and seals it."""
    real = MatchService._record_end
    skipped: list[str] = []

    async def stopped_first(self: MatchService, lm: Any) -> None:
        skipped.append(lm.match_id)

    monkeypatch.setattr(MatchService, "_record_end", stopped_first)

    async def body() -> None:
        client = aioredis.Redis.from_url(redis_url)
        async with running_server(redis_url, tmp_path, seal_after=0.1) as server:
            match_id = await played_match(url_of(server), 5)
            assert skipped == [match_id]
            assert await client.hget(keys.meta_key(match_id), "status") != b"finished"
            monkeypatch.setattr(MatchService, "_record_end", real)
            server.service._live.clear()  # the next process: nothing held
            c = await DuelClient.connect(url_of(server), "back")
            await c.send(Reconnect(token=server.tokens.issue(match_id, 1), last_seq=0))
            await c.expect(Seated)
            await recorded_finished(client, match_id)
            # the result is written first, then the match moves from the live index to the
            # history (two steps: server.match.directory.finish): wait for the move, then check both
            for _ in range(300):
                if await client.zscore(keys.LOBBY_MATCHES, match_id) is None:
                    break
                await asyncio.sleep(0.01)
            assert await client.zscore(keys.LOBBY_FINISHED, match_id) is not None
            assert await client.zscore(keys.LOBBY_MATCHES, match_id) is None
            for _ in range(300):
                if await client.exists(keys.sealed_key(match_id)):
                    break
                await asyncio.sleep(0.01)
            assert await client.exists(keys.sealed_key(match_id))
            await c.close()
        await client.aclose()

    run(body())
