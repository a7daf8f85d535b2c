"""A small asyncio client of the duel protocol (tests, bots, examples).

It keeps what the server told it: the latest seq, view, pending decision and
legal actions, and every message received (``inbox``), so a caller can both
play and inspect.
"""

from __future__ import annotations

import asyncio
import itertools
from dataclasses import dataclass, field
from typing import Any, TypeVar

from websockets.asyncio.client import ClientConnection, connect

from protocol.codec import decode_server, encode
from protocol.messages import (
    PROTOCOL_VERSION,
    Accepted,
    Act,
    ClientMessage,
    Hello,
    Rejected,
    ServerMessage,
    Update,
    Welcome,
)

M = TypeVar("M", bound=ServerMessage)


@dataclass
class DuelClient:
    ws: ClientConnection
    name: str = "client"
    seq: int = 0
    view: dict[str, Any] | None = None
    pending: dict[str, Any] | None = None
    legal: list[dict[str, Any]] = field(default_factory=list)
    state_hash: str = ""
    inbox: list[ServerMessage] = field(default_factory=list)
    frames: list[bytes] = field(default_factory=list)
    _ids: itertools.count[int] = field(default_factory=lambda: itertools.count(1))

    @classmethod
    async def connect(cls, url: str, name: str = "client", *, hello: bool = True) -> DuelClient:
        ws = await connect(url, max_size=8 * 1024 * 1024, compression=None, open_timeout=10)
        client = cls(ws, name)
        if hello:
            await client.send(Hello(versions=[PROTOCOL_VERSION], client=name))
            await client.expect(Welcome)
        return client

    async def send(self, msg: ClientMessage) -> None:
        await self.ws.send(encode(msg))

    async def send_raw(self, data: bytes | str) -> None:
        await self.ws.send(data)

    async def recv(self, timeout: float = 10.0) -> ServerMessage:
        data = await asyncio.wait_for(self.ws.recv(), timeout)
        assert isinstance(data, bytes), "the server sends binary frames only"
        self.frames.append(data)
        msg = decode_server(data)
        self.inbox.append(msg)
        if isinstance(msg, Accepted) and msg.seq > self.seq:
            self.legal = []  # our view is older than our own accepted entry: wait for its update
        if isinstance(msg, Update):
            self.seq = msg.seq
            self.state_hash = msg.state_hash
            if msg.view is not None:
                self.view, self.pending, self.legal = msg.view, msg.pending, msg.legal
        return msg

    async def expect(self, kind: type[M], timeout: float = 10.0) -> M:
        """Read until a message of ``kind`` arrives (others are kept in inbox)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            msg = await self.recv(max(0.01, deadline - loop.time()))
            if isinstance(msg, kind):
                return msg

    async def drain(self, quiet: float = 0.05) -> None:
        """Read whatever arrives until the line is quiet for ``quiet`` seconds."""
        while True:
            try:
                await self.recv(quiet)
            except TimeoutError:
                return

    def next_action_id(self) -> str:
        return f"{self.name}-{next(self._ids)}"

    async def act(self, action: dict[str, Any], *, expected_seq: int | None = None,
                  action_id: str | None = None, timeout: float = 10.0) -> Accepted | Rejected:
        """Send an action and wait for its answer."""
        cid = action_id or self.next_action_id()
        seq = self.seq if expected_seq is None else expected_seq
        await self.send(Act(client_action_id=cid, expected_seq=seq, action=action))
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            msg = await self.recv(max(0.01, deadline - loop.time()))
            if isinstance(msg, Accepted | Rejected) and msg.client_action_id == cid:
                return msg

    @property
    def owes_decision(self) -> bool:
        return bool(self.legal)

    @property
    def finished(self) -> bool:
        return self.view is not None and self.pending is None and self.view.get("winner") is not None

    async def close(self) -> None:
        await self.ws.close()
