"""Replay files sent over the protocol by an attacker (issue 34, findings 1 and 3): real server,
real Redis, real websockets, with the server's replay limits set low so that the hostile files
are small. The sizes the issue measured run in tests/faults/test_fault_replay_uploads.py.

While a hostile file is read, an honest duel on the same server goes on: each of its actions
must be answered within LIVENESS_S (hostile_replays.while_dueling; a liveness bound, not a
benchmark: reading the file on the event loop held every duel for whole seconds)."""

from __future__ import annotations

import asyncio
import base64
import os
import random
import time
from pathlib import Path

import pytest
from duel_helpers import quietly, run, running_server, url_of, wait_for_turn
from hostile_replays import LIVENESS_S, answer, long_file, nil_bomb, rewrite, upload, v1_signed, while_dueling
from logs import engine_log

from protocol import errors as E
from protocol.codec import decode_server
from protocol.messages import (
    CreateMatch,
    Error,
    GetReplay,
    Join,
    ReplayLoaded,
    ReplayLog,
    Seated,
    UploadReplay,
)
from server.clients.client import DuelClient
from server.history import replay_file
from server.history.replay_limits import MIB
from server.history.uploads import Readers, Refused, check_file, page_frame
from server.process.config import ServerConfig

GOLDEN = Path(__file__).resolve().parents[1] / "golden"


def test_a_zip_bomb_is_refused_at_the_decompressed_limit_and_duels_go_on(redis_url: str, tmp_path: Path) -> None:
    bomb = nil_bomb(64 * MIB)  # 64 MiB of nil arrays in a few hundred KB
    assert len(bomb) < 2 * MIB

    async def body() -> None:
        async with running_server(redis_url, tmp_path, replay_max_data=1 * MIB) as server:
            c = await DuelClient.connect(url_of(server), "attacker")
            got, took = await while_dueling(url_of(server), lambda: upload(c, "bomb", bomb))
            assert isinstance(got, Error) and got.code == E.REPLAY_TOO_LARGE, got
            assert f"decompresses to more than {1 * MIB} bytes" in got.reason
            assert max(took) < LIVENESS_S, took
            # the connection is not held by it: a real file loads next
            loaded = await upload(c, "real", (GOLDEN / "classic.duelreplay").read_bytes())
            assert isinstance(loaded, ReplayLoaded) and loaded.total > 0, loaded
            await c.close()

    run(body())


def test_a_long_file_is_refused_by_its_entry_count_and_one_within_the_limits_is_read_off_the_loop(
    redis_url: str, tmp_path: Path
) -> None:
    # 6,000 entries of which only the first is one: a server that decoded any entry before counting
    # them would call the file damaged; one that counts first refuses it for its length
    too_long = rewrite(long_file(6_000), lambda raw: raw.__setitem__("entries", raw["entries"][:1] + [-1] * 5_999))
    long_enough = long_file(4_000)

    async def body() -> None:
        async with running_server(redis_url, tmp_path, replay_max_entries=5_000) as server:
            c = await DuelClient.connect(url_of(server), "attacker")
            refused = await upload(c, "long", too_long)
            assert isinstance(refused, Error) and refused.code == E.REPLAY_TOO_LARGE, refused
            assert "6000 entries; at most 5000" in refused.reason  # from the count, before any entry
            loaded, took = await while_dueling(url_of(server), lambda: upload(c, "long", long_enough))
            assert isinstance(loaded, ReplayLoaded) and loaded.total == 4_000, loaded
            assert not loaded.signed and loaded.result is not None and not loaded.result["finished"]
            assert max(took) < LIVENESS_S, took
            # its pages are made by the reader too, from any seq
            await c.send(GetReplay(match_id="x", upload_id="long", from_seq=3_990, limit=20, views=True))
            page = await c.expect(ReplayLog, timeout=60)
            assert [e["seq"] for e in page.entries] == list(range(3_990, 4_001)) and page.next_seq is None
            await c.close()

    run(body())


