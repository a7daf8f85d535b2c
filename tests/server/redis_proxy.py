"""A TCP proxy between the server and Redis that can lose replies.

``LossyProxy`` listens on 127.0.0.1 and forwards every connection to a Redis
(unix socket or TCP). When a command the client writes contains one of the
``drop`` patterns (and drops are left for it), the proxy forwards the command,
waits for Redis's reply and, instead of passing it on, cuts the connection:
Redis did the work, the client never heard. That is the failure the lobby's
idempotent scripts must survive.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
from dataclasses import dataclass, field


def script_sha(source: str) -> bytes:
    """What EVALSHA sends for a script (redis-py sends the hex SHA-1)."""
    return hashlib.sha1(source.encode()).hexdigest().encode()


@dataclass
class LossyProxy:
    upstream: str  # "unix:///path" or "redis://host:port"
    drops: dict[bytes, int] = field(default_factory=dict)  # pattern -> replies still to lose
    dropped: list[bytes] = field(default_factory=list)
    _server: asyncio.Server | None = None
    _tasks: set[asyncio.Task[None]] = field(default_factory=set)

    async def start(self) -> LossyProxy:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        return self

    @property
    def url(self) -> str:
        assert self._server is not None
        port = self._server.sockets[0].getsockname()[1]
        return f"redis://127.0.0.1:{port}/0"

    def lose_reply_to(self, pattern: bytes, times: int = 1) -> None:
        self.drops[pattern] = self.drops.get(pattern, 0) + times

    async def _open_upstream(self) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        if self.upstream.startswith("unix://"):
            return await asyncio.open_unix_connection(self.upstream[len("unix://") :])
        host, port = self.upstream.split("://", 1)[1].split("/", 1)[0].rsplit(":", 1)
        return await asyncio.open_connection(host, int(port))

    async def _serve(self, c_reader: asyncio.StreamReader, c_writer: asyncio.StreamWriter) -> None:
        u_reader, u_writer = await self._open_upstream()
        lose = asyncio.Event()

        async def to_redis() -> None:
            while data := await c_reader.read(65536):
                for pattern, left in self.drops.items():
                    if left > 0 and pattern in data:
                        self.drops[pattern] = left - 1
                        self.dropped.append(pattern)
                        lose.set()
                        break
                u_writer.write(data)
                await u_writer.drain()

        async def to_client() -> None:
            while data := await u_reader.read(65536):
                if lose.is_set():
                    return  # Redis answered; the client will never hear it
                c_writer.write(data)
                await c_writer.drain()

        pumps = [asyncio.ensure_future(to_redis()), asyncio.ensure_future(to_client())]
        with contextlib.suppress(Exception):
            await asyncio.wait(pumps, return_when=asyncio.FIRST_COMPLETED)
        for p in pumps:
            p.cancel()
        for w in (c_writer, u_writer):
            w.close()
            with contextlib.suppress(Exception):
                await w.wait_closed()

    async def stop(self) -> None:
        if self._server is not None:
            self._server.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._server.wait_closed(), 2)
