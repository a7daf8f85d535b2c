"""Hostile replay files at the sizes issue 34 measured, against a real server process.

Attackers, each from its own address (named by a trusted proxy's X-Forwarded-For), upload at
once: zip bombs of nil arrays (``DUEL_FAULT_BOMB_MB`` MB decompressed: the issue's 100 KB file
was about 70 MB, its 408 KB one about 290 MB) and a long file of do-nothing entries
(``DUEL_FAULT_UPLOAD_ENTRIES``: the issue's was 200,000), the server's entry limit raised so
that the long file is read whole, in a reader process. Meanwhile an honest duel is played: each
of its actions must be answered within LIVENESS_S. The server process's resident memory must
not grow by more than the files' text it keeps; the reader processes stay within their address
space limit. Then ``duel import`` of the largest bomb: refused in one line, its peak memory
that of the program itself.

Figures: one FAULT-FIGURES line (docs/reliability.md records a run of ``make faults``).
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
import zlib
from pathlib import Path

from protocol import errors as E
from protocol.messages import Error, ReplayLoaded
from server.clients.client import DuelClient
from server.clients.load import rss_kib
from server.history.replay_limits import DEFAULT_LIMITS, MIB
from server.process import child
from tests.faults.fault_helpers import ConfigServeProcess, knob, report
from tests.server.hostile_replays import LIVENESS_S, long_file, nil_bomb, upload, while_dueling

IMPORT_MEASURED = """
import runpy, sys
from pathlib import Path
sys.argv = ["duel", "import", sys.argv[1]]
try:
    runpy.run_module("server.cli", run_name="__main__")
    code = 0
except SystemExit as exc:
    code = exc.code
status = Path("/proc/self/status").read_text().splitlines()
print(next(line.split()[1] for line in status if line.startswith("VmHWM:")), file=sys.stderr)
sys.exit(code)
"""
"""``duel import FILE``, then its peak resident memory (KiB, VmHWM: this program's own, not the
forking parent's as ``ru_maxrss`` would count it) as the last line of stderr."""

BOMB_MB = knob("DUEL_FAULT_BOMB_MB", 32)
LONG_ENTRIES = knob("DUEL_FAULT_UPLOAD_ENTRIES", 5_000)
UPLOADERS = knob("DUEL_FAULT_UPLOADERS", 2)


def children(pid: int) -> list[int]:
    """The processes ``pid`` started, from any of its threads (Linux)."""
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            found += [int(p) for p in (task / "children").read_text().split()]
        except OSError:
            continue
    return found


def peak_kib(pid: int) -> int:
    """The most resident memory a process has held (VmHWM), KiB."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def test_hostile_uploads_neither_grow_the_server_nor_delay_a_duel(tmp_path: Path, redis_url: str) -> None:
    bomb = nil_bomb(BOMB_MB * MIB)
    long = long_file(LONG_ENTRIES)
    long_data = len(zlib.decompress(long[8:]))
    server = ConfigServeProcess(
        tmp_path / "s",
        redis_url,
        trusted_proxies=["127.0.0.1"],
        address_rate=100_000,
        rate_per_second=5_000,
        rate_burst=5_000,
        replay_max_entries=LONG_ENTRIES,
        replay_max_bytes=max(DEFAULT_LIMITS.max_bytes, 2 * len(long)),
        replay_max_data=max(DEFAULT_LIMITS.max_data, 2 * long_data),
        replay_queue=max(8, UPLOADERS),
        replay_reader_memory=4096 * MIB,  # it keeps the last 4 files it read: 4 long ones here
        replay_uploads_bytes=64 * MIB + 4 * UPLOADERS * max(len(long), len(bomb)),
    ).start()
    figures: dict[str, object] = {}

    async def attack() -> list[ReplayLoaded | Error]:
        async def one(i: int) -> ReplayLoaded | Error:
            c = await DuelClient.connect(server.url, f"attacker{i}", headers={"X-Forwarded-For": f"203.0.113.{i + 1}"})
            try:
                return await upload(c, f"u{i}", bomb if i % 2 == 0 else long, timeout=600)
            finally:
                await c.close()

        return list(await asyncio.gather(*(one(i) for i in range(UPLOADERS))))

    async def body() -> None:
        assert server.proc is not None
        rss_before = rss_kib(server.proc.pid) or 0
        answers, took = await while_dueling(server.url, attack)
        rss_after = rss_kib(server.proc.pid) or 0
        readers = children(server.proc.pid)
        by_code = [a.code if isinstance(a, Error) else "replay_loaded" for a in answers]
        figures.update(
            bomb_compressed_bytes=len(bomb),
            bomb_decompressed_mb=BOMB_MB,
            long_entries=LONG_ENTRIES,
            long_file_bytes=len(long),
            uploaders=UPLOADERS,
            answers=by_code,
            honest_actions=len(took),
            honest_slowest_ms=round(1000 * max(took), 1),
            server_rss_before_mib=round(rss_before / 1024, 1),
            server_rss_after_mib=round(rss_after / 1024, 1),
            reader_peak_rss_mib=[round(peak_kib(p) / 1024, 1) for p in readers],
        )
        for i, a in enumerate(answers):
            if i % 2 == 0:
                assert isinstance(a, Error) and a.code == E.REPLAY_TOO_LARGE, a
                assert "decompresses to more than" in a.reason
            else:
                assert isinstance(a, ReplayLoaded) and a.total == LONG_ENTRIES, a
        assert max(took) < LIVENESS_S, took
        # the server keeps the long files' text (a few MB), never a decoded file
        assert rss_after - rss_before < 64 * 1024 + (UPLOADERS * len(long)) // 512, figures

    try:
        asyncio.run(body())
    finally:
        server.stop()

    # duel import of the bomb: one line, exit 1, and the memory of the program itself
    path = tmp_path / "bomb.duelreplay"
    path.write_bytes(bomb)
    done = subprocess.run(
        [sys.executable, "-c", IMPORT_MEASURED, str(path)],
        cwd=tmp_path,
        env={**server.env, "PYTHONPATH": str(child.REPO)},
        capture_output=True,
        text=True,
        timeout=300,
    )
    *said, peak = done.stderr.strip().splitlines()
    import_peak_mib = int(peak) / 1024
    figures.update(import_exit=done.returncode, import_said=said, import_peak_rss_mib=round(import_peak_mib, 1))
    report("hostile_replay_uploads", **figures)
    assert done.returncode == 1 and len(said) == 1 and "decompresses to more than" in said[0], done.stderr
    assert import_peak_mib < 400, figures
