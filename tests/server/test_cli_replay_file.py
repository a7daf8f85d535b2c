"""``duel replay FILE`` and ``duel verify FILE``: a replay file is read with no Redis at all.

The files are the golden replays (tests/golden/*.duelreplay); a copy with one byte
changed, a missing file and a file signed by another deployment are refused or
reported in one line each.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from server.history import replay_file

GOLDEN = Path(__file__).resolve().parents[1] / "golden"


def duel(*args: str, cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    import os

    environment = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "DUEL_SECRET")}
    environment.update(env or {})
    return subprocess.run(
        [sys.executable, "-m", "server.cli", *args],
        cwd=cwd,
        env={**environment, "PYTHONPATH": str(Path(__file__).resolve().parents[2])},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_verify_and_replay_a_file_without_redis(tmp_path: Path) -> None:
    path = GOLDEN / "classic.duelreplay"
    replay = replay_file.read(path)
    done = duel("verify", str(path), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert f"match {replay.match_id}, {len(replay.entries)} entries, hash chain intact" in done.stdout
    assert f"OK: {len(replay.entries)} entries" in done.stdout
    assert not (tmp_path / "var").exists(), "reading a file must not start a Redis"

    shown = duel("replay", str(path), cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    winner = replay.header["result"]["winner"]
    assert f"Winner: {'AB'[winner]}" in shown.stdout
    assert f"after entry {len(replay.entries)}" in shown.stdout

    # B's eyes: B's own hand is named, A's face-down cards are not (the narration of the
    # omniscient replay names more cards than B's)
    as_b = duel("replay", str(path), "--as", "B", cwd=tmp_path)
    assert as_b.returncode == 0, as_b.stderr
    assert len(as_b.stdout) < len(shown.stdout)


def test_a_damaged_or_missing_file_is_one_clear_line(tmp_path: Path) -> None:
    damaged = tmp_path / "damaged.duelreplay"
    data = bytearray((GOLDEN / "classic.duelreplay").read_bytes())
    data[200] ^= 0xFF
    damaged.write_bytes(bytes(data))
    done = duel("verify", str(damaged), cwd=tmp_path)
    assert done.returncode == 1
    assert done.stderr.startswith(f"error: {damaged}: the file is damaged"), done.stderr
    assert "Traceback" not in done.stderr

    missing = duel("replay", str(tmp_path / "nope.duelreplay"), cwd=tmp_path)
    assert missing.returncode == 1
    assert "cannot read" in missing.stderr and "Traceback" not in missing.stderr


def test_a_file_altered_and_resigned_elsewhere_is_refused_here(tmp_path: Path) -> None:
    """A file signed by this deployment verifies; the same entries with another key's
    signature are refused when this data dir holds the key."""
    src = replay_file.read(GOLDEN / "counters-vs-battle-step.duelreplay")
    (tmp_path / "var").mkdir()
    secret = "s" * 64
    from server.lobby.tokens import SeatTokens

    ours = replay_file.build(src.match_id, src.entries, key=SeatTokens(secret.encode()).replay_key())
    theirs = replay_file.build(src.match_id, src.entries, key=SeatTokens(b"t" * 64).replay_key())
    replay_file.write(tmp_path / "ours.duelreplay", ours)
    replay_file.write(tmp_path / "theirs.duelreplay", theirs)
    env = {"DUEL_SECRET": secret}
    ok = duel("verify", "ours.duelreplay", cwd=tmp_path, env=env)
    assert ok.returncode == 0, ok.stderr
    assert "signed by this deployment" in ok.stdout
    bad = duel("verify", "theirs.duelreplay", cwd=tmp_path, env=env)
    assert bad.returncode == 1
    assert "signature does not hold" in bad.stderr
    # without the key here, the signature cannot be checked, and says so
    unknown = duel("verify", str(tmp_path / "theirs.duelreplay"), cwd=tmp_path / "var")
    assert unknown.returncode == 0, unknown.stderr
    assert "signature not checked" in unknown.stdout


def test_the_copy_of_a_golden_file_verifies_anywhere(tmp_path: Path) -> None:
    copy = tmp_path / "copy"
    shutil.copy(GOLDEN / "battle-step-vs-end-step.duelreplay", copy)  # no suffix: an existing file
    done = duel("verify", str(copy), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "OK:" in done.stdout
