"""``duel import`` against hostile files (issue 34): the replay limits hold before any work
(no Redis is even started for a file refused), and the match history takes nothing from a file
but its verified log: a signed file with its header edited, half a duel claiming a win, an
unsigned file with an edited fact or action are each refused in one line, exit 1, and nothing
is listed by ``duel matches``. Real Redis (REDIS_URL), the real command in a subprocess."""

from __future__ import annotations

import dataclasses
import secrets
import struct
import zlib
from pathlib import Path
from typing import Any

from hostile_replays import edited_fact, header_of, nil_bomb, rewrite, with_log
from logs import engine_log
from test_cli_replay_file import duel

from protocol.codec import pack
from server.history import replay_file
from server.history.replay_limits import DEFAULT_LIMITS
from server.lobby.tokens import SeatTokens

SECRET = "i" * 64
KEY = SeatTokens(SECRET.encode()).replay_key()


def refused(tmp_path: Path, data: bytes, env: dict[str, str], *words: str) -> str:
    """Import ``data``: it must be refused in one line naming ``words``; that line."""
    path = tmp_path / f"{secrets.token_hex(4)}.duelreplay"
    path.write_bytes(data)
    done = duel("import", str(path), "--as", f"x{secrets.token_hex(5)}", cwd=tmp_path, env=env)
    assert done.returncode == 1, done.stdout
    line = done.stderr.strip()
    assert line.startswith(f"duel import: {path}: ") and "\n" not in line and "Traceback" not in line, line
    for w in words:
        assert w in line, line
    return line


def test_files_beyond_the_limits_are_refused_before_any_work(tmp_path: Path) -> None:
    env = {"DUEL_SECRET": SECRET}
    bomb = nil_bomb(3 * DEFAULT_LIMITS.max_data)
    assert len(bomb) < 64 * 1024
    refused(tmp_path, bomb, env, f"decompresses to more than {DEFAULT_LIMITS.max_data} bytes")
    n = DEFAULT_LIMITS.max_entries + 1
    header = pack(header_of(n))
    many = replay_file.MAGIC + zlib.compress(b"\x82\xa6header" + header + b"\xa7entries\xdd" + struct.pack(">I", n))
    refused(tmp_path, many, env, f"{n} entries; at most {DEFAULT_LIMITS.max_entries}")
    big = tmp_path / "big.duelreplay"
    with big.open("wb") as f:
        f.truncate(DEFAULT_LIMITS.max_bytes + 1)
    refused(tmp_path, big.read_bytes(), env, f"at most {DEFAULT_LIMITS.max_bytes} are read here")
    assert not (tmp_path / "var").exists(), "a refused file must not start a Redis"


def test_the_history_comes_from_the_verified_log_and_forgeries_are_refused(tmp_path: Path, redis_url: str) -> None:
    env = {"DUEL_SECRET": SECRET, "REDIS_URL": redis_url}
    log = engine_log(17)
    signed = replay_file.build("m17", log, players=("Ann17", "Bob17"), key=KEY)
    data = replay_file.dumps(signed)
    result = signed.header["result"]
    assert result["finished"] and result["winner"] in (0, 1)

    # a signed file with its header edited: the signature covers the header
    def rename(raw: dict[str, Any]) -> None:
        raw["header"]["players"] = ["Mallory17", "Bob17"]

    refused(tmp_path, rewrite(data, rename), env, "signature does not hold")

    def other_winner(raw: dict[str, Any]) -> None:
        raw["header"]["result"]["winner"] = 1 - result["winner"]

    refused(tmp_path, rewrite(data, other_winner), env, "signature does not hold")
    # the same edits on an unsigned file: the header must agree with the log
    unsigned = replay_file.dumps(replay_file.build("m17", log, players=("Ann17", "Bob17")))
    refused(tmp_path, rewrite(unsigned, other_winner), env, "header's result is not what its log gives")
    # half the duel, honestly summarised, and claiming a win
    half = replay_file.dumps(replay_file.build("m17", log[: len(log) // 2]))
    refused(tmp_path, half, env, "had not ended")

    def claims_a_win(raw: dict[str, Any]) -> None:
        raw["header"]["result"].update(winner=0, finished=True, reason="lp")

    refused(tmp_path, rewrite(half, claims_a_win), env, "header's result is not what its log gives")
    # an unsigned file whose log was edited and rebuilt (chain, result): verification finds it
    refused(tmp_path, with_log(signed, edited_fact(log)), env, "does not verify", "DIVERGED at entry")
    i = next(i for i, e in enumerate(log) if i > 1 and e.action.get("do") == "pass")
    acted = [*log[:i], dataclasses.replace(log[i], action={"do": "concede"}), *log[i + 1 :]]
    refused(tmp_path, with_log(signed, acted), env, "does not verify", f"DIVERGED at entry {i + 1}")

    # the honest signed file imports; the history says what its log says
    path = tmp_path / "m17.duelreplay"
    path.write_bytes(data)
    match_id = f"ok{secrets.token_hex(5)}"
    done = duel("import", str(path), "--as", match_id, cwd=tmp_path, env=env)
    assert done.returncode == 0, done.stderr
    listed = duel("matches", "--player", "Ann17", cwd=tmp_path, env=env)
    assert listed.returncode == 0, listed.stderr
    rows = [line for line in listed.stdout.splitlines() if line.startswith(match_id)]
    assert len(rows) == 1, listed.stdout
    assert "Ann17 vs Bob17" in rows[0] and f"{'AB'[result['winner']]} won" in rows[0]
    assert "Mallory17" not in listed.stdout
    nothing = duel("matches", "--player", "Mallory17", cwd=tmp_path, env=env)
    assert "no finished matches" in nothing.stdout

    # an unsigned file from a log that names nobody: its header's names are nobody's word
    path = tmp_path / "unsigned.duelreplay"
    path.write_bytes(unsigned)
    match_id = f"un{secrets.token_hex(5)}"
    done = duel("import", str(path), "--as", match_id, cwd=tmp_path, env=env)
    assert done.returncode == 0, done.stderr
    listed = duel("matches", "--limit", "500", cwd=tmp_path, env=env)
    row = next(line for line in listed.stdout.splitlines() if line.startswith(match_id))
    assert "? vs ?" in row and "Ann17" not in row
