"""Replays people can keep (issue 13): replay files, export -> import -> verify, tampering,
replays under changed rules, snapshots, retention. Real Redis where a store is involved."""

from __future__ import annotations

import asyncio
import random
import zlib
from pathlib import Path
from typing import Any

import msgpack
import pytest
import redis.asyncio as aioredis
from duel_helpers import SECRET, choose, play_until, run, running_server, start_match, url_of, wait_for_turn
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from logs import engine_log

import engine
from engine import Viewpoints
from engine.kernel.hashing import to_plain
from protocol.codec import pack
from protocol.messages import Accepted, Error
from server import rules
from server.history import archive, replay_file
from server.history.replay import verify_log
from server.match import snapshots
from server.match.clocks import Clock, ClockSettings
from server.match.directory import FINISHED
from server.storage import keys
from server.storage.store import RedisEventStore
from tests.engine.test_pool_duels import random_deck

KEY = b"archive-test-secret-0123456789"


async def played_match(url: str, seed: int) -> str:
    """A finished match played over websockets by two bots (conceded at a random point)."""
    rnd = random.Random(seed)
    a, b, match_id, _ = await start_match(url)
    for _ in range(rnd.randint(10, 120)):
        actor = await wait_for_turn([a, b])
        if actor is None:
            break
        reply = await actor.act(choose(actor.legal, rnd))
        assert isinstance(reply, Accepted), reply
    if not a.finished:
        await a.act({"do": "concede"})
    for c in (a, b):
        await c.close()
    return match_id


def test_export_import_verify_round_trips_on_random_duels(redis_url: str, tmp_path: Path) -> None:
    async def body() -> None:
        client = aioredis.Redis.from_url(redis_url)
        async with running_server(redis_url, tmp_path) as server:
            for seed in range(4):
                match_id = await played_match(url_of(server), seed)
                replay = await archive.export_match(client, match_id, SECRET)
                path = tmp_path / f"{match_id}.duelreplay"
                size = replay_file.write(path, replay)
                assert 0 < size < 200 * len(replay.entries)  # compact: a few hundred bytes an entry at most
                back = replay_file.read(path, SECRET)
                assert back.header["signature"] and back.header["rules_version"] == replay_file.rules_version()
                new_id = f"imp{seed}{match_id[:8]}"
                assert await archive.import_match(client, back, new_id) == new_id
                assert await client.exists(keys.sealed_key(new_id))  # kept compressed at once
                stored = await RedisEventStore(client).read(new_id)
                assert [(e.seq, e.facts, e.state_hash) for e in stored] == [
                    (e.seq, e.facts, e.state_hash) for e in replay.entries
                ]
                divergence, _state = verify_log(stored)
                assert divergence is None
                rows = await archive.history(client, limit=200)
                row = next(r for r in rows if r.match_id == new_id)
                assert row.length == len(replay.entries) and row.winner == replay.header["result"]["winner"]
                with pytest.raises(archive.ArchiveError, match="already exists"):
                    await archive.import_match(client, back, new_id)
        await client.aclose()

    run(body())


def _rewrite(data: bytes, change: Any) -> bytes:
    raw = msgpack.unpackb(zlib.decompress(data[8:]), raw=False, strict_map_key=False)
    change(raw)
    return replay_file.MAGIC + zlib.compress(pack(raw))


def test_a_damaged_or_tampered_replay_file_is_refused() -> None:
    log = engine_log(11, max_actions=200)
    data = replay_file.dumps(replay_file.build("golden11", log, key=KEY))
    assert replay_file.loads(data, KEY).entries == log
    with pytest.raises(replay_file.ReplayFileError, match="not a duel replay"):
        replay_file.loads(b"hello" + data)
    with pytest.raises(replay_file.ReplayFileError, match="damaged"):
        replay_file.loads(data[:-20])

    def edit_fact(raw: dict[str, Any]) -> None:
        lp = next(f for e in raw["entries"] for f in e["facts"] if f["t"] == "lp")
        lp["lp"] += 1000  # a little more Life Points for someone

    with pytest.raises(replay_file.ReplayFileError, match="hash chain"):
        replay_file.loads(_rewrite(data, edit_fact), KEY)

    def edit_and_rechain(raw: dict[str, Any]) -> None:
        edit_fact(raw)
        raw["header"]["chain"] = replay_file.chain(raw["entries"])

    with pytest.raises(replay_file.ReplayFileError, match="signature"):
        replay_file.loads(_rewrite(data, edit_and_rechain), KEY)

    def edit_rechain_unsign(raw: dict[str, Any]) -> None:
        edit_and_rechain(raw)
        del raw["header"]["signature"]

    with pytest.raises(replay_file.ReplayFileError, match="state hash"):
        replay_file.loads(_rewrite(data, edit_rechain_unsign), KEY)


