"""Redis round trips per accepted action, counted from what Redis itself receives (issue 14).

``INFO commandstats`` also counts the commands a Lua script runs inside Redis (the append
script's XADD, HSET, PUBLISH ...), which cost no round trip: it reported 6.4 commands per
action where the server makes about one request. ``MONITOR`` tells them apart: a command a
script runs is marked ``lua``; everything else arrived over a client connection, one request
each (commands sent in one pipeline arrive as several requests but one round trip; the hot
path sends none, so the count is exact there and an upper bound elsewhere).

    with Monitor(redis_url) as mon:
        ...  # drive the server
    mon.counts   # Counter of top-level commands by name (EVALSHA, XRANGE, ...)

MONITOR slows Redis down, so the benchmark counts in a separate, short run, never while it
times anything.
"""

from __future__ import annotations

import hashlib
import threading
from collections import Counter
from types import TracebackType

import redis


def _client(url: str) -> redis.Redis:
    if url.startswith("unix://"):
        return redis.Redis(unix_socket_path=url.removeprefix("unix://"))
    return redis.Redis.from_url(url)


def script_sha(source: str) -> str:
    return hashlib.sha1(source.encode()).hexdigest()


class Monitor:
    """Counts the commands Redis receives from clients while the block runs; ``EVALSHA`` of
    a script named in ``scripts`` (name -> source) is counted under that name."""

    def __init__(self, url: str, scripts: dict[str, str] | None = None) -> None:
        self.url = url
        self.names = {script_sha(src): name for name, src in (scripts or {}).items()}
        self.counts: Counter[str] = Counter()
        self.scripted: Counter[str] = Counter()  # run inside a script: no round trip
        self._stop = threading.Event()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._listen, daemon=True)
        self._marker = "bench-roundtrips-stop"

    def _listen(self) -> None:
        r = _client(self.url)
        with r.monitor() as m:  # type: ignore[no-untyped-call]
            self._ready.set()
            for cmd in m.listen():
                words = str(cmd["command"]).split(" ", 2)
                name = words[0].upper()
                if name == "ECHO" and len(words) > 1 and words[1] == self._marker:
                    break
                if cmd["client_type"] == "lua":
                    self.scripted[name] += 1
                elif name == "EVALSHA" and len(words) > 1:
                    self.counts[self.names.get(words[1].lower(), name)] += 1
                elif name not in ("MONITOR", "ECHO"):
                    self.counts[name] += 1
        r.close()

    def __enter__(self) -> Monitor:
        self._thread.start()
        # redis-py's monitor() returns once Redis has answered MONITOR: from then on every
        # command is streamed to it
        if not self._ready.wait(10):
            raise RuntimeError("MONITOR did not start")
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        r = _client(self.url)
        r.echo(self._marker)  # the listener stops when it sees this: everything before it counted
        r.close()
        self._thread.join(30)

    @property
    def total(self) -> int:
        return sum(self.counts.values())