def test_parts_beyond_the_size_limit_are_refused_as_they_come(redis_url: str, tmp_path: Path) -> None:
    async def body() -> None:
        async with running_server(redis_url, tmp_path, replay_max_bytes=10_000) as server:
            c = await DuelClient.connect(url_of(server), "attacker")
            part = "A" * 4000
            # 10 parts: more than 10,000 bytes whatever the last part holds: refused at part 0
            await c.send(UploadReplay("big", 0, 10, part))
            got = await answer(c, "big", 10)
            assert isinstance(got, Error) and got.code == E.REPLAY_TOO_LARGE and "10 parts" in got.reason, got
            # 4 parts could be a file of 10,000 bytes; four full parts are not: refused at the 4th
            for i in range(3):
                await c.send(UploadReplay("big", i, 4, part))
            await c.send(UploadReplay("big", 3, 4, part))
            got = await answer(c, "big", 10)
            assert isinstance(got, Error) and got.code == E.REPLAY_TOO_LARGE and "larger than 10000" in got.reason
            await c.close()

    run(body())


def test_uploads_are_limited_per_connection_per_address_and_server_wide(redis_url: str, tmp_path: Path) -> None:
    """Part 0 books an upload (its announced size); a limit refuses the next with replay/busy,
    and a closed connection gives back what it held."""
    data = (GOLDEN / "classic.duelreplay").read_bytes()
    text_parts = -(-len(data) * 4 // 3 // 4000)
    assert text_parts == 5
    first = UploadReplay("f", 0, 5, "RFVF")  # any part 0 of a five-part upload

    async def connect(url: str, address: str) -> DuelClient:
        return await DuelClient.connect(url, address, headers={"X-Forwarded-For": address})

    async def busy(c: DuelClient, upload_id: str) -> str:
        await c.send(UploadReplay(upload_id, 0, 5, "RFVF"))
        got = await answer(c, upload_id, 10)
        assert isinstance(got, Error) and got.code == E.REPLAY_BUSY, got
        return got.reason

    async def body() -> None:
        async with running_server(
            redis_url,
            tmp_path,
            trusted_proxies=("127.0.0.1",),
            replay_uploads_per_connection=1,
            replay_uploads_per_address=2,
            replay_uploads_bytes=50_000,  # two five-part uploads (20,000 characters booked each)
        ) as server:
            c1, c2, c3 = [await connect(url_of(server), "198.51.100.1") for _ in range(3)]
            await c1.send(first)
            assert "per connection" in await busy(c1, "g")
            await c2.send(first)
            assert "from one address" in await busy(c3, "f")
            other = await connect(url_of(server), "198.51.100.2")
            assert "as many replay files as it can" in await busy(other, "f")
            await c1.close()  # gives back its booking
            await asyncio.sleep(0.2)
            got = await upload(c3, "f", data)
            assert isinstance(got, ReplayLoaded), got
            for c in (c2, c3, other):
                await c.close()

    run(body())


def test_a_signed_file_with_its_header_edited_is_refused_and_format_1_is_never_signed(
    redis_url: str, tmp_path: Path
) -> None:
    """The signature of a format-2 file covers its header: players or result edited, the file
    is refused. A format-1 file signed by this very server (its entries only) still loads, and
    replay_loaded says it is not signed: its header is nobody's word."""
    key = None

    async def body() -> None:
        nonlocal key
        async with running_server(redis_url, tmp_path) as server:
            key = server.tokens.replay_key()
            log = engine_log(12)
            signed = replay_file.dumps(replay_file.build("m12", log, players=("Ann", "Bob"), key=key))
            c = await DuelClient.connect(url_of(server), "viewer")
            got = await upload(c, "ok", signed)
            assert isinstance(got, ReplayLoaded) and got.signed and got.players == ["Ann", "Bob"], got

            def rename(raw: dict[str, object]) -> None:
                raw["header"]["players"] = ["Mallory", "Bob"]  # type: ignore[index]

            got = await upload(c, "renamed", rewrite(signed, rename))
            assert isinstance(got, Error) and got.code == E.REPLAY_INVALID and "signature" in got.reason, got

            def win(raw: dict[str, object]) -> None:
                raw["header"]["result"]["winner"] = 1 - raw["header"]["result"]["winner"]  # type: ignore[index]

            got = await upload(c, "won", rewrite(signed, win))
            assert isinstance(got, Error) and got.code == E.REPLAY_INVALID, got
            await c.close()
            c = await DuelClient.connect(url_of(server), "viewer")
            old = replay_file.loads(signed, key)
            got = await upload(c, "v1", rewrite(v1_signed(old, key), rename))
            assert isinstance(got, ReplayLoaded) and not got.signed and got.players == ["Mallory", "Bob"], got
            await c.close()

    run(body())


def test_a_played_match_records_its_players_in_its_log_and_its_file_is_signed_whole(
    redis_url: str, tmp_path: Path
) -> None:
    async def body() -> None:
        async with running_server(redis_url, tmp_path) as server:
            a = await DuelClient.connect(url_of(server), "A")
            b = await DuelClient.connect(url_of(server), "B")
            await a.send(CreateMatch(name="Ann"))
            match_id = (await a.expect(Seated)).match_id
            await b.send(Join(match_id=match_id, name="Bob"))
            await b.expect(Seated)
            rnd = random.Random(4)
            while True:
                actor = await wait_for_turn([a, b])
                if actor is None:
                    break
                await actor.act({"do": "concede"} if rnd.random() < 0.05 else quietly(actor.legal))
            entries = await server.store.read(match_id)
            assert entries[0].action["players"] == ["Ann", "Bob"]
            replay = replay_file.build(match_id, entries, key=server.tokens.replay_key())
            back = replay_file.loads(replay_file.dumps(replay), server.tokens.replay_key())
            assert back.signed and back.players == ("Ann", "Bob") and back.result == replay.result
            for c in (a, b):
                await c.close()

    run(body())


def test_the_readers_queue_and_memory_are_bounded() -> None:
    """Beyond ``replay_queue`` jobs waiting or running, a read is refused at once (busy); a job
    that wants more memory than a reader process may have is refused (too large), and the
    reader goes on serving."""
    readers = Readers(ServerConfig(replay_queue=1, replay_reader_memory=1024 * MIB), b"k")

    async def body() -> None:
        first = asyncio.ensure_future(readers.run(time.sleep, 1.0))
        await asyncio.sleep(0)  # the first job is counted
        with pytest.raises(Refused) as busy:
            await readers.run(os.getpid)
        assert busy.value.code == E.REPLAY_BUSY
        await first
        with pytest.raises(Refused) as big:
            await readers.run(bytearray, 2048 * MIB)
        assert big.value.code == E.REPLAY_TOO_LARGE and "more memory" in big.value.reason
        assert await readers.run(os.getpid) != os.getpid()

    try:
        run(body())
    finally:
        readers.close()


def test_a_reader_that_does_not_keep_a_file_asks_for_its_text_and_pages_it_the_same() -> None:
    """What a reader process does for a page (here in this process): a file it does not keep is
    read again from its text, which the server sends only when asked (None)."""
    data = (GOLDEN / "classic.duelreplay").read_bytes()
    text = base64.b64encode(data).decode()
    limits = ServerConfig().replay_limits()
    loaded = check_file("r1", text, None, limits)
    ask = GetReplay(match_id="x", upload_id="f", from_seq=100, limit=5, views=True, viewpoint="0")
    kept = page_frame("r1", None, None, limits, loaded, ask)
    assert page_frame("r-not-kept", None, None, limits, loaded, ask) is None
    again = page_frame("r-not-kept", text, None, limits, loaded, ask)
    assert kept is not None and again is not None
    first, second = decode_server(kept), decode_server(again)
    assert isinstance(first, ReplayLog) and isinstance(second, ReplayLog)
    assert [e["seq"] for e in first.entries] == [e["seq"] for e in second.entries] == [100, 101, 102, 103, 104]
    assert [e["story"] for e in first.entries] == [e["story"] for e in second.entries]