@pytest.mark.pure_engine
def test_a_replay_made_under_other_rules_plays_back_and_verify_names_the_first_divergence(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Record a duel, then change a rule (battle damage is doubled): the file still loads and
    plays back exactly (its facts are the truth), and verify names the first entry where
    today's rules decide differently, in plain words."""
    log = engine_log(23, max_actions=400)
    data = replay_file.dumps(replay_file.build("m23", log))
    first_damage = next(e.seq for e in log if any(f["t"] == "lp" and f.get("reason") == "battle" for f in e.facts))

    import engine.ops as ops

    original = ops.damage

    def doubled(ctx: Any, seat: int, amount: int, reason: str = "effect") -> None:
        original(ctx, seat, amount * 2 if reason == "battle" else amount, reason)

    monkeypatch.setattr(ops, "damage", doubled)
    for module in list(__import__("sys").modules.values()):
        if getattr(module, "__name__", "").startswith("engine.") and getattr(module, "damage", None) is original:
            monkeypatch.setattr(module, "damage", doubled)
    monkeypatch.setattr(replay_file, "rules_version", lambda: "changed-rules")
    replay = replay_file.loads(data)  # other rules: the facts still fold
    state = None
    for e in replay.entries:
        state = rules.fold(e.facts, state)
    assert rules.winner(state) == rules.winner(engine.fold([f for e in log for f in e.facts]))
    divergence, _ = verify_log(replay.entries, hashes=False)
    assert divergence is not None and divergence.seq == first_damage and divergence.kind == "facts"
    text = "\n".join(divergence.lines())
    assert "battle damage" in text and "what the log says happened" in text and "today's rules" in text


def test_golden_replay_files_load_and_play_back() -> None:
    """Replay files made by this engine: every future version must load and play them back."""
    files = sorted((Path(__file__).resolve().parents[1] / "golden").glob("*.duelreplay"))
    assert len(files) >= 3
    for path in files:
        replay = replay_file.read(path)
        state = None
        for e in replay.entries:
            state = rules.fold(e.facts, state)
        result = replay.header["result"]
        assert rules.winner(state) == result["winner"] and result["finished"], path.name
        if replay.header["rules_version"] == replay_file.rules_version():
            assert verify_log(replay.entries)[0] is None


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), every=st.integers(1, 120))
def test_snapshot_plus_tail_equals_a_fold_from_the_start(seed: int, every: int) -> None:
    """Snapshots at a random period of a random pool duel: loading any of them and folding the
    rest gives the very state, views and per-viewer facts of a fold from the start."""
    rnd = random.Random(seed)
    decks = (random_deck(rnd)[0], random_deck(rnd)[0])
    log = engine_log(seed, decks=decks, max_actions=300, policy_random=0.5)
    key = b"snapshot-key"
    full = Viewpoints(key)
    state = None
    for i, e in enumerate(log, start=1):
        full.apply(e.facts)
        state = rules.fold(e.facts, state)
        if i % every or i == len(log):
            continue
        clock = Clock(ClockSettings(60_000, 500), [60_000 - i, 59_000 + i]) if i % 2 else None
        made = snapshots.Snapshot(i, e.state_hash, e.ts_ms, state, full.book, clock)
        blob = snapshots.dumps(made)
        assert snapshots.dumps(snapshots.loads(blob, key)) == blob  # what is loaded dumps to the very bytes
        snap = snapshots.loads(blob, key)
        assert rules.state_hash(snap.state) == e.state_hash
        assert snap.clock == clock
        vp, s = Viewpoints(key, snap.book), snap.state
        ref_vp, ref_s = Viewpoints(key), None
        for j, t in enumerate(log, start=1):
            ref_seen = ref_vp.apply(t.facts)
            ref_s = rules.fold(t.facts, ref_s)
            if j > i:
                assert vp.apply(t.facts) == ref_seen
                s = rules.fold(t.facts, s)
        assert to_plain(s) == to_plain(ref_s)
        for v in (0, 1, None):
            assert vp.view(s, v) == ref_vp.view(ref_s, v)
        break


