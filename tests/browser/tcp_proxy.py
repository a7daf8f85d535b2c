"""A TCP proxy between the browser and the duel server that can hold or cut the traffic, as a
network does (in the spirit of tests/server/redis_proxy.py).

``hold()``: every byte either way is kept instead of passed on, and connections made meanwhile
are accepted and held too (a Wi-Fi that stalls: the sockets look open, nothing arrives);
``release()`` passes on what was kept and lets the traffic flow again. ``cut()``: every connection
is closed and new ones are closed as soon as they are accepted (the network is gone) until
``restore()``. The browser's own offline switch would not do: it leaves websockets open."""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass, field


@dataclass
class Pipe:
    """One direction of one connection: what it reads is written on, or kept while held."""

    writer: asyncio.StreamWriter
    kept: list[bytes] = field(default_factory=list)

    def write(self, data: bytes, held: bool) -> None:
        if held:
            self.kept.append(data)
        else:
            self.flush()
            self.writer.write(data)

    def flush(self) -> None:
        for data in self.kept:
            self.writer.write(data)
        self.kept.clear()


@dataclass
class TcpProxy:
    upstream_port: int
    held: bool = False
    cut_off: bool = False
    _server: asyncio.Server | None = None
    _pipes: list[Pipe] = field(default_factory=list)
    _writers: set[asyncio.StreamWriter] = field(default_factory=set)
    _tasks: set[asyncio.Task[None]] = field(default_factory=set)

    async def start(self) -> TcpProxy:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        return self

    @property
    def port(self) -> int:
        assert self._server is not None
        return int(self._server.sockets[0].getsockname()[1])

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    async def hold(self) -> None:
        self.held = True

    async def release(self) -> None:
        self.held = False
        for pipe in self._pipes:
            with contextlib.suppress(Exception):
                pipe.flush()

    async def cut(self) -> None:
        self.cut_off = True
        for w in list(self._writers):
            w.close()

    async def restore(self) -> None:
        self.cut_off = False

    async def _serve(self, c_reader: asyncio.StreamReader, c_writer: asyncio.StreamWriter) -> None:
        if self.cut_off:
            c_writer.close()
            return
        u_reader, u_writer = await asyncio.open_connection("127.0.0.1", self.upstream_port)
        to_server, to_client = Pipe(u_writer), Pipe(c_writer)
        self._pipes += [to_server, to_client]
        self._writers |= {c_writer, u_writer}

        async def pump(reader: asyncio.StreamReader, pipe: Pipe) -> None:
            while data := await reader.read(65536):
                pipe.write(data, self.held)
                if not self.held:
                    await pipe.writer.drain()

        pumps = [asyncio.ensure_future(pump(c_reader, to_server)), asyncio.ensure_future(pump(u_reader, to_client))]
        with contextlib.suppress(Exception):
            await asyncio.wait(pumps, return_when=asyncio.FIRST_COMPLETED)
        # one side closed: a held connection stays held (its bytes are kept) until released
        while self.held and not self.cut_off:
            await asyncio.sleep(0.05)
        for p in pumps:
            p.cancel()
        for pipe in (to_server, to_client):
            with contextlib.suppress(Exception):
                pipe.flush()
            self._pipes.remove(pipe)
        for w in (c_writer, u_writer):
            self._writers.discard(w)
            w.close()
            with contextlib.suppress(Exception):
                await w.wait_closed()

    async def stop(self) -> None:
        await self.cut()
        if self._server is not None:
            self._server.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._server.wait_closed(), 2)
