"""Drive the ``duel`` command in a pseudo-terminal, as a person at a terminal would.

``Terminal`` starts ``python -m server.cli ARGS`` with its stdin, stdout and stderr on the slave
side of a pty (so ``isatty()`` is true and output is line-buffered, exactly as in a terminal),
reads everything it prints in a thread, and lets a test wait for text (``expect``) and type lines
(``send``).
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


class Terminal:
    def __init__(self, *args: str, cwd: Path | None = None, env: dict[str, str] | None = None) -> None:
        master, slave = os.openpty()
        full_env = {**os.environ, "PYTHONPATH": str(REPO), "COLUMNS": "200", "TERM": "dumb", **(env or {})}
        self.args = args
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "server.cli", *args],
            stdin=slave,
            stdout=slave,
            stderr=slave,
            cwd=cwd or REPO,
            env=full_env,
            start_new_session=True,
        )
        os.close(slave)
        self.master = master
        self.text = ""
        self.mark = 0  # expect() searches from here
        self._lock = threading.Lock()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        while True:
            try:
                data = os.read(self.master, 65536)
            except OSError:  # EIO: the child closed its side
                return
            if not data:
                return
            with self._lock:
                self.text += data.decode("utf-8", "replace").replace("\r\n", "\n")

    def output(self) -> str:
        with self._lock:
            return self.text

    def expect(self, pattern: str, timeout: float = 20.0) -> re.Match[str]:
        """Wait until ``pattern`` appears after the mark; move the mark past it."""
        rx = re.compile(pattern, re.MULTILINE)
        deadline = time.monotonic() + timeout
        while True:
            with self._lock:
                m = rx.search(self.text, self.mark)
                if m is not None:
                    self.mark = m.end()
                    return m
            if time.monotonic() > deadline:
                raise AssertionError(f"{pattern!r} did not appear; the terminal shows:\n{self.text[-4000:]}")
            if self.proc.poll() is not None and not self._reader.is_alive():
                with self._lock:
                    m = rx.search(self.text, self.mark)
                if m is None:
                    raise AssertionError(
                        f"the command exited ({self.proc.returncode}) before {pattern!r}; it "
                        f"showed:\n{self.text[-4000:]}"
                    )
            time.sleep(0.01)

    def send(self, line: str) -> None:
        os.write(self.master, (line + "\n").encode())

    def wait(self, timeout: float = 30.0) -> int:
        try:
            rc = self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            raise AssertionError(f"the command did not exit; it showed:\n{self.text[-4000:]}") from None
        self._reader.join(5)
        return rc

    def kill(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)

    def close(self) -> None:
        self.kill()
        self._reader.join(5)
        with contextlib.suppress(OSError):
            os.close(self.master)

    def __enter__(self) -> Terminal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def run_to_end(
    *args: str, timeout: float = 30.0, cwd: Path | None = None, env: dict[str, str] | None = None
) -> tuple[int, str]:
    """Run a command in a terminal to its end; its exit status and everything it printed."""
    with Terminal(*args, cwd=cwd, env=env) as t:
        rc = t.wait(timeout)
        return rc, t.output()
