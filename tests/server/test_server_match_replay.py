"""A whole match's replay (issue 39): every duel of a best of three in one file, in order
(``GET /matches/<id>.duelreplay``, server.history.replay_file), checked as a duel's file is and
against the match's record (an altered score, duels out of order or a duel of another match are
refused), replayed and verified by ``duel replay FILE`` / ``duel verify FILE`` duel after duel; the
replay pages of a match's duel name the match (``replay.match``). Real Redis, real websockets."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import msgpack
import pytest
from duel_helpers import run, running_server, url_of
from hostile_replays import upload
from match_helpers import at, concede_duel, duel_started, start_match, until
from term_helpers import REPO
from test_server_matches import http_body, http_status

from protocol.codec import pack
from protocol.messages import Error, GetReplay, ReplayLog
from server.history import replay_file
from server.history.replay_limits import ReplayFileError
from server.storage import keys


async def _two_nil(url: str) -> tuple[Any, Any, str]:
    """A best of three B gives up twice: 2-0 to A."""
    a, b, match_id, _ = await start_match(url)
    await concede_duel(b)
    for c in (a, b):
        await until(c, at("siding", 2))
    await b.choose_first(False)
    for c in (a, b):
        await c.keep_deck()
    for c in (a, b):
        await until(c, duel_started(2))
    await concede_duel(b)
    for c in (a, b):
        await until(c, lambda c: c.finished)
    return a, b, match_id


async def _get_bytes(port: int, path: str) -> bytes:
    import asyncio
    import urllib.request

    def get() -> bytes:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=10) as r:
            return bytes(r.read())

    return await asyncio.to_thread(get)


def _repack(data: bytes, change: Any) -> bytes:
    raw = msgpack.unpackb(data[len(replay_file.MATCH_MAGIC) :], raw=False)
    change(raw)
    return replay_file.MATCH_MAGIC + pack(raw)


def test_a_whole_match_in_one_file_replayed_duel_after_duel(redis_url: str, tmp_path: Path) -> None:
    got: dict[str, Any] = {}

    async def body() -> None:
        async with running_server(redis_url, tmp_path) as server:
            url = url_of(server)
            a, b, match_id = await _two_nil(url)
            duel2 = keys.duel_id(match_id, 2)
            record = json.loads(await http_body(server.port, f"/matches/{match_id}.json"))
            assert record["replay"] == f"/matches/{match_id}.duelreplay"
            data = await _get_bytes(server.port, record["replay"])
            assert replay_file.is_match_file(data)
            key = server.tokens.replay_key()
            whole = replay_file.loads_match(data, key)
            assert whole.signed and whole.match_id == match_id
            assert [d.match_id for d in whole.duels] == [match_id, duel2]
            assert whole.header["score"] == [2, 0] and whole.header["result"] == {"winner": 0, "reason": "score"}
            assert [r["first"] for r in whole.rows][1] == 0 and whole.rows[1]["chooser"] == 1
            # each duel inside is that duel's own file, byte for byte
            for d, duel_id in zip(whole.duels, (match_id, duel2), strict=True):
                alone = await _get_bytes(server.port, f"/replays/{duel_id}.duelreplay")
                assert replay_file.loads(alone, key).header["chain"] == d.header["chain"]
            # a duel's id is not a match's file; an unknown id neither
            assert await http_status(server.port, f"/matches/{duel2}.duelreplay") == 404
            assert await http_status(server.port, "/matches/nosuchmatch1.duelreplay") == 404
            # a page of a duel's replay names its match and its number
            await a.send(GetReplay(match_id=duel2, viewpoint="all", limit=5))
            page = await a.expect(ReplayLog)
            assert page.match is not None and page.match["duel"] == 2 and page.match["match_id"] == match_id
            assert page.match["replay"] == record["replay"] and len(page.match["duels"]) == 2
            # the viewer plays one duel's file: a match's file sent to it is refused in words
            refused = await upload(a, "whole", data)
            assert isinstance(refused, Error) and refused.code == "replay/invalid", refused
            assert "a whole match's replay file" in refused.reason and "duel replay FILE" in refused.reason
            got.update(data=data, key=key, match_id=match_id)
            for c in (a, b):
                await c.close()

    run(body())
    data, key, match_id = got["data"], got["key"], got["match_id"]
    # altered: a score the duels do not give, duels out of order, a duel missing (found by any
    # reader, key or none), or anything at all in the header (its signature, where the key is)
    for change, words in (
        (lambda raw: raw["header"].__setitem__("score", [1, 1]), "its score is not what its duels give"),
        (lambda raw: raw["duels"].reverse(), "duel 1 is not the duel its header names"),
        (lambda raw: raw["duels"].pop(), "not those its header lists"),
    ):
        with pytest.raises(ReplayFileError, match=words):
            replay_file.loads_match(_repack(data, change))
    with pytest.raises(ReplayFileError, match="signature does not hold"):
        replay_file.loads_match(_repack(data, lambda raw: raw["header"]["result"].__setitem__("winner", 1)), key)
    assert not replay_file.loads_match(data).signed  # no key: read and checked, not reported signed
    with pytest.raises(ReplayFileError, match="does not start with DUELMTC1"):
        replay_file.loads_match(b"DUELRPL1" + data[8:])
    # the command line: every duel in order, then the match's result; verify, duel by duel
    path = tmp_path / f"{match_id}.duelreplay"
    path.write_bytes(data)
    nodata = ("--data-dir", str(tmp_path / "elsewhere"))  # no key here: the signatures are not checked
    out = _cli("replay", str(path), *nodata)
    first, second = out.index("===== Duel 1"), out.index("===== Duel 2")
    assert first < second, out
    heading = f'===== Duel 2 ({match_id}-2): A "Ann" goes first (B "Bob"\'s choice); won by A "Ann" (concede, '
    assert heading + "conceded (duel)) =====" in out, out
    assert out.startswith(f'Match {match_id}: best of 3, current, A "Ann" vs B "Bob", 2 duels\n'), out
    assert out.rstrip().endswith(f'Match {match_id} over: A "Ann" wins, 2-0 (score)'), out
    assert out.count("Final state of match") == 2
    only = _cli("replay", str(path), "--duel", "2", *nodata)
    assert "===== Duel 1" not in only and "===== Duel 2" in only
    verified = _cli("verify", str(path), *nodata)
    assert "OK: duel 1" in verified and "OK: duel 2" in verified and "2 duels" in verified


def _cli(*args: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "server.cli", *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
        env={"PYTHONPATH": str(REPO), "DUEL_ENGINE": "pure", "PATH": "/usr/bin:/bin"},
    )
    assert done.returncode == 0, (done.stdout, done.stderr)
    return done.stdout