def test_a_server_loads_a_match_from_its_snapshot_and_ignores_a_bad_one(
    redis_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(snapshots, "EVERY", 5)

    async def body() -> None:
        client = aioredis.Redis.from_url(redis_url)
        rnd = random.Random(3)
        async with running_server(redis_url, tmp_path) as server:
            a, b, match_id, _ = await start_match(url_of(server))
            for _ in range(23):
                actor = await wait_for_turn([a, b])
                assert actor is not None
                await actor.act(choose(actor.legal, rnd))
            live = server.service.cached(match_id)
            assert live is not None
            seq, want = live.seq, rules.state_hash(live.state)
            views = [live.vp.view(live.state, v) for v in (0, 1, None)]
            snaps = await client.hkeys(keys.snapshots_key(match_id))
            assert sorted(int(k) for k in snaps) == [5, 10, 15, 20]
            for c in (a, b):
                await c.close()
        for corrupt in (False, True):
            if corrupt:
                await client.hset(keys.snapshots_key(match_id), "20", b"not a snapshot")
            async with running_server(redis_url, tmp_path) as fresh:
                lm = await fresh.service.load(match_id)
                assert lm.seq == seq and rules.state_hash(lm.state) == want
                assert [lm.vp.view(lm.state, v) for v in (0, 1, None)] == views
                metrics = fresh.metrics.render()
                if corrupt:
                    assert "duel_snapshots_ignored_total 1" in metrics
                else:
                    assert "duel_snapshots_loaded_total 1" in metrics
        await client.aclose()

    run(body())


def test_a_snapshot_is_kept_by_the_next_append_of_its_match(
    redis_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The snapshot after every EVERY-th entry is not written on its own (its command and fsync
    came just before the next action's append, and delayed it): the match holds it, and its
    next append keeps it in the same command. Until then nothing is in Redis; then the snapshot
    is there at its own seq, with the position of that seq."""
    monkeypatch.setattr(snapshots, "EVERY", 4)

    async def body() -> None:
        client = aioredis.Redis.from_url(redis_url)
        rnd = random.Random(5)
        async with running_server(redis_url, tmp_path) as server:
            store = server.service.store

            async def not_alone(match_id: str, seq: int, blob: bytes) -> None:
                raise AssertionError("a snapshot was written by a command of its own")

            monkeypatch.setattr(store, "put_snapshot", not_alone)
            a, b, match_id, _ = await start_match(url_of(server))  # the genesis is entry 1
            await play_until([a, b], 4, lambda legal: choose(legal, rnd))
            live = server.service.cached(match_id)
            assert live is not None
            want = rules.state_hash(live.state)
            assert live.held_snapshot is not None and live.held_snapshot[0] == 4
            assert await client.hkeys(keys.snapshots_key(match_id)) == []
            actor = await asyncio.wait_for(wait_for_turn([a, b]), 5)
            assert actor is not None
            reply = await asyncio.wait_for(actor.act(choose(actor.legal, rnd)), 5)
            assert isinstance(reply, Accepted) and reply.seq == 5
            assert live.held_snapshot is None
            assert await client.hkeys(keys.snapshots_key(match_id)) == [b"4"]
            blob = await client.hget(keys.snapshots_key(match_id), "4")
            assert blob is not None
            snap = snapshots.loads(blob, live.alias_key)
            assert snap.seq == 4 and rules.state_hash(snap.state) == want
            for c in (a, b):
                await c.close()
        await client.aclose()

    run(body())


def test_a_snapshot_held_when_the_server_stops_costs_the_match_nothing(
    redis_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The server stops while it holds the snapshot of the match's last entry (no append came
    to keep it): a fresh server loads the match from the snapshot before it and the entries
    after, to the same position."""
    monkeypatch.setattr(snapshots, "EVERY", 4)

    async def body() -> None:
        client = aioredis.Redis.from_url(redis_url)
        rnd = random.Random(6)
        async with running_server(redis_url, tmp_path) as server:
            a, b, match_id, _ = await start_match(url_of(server))
            await play_until([a, b], 8, lambda legal: choose(legal, rnd))
            live = server.service.cached(match_id)
            assert live is not None and live.seq == 8
            assert live.held_snapshot is not None and live.held_snapshot[0] == 8
            want = rules.state_hash(live.state)
            for c in (a, b):
                await c.close()
        assert await client.hkeys(keys.snapshots_key(match_id)) == [b"4"]
        async with running_server(redis_url, tmp_path) as fresh:
            lm = await fresh.service.load(match_id)
            assert lm.seq == 8 and rules.state_hash(lm.state) == want
            assert "duel_snapshots_loaded_total 1" in fresh.metrics.render()
        await client.aclose()

    run(body())


def test_a_snapshot_that_cannot_be_made_costs_the_duel_nothing(
    redis_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A snapshot is an optimisation: if it cannot be made, the action it follows stays
    accepted, nobody is sent an error, the duel goes on, and the failure is counted."""
    monkeypatch.setattr(snapshots, "EVERY", 3)

    def broken(snap: snapshots.Snapshot) -> bytes:
        raise RuntimeError("the snapshot could not be packed")

    monkeypatch.setattr(snapshots, "dumps", broken)

    async def body() -> None:
        rnd = random.Random(8)
        async with running_server(redis_url, tmp_path) as server:
            a, b, _, _ = await start_match(url_of(server))
            await play_until([a, b], 9, lambda legal: choose(legal, rnd))  # past entries 3, 6 and 9
            await wait_for_turn([a, b])
            assert a.seq == b.seq == 9
            assert not [m for c in (a, b) for m in c.inbox if isinstance(m, Error)]
            assert "duel_snapshots_failed_total 3" in server.metrics.render()
            for c in (a, b):
                await c.close()

    run(body())


def test_retention_deletes_only_finished_matches(redis_url: str, tmp_path: Path) -> None:
    async def body() -> None:
        client = aioredis.Redis.from_url(redis_url)
        await client.delete(keys.LOBBY_FINISHED)
        async with running_server(redis_url, tmp_path) as server:
            finished = [await played_match(url_of(server), seed) for seed in (1, 2, 3)]
            a, b, live, _ = await start_match(url_of(server))
            # a live match wrongly listed in the history is still never deleted
            await client.zadd(keys.LOBBY_FINISHED, {live: 0})
            deleted = await archive.prune(client, keep=1)
            assert sorted(deleted) == sorted(finished[:2])
            for m in finished[:2]:
                assert not await client.exists(*keys.match_keys(m))
            assert await client.exists(keys.log_key(finished[2]))
            assert await client.exists(keys.log_key(live)) and await client.exists(keys.meta_key(live))
            for c in (a, b):
                await c.close()
        await client.aclose()

    run(body())


async def http_get_bytes(port: int, path: str) -> tuple[int, bytes]:
    import asyncio

    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".encode())
    await writer.drain()
    raw = await asyncio.wait_for(reader.read(), 10)
    writer.close()
    head, _, body = raw.partition(b"\r\n\r\n")
    return int(head.split()[1]), body


def test_replay_files_download_over_http_and_upload_over_the_protocol(redis_url: str, tmp_path: Path) -> None:
    """A finished match's replay file downloads from GET /replays/<id>.duelreplay; sent back in
    parts over the websocket it pages like the stored match; a damaged one is refused."""
    import base64

    from protocol.messages import (
        CreateMatch,
        Error,
        GetReplay,
        ReplayLoaded,
        ReplayLog,
        Seated,
        UploadReplay,
    )
    from server.clients.client import DuelClient

    async def body() -> None:
        async with running_server(redis_url, tmp_path) as server:
            match_id = await played_match(url_of(server), 7)
            # the directory records the end just after the conceding action is answered
            for _ in range(100):
                info = await server.directory.get(match_id)
                if info is not None and info.status == FINISHED:
                    break
                await asyncio.sleep(0.05)
            status, data = await http_get_bytes(server.port, f"/replays/{match_id}.duelreplay")
            assert status == 200
            replay = replay_file.loads(data, server.tokens.replay_key())
            assert replay.match_id == match_id and replay.header["signature"]
            # made once (in a reader process), then served as kept
            assert server.downloads.get(match_id) == data
            assert await http_get_bytes(server.port, f"/replays/{match_id}.duelreplay") == (200, data)
            assert (await http_get_bytes(server.port, "/replays/nosuchmatch.duelreplay"))[0] == 404
            c = await DuelClient.connect(url_of(server), "viewer")
            text = base64.b64encode(data).decode()
            parts = [text[i : i + 4000] for i in range(0, len(text), 4000)]
            for i, part in enumerate(parts):
                await c.send(UploadReplay("f1", i, len(parts), part))
            loaded = await c.expect(ReplayLoaded)
            assert (loaded.match_id, loaded.total, loaded.signed, loaded.same_rules) == (
                match_id,
                len(replay.entries),
                True,
                True,
            )
            await c.send(GetReplay(match_id="ignored", upload_id="f1", viewpoint="1", views=True))
            from_file = await c.expect(ReplayLog)
            await c.send(GetReplay(match_id=match_id, viewpoint="1", views=True))
            stored = await c.expect(ReplayLog)
            assert [e["story"] for e in from_file.entries] == [e["story"] for e in stored.entries]
            assert from_file.entries[-1]["view"]["winner"] == stored.entries[-1]["view"]["winner"]
            damaged = base64.b64encode(data[:-30]).decode()
            pieces = [damaged[i : i + 4000] for i in range(0, len(damaged), 4000)]
            for i, part in enumerate(pieces):
                await c.send(UploadReplay("f2", i, len(pieces), part))
            err = await c.expect(Error)
            assert err.code == "replay/invalid" and "damaged" in err.reason
            # a match that is not finished has no public replay file
            p = await DuelClient.connect(url_of(server), "private")
            await p.send(CreateMatch(spectators=False))
            seated = await p.expect(Seated)
            assert (await http_get_bytes(server.port, f"/replays/{seated.match_id}.duelreplay"))[0] == 404
            for cl in (c, p):
                await cl.close()

    run(body())


def test_a_page_folded_from_a_checkpoint_equals_one_folded_from_the_start() -> None:
    from server.history import replays

    log = engine_log(5, max_actions=600)
    assert len(log) > 210
    key = b"checkpoint-key"
    checkpoints: dict[int, bytes] = {}
    replays.page(log, key, "0", 1, len(log), False, checkpoints)  # fills the checkpoints
    assert sorted(checkpoints) == list(range(100, len(log) + 1, 100))
    for viewpoint in ("all", "0", "1", "spectator"):
        fast = replays.page(log, key, viewpoint, 205, 5, True, checkpoints)
        slow = replays.page(log, key, viewpoint, 205, 5, True)
        assert fast == slow and [e["seq"] for e in fast.entries] == [205, 206, 207, 208, 209]


def test_history_pages_neither_skip_nor_repeat_matches_of_the_same_millisecond(redis_url: str) -> None:
    from server.match.directory import MatchDirectory

    async def body() -> None:
        client = aioredis.Redis.from_url(redis_url)
        await client.delete(keys.LOBBY_FINISHED)
        directory = MatchDirectory(client)
        ids = [f"tie{i:02d}" for i in range(7)]
        for m in ids:
            await client.delete(*keys.match_keys(m))
            await directory.create(m, f"request-for-{m}-0000", [], spectators=True, quick=False)
            await directory.finish(m, winner=0, reason="lp", length=3, turns=1)
            await client.zadd(keys.LOBBY_FINISHED, {m: 1_000})  # all in the same millisecond
        seen: list[str] = []
        before_ms, before_id = None, None
        while True:
            page = await directory.listing("finished", 3, before_ms, before_id)
            if not page:
                break
            seen.extend(i.match_id for i in page)
            before_ms, before_id = 1_000, page[-1].match_id
        assert seen == sorted(ids, reverse=True)
        # the history pages by the index too: its rows' own times (now, here, not the index's
        # 1,000) never bring a page back (they did: one match listed 50 times)
        listed = [r.match_id for r in await archive.history(client, limit=50)]
        assert sorted(m for m in listed if m.startswith("tie")) == ids and len(listed) == len(set(listed))
        await client.aclose()

    run(body())
