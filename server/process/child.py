"""``duel serve`` as a real child process on a free port of 127.0.0.1 (the tests'
restart, kill and multi-process cases, and ``bench/server.py``)."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux /proc; 0 elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


class ServeProcess:
    def __init__(self, workdir: Path, *extra: str, secret: str, env: dict[str, str] | None = None) -> None:
        self.workdir = workdir
        self.args = [sys.executable, "-m", "server.cli", "serve", "--port", "0", *extra]
        self.env = {**os.environ, "PYTHONPATH": str(REPO), "DUEL_SECRET": secret, **(env or {})}
        self.env.pop("REDIS_URL", None)
        self.proc: subprocess.Popen[str] | None = None
        self.port = 0
        self.lines: list[str] = []

    def start(self, timeout: float = 20.0) -> ServeProcess:
        self.workdir.mkdir(parents=True, exist_ok=True)
        log = (self.workdir / "server.log").open("a")
        self.proc = subprocess.Popen(
            self.args, cwd=self.workdir, env=self.env, stdout=subprocess.PIPE, stderr=log, text=True
        )
        deadline = time.monotonic() + timeout
        assert self.proc.stdout is not None
        while time.monotonic() < deadline:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError(f"duel serve exited: {(self.workdir / 'server.log').read_text()[-2000:]}")
            self.lines.append(line.rstrip("\n"))
            m = re.search(r"listening on ws://[\d.]+:(\d+)", line)
            if m:
                self.port = int(m.group(1))
                return self
        raise RuntimeError("duel serve did not start in time")

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def cpu(self) -> float:
        return 0.0 if self.proc is None else cpu_seconds(self.proc.pid)

    def stop(self, sig: int = signal.SIGTERM, timeout: float = 20.0) -> int:
        assert self.proc is not None
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
        try:
            rc = self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            rc = self.proc.wait()
        if self.proc.stdout is not None:
            self.lines.extend(self.proc.stdout.read().splitlines())
            self.proc.stdout.close()
        return rc

    def __enter__(self) -> ServeProcess:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.stop()
