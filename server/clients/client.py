"""A small asyncio client of the duel protocol (tests, bots, examples).

It keeps what the server told it: the latest seq, view, pending decision and
legal actions, and every message received (``inbox``), so a caller can both
play and inspect.
"""

from __future__ import annotations

import asyncio
import itertools
import random
import secrets
from dataclasses import dataclass, field
from typing import Any, TypeVar

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from protocol.codec import decode_server, encode
from protocol.messages import (
    PROTOCOL_VERSION,
    Accepted,
    Act,
    ChooseFirst,
    ClientMessage,
    ConcedeDuel,
    Error,
    Hello,
    MatchState,
    Presence,
    Rejected,
    Seated,
    ServerMessage,
    SideDeck,
    Update,
    Welcome,
)

M = TypeVar("M", bound=ServerMessage)

# a simple bot policy (tests, benchmarks, ``duel play --bot``): attack and summon so duels end
PREFERENCE = ("attack", "summon", "enter_battle_phase", "set", "change_position", "flip_summon")
FORWARD = ("end_battle_phase", "next_phase", "end_turn", "pass")


def bot_choice(legal: list[dict[str, Any]], rnd: random.Random) -> dict[str, Any]:
    """Prefer attacks and summons so that duels end; otherwise move on; never concede."""
    for kind in PREFERENCE:
        options = [a for a in legal if a.get("do") == kind]
        if options:
            return rnd.choice(options)
    for kind in FORWARD:
        options = [a for a in legal if a.get("do") == kind]
        if options:
            return options[0]
    choices = [a for a in legal if a.get("do") != "concede"]
    return rnd.choice(choices or legal)


class ClientError(Exception):
    """The server answered a request with an error frame."""

    def __init__(self, error: Error) -> None:
        super().__init__(f"{error.code}: {error.reason}")
        self.error = error


@dataclass
class DuelClient:
    ws: ClientConnection
    name: str = "client"
    seq: int = 0
    view: dict[str, Any] | None = None
    pending: dict[str, Any] | None = None
    legal: list[dict[str, Any]] = field(default_factory=list)
    state_hash: str = ""
    presence: list[bool] | None = None  # whether each seat has a live connection, as last told
    seat: int | None = None  # the seat taken (``seated``)
    match: MatchState | None = None  # a match of several duels, as last told (``match_state``)
    _kept_for: int = 0  # the duel whose break ``keep_deck`` answered
    _chose_for: int = 0  # the duel whose first player this seat chose
    inbox: list[ServerMessage] = field(default_factory=list)
    frames: list[bytes] = field(default_factory=list)
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    _ids: itertools.count[int] = field(default_factory=lambda: itertools.count(1))
    _prefix: str = field(default_factory=lambda: secrets.token_hex(4))
    _queue: asyncio.Queue[ServerMessage | None] = field(default_factory=asyncio.Queue)
    _reader: asyncio.Task[None] | None = None

    @classmethod
    async def connect(
        cls, url: str, name: str = "client", *, hello: bool = True, headers: dict[str, str] | None = None
    ) -> DuelClient:
        """``headers``: more HTTP headers for the opening handshake."""
        ws = await connect(url, max_size=8 * 1024 * 1024, compression=None, open_timeout=10, additional_headers=headers)
        client = cls(ws, name)
        client._reader = asyncio.create_task(client._read_loop())
        if hello:
            await client.send(Hello(versions=[PROTOCOL_VERSION], client=name))
            await client.expect(Welcome)
        return client

    async def send(self, msg: ClientMessage) -> None:
        await self.ws.send(encode(msg))

    async def send_raw(self, data: bytes | str) -> None:
        await self.ws.send(data)

    async def _read_loop(self) -> None:
        """Read every frame as it arrives and keep the latest state."""
        try:
            async for data in self.ws:
                assert isinstance(data, bytes), "the server sends binary frames only"
                self.frames.append(data)
                msg = decode_server(data)
                self.inbox.append(msg)
                if isinstance(msg, Accepted) and msg.seq > self.seq:
                    self.legal = []  # our view is older than our own entry: wait for its update
                if isinstance(msg, MatchState):
                    before = self.match.duel_id if self.match is not None else msg.match_id
                    if before != msg.duel_id:
                        self.seq, self.view, self.pending, self.legal = 0, None, None, []  # another duel's log
                    self.match = msg
                elif isinstance(msg, Seated):
                    self.seat = msg.seat
                if isinstance(msg, Update):
                    self.seq = msg.seq
                    self.state_hash = msg.state_hash
                    if msg.view is not None:
                        self.view, self.pending, self.legal = msg.view, msg.pending, msg.legal
                    if msg.presence is not None:
                        self.presence = msg.presence
                elif isinstance(msg, Presence):
                    self.presence = msg.seats
                self._queue.put_nowait(msg)
                self.changed.set()
        except ConnectionClosed:
            pass
        finally:
            self._queue.put_nowait(None)
            self.changed.set()

    @property
    def closed(self) -> bool:
        return self._reader is not None and self._reader.done()

    async def recv(self, timeout: float = 10.0) -> ServerMessage:
        """The next message not yet returned by recv (TimeoutError, EOFError)."""
        msg = await asyncio.wait_for(self._queue.get(), timeout)
        if msg is None:
            self._queue.put_nowait(None)
            raise EOFError("the connection is closed")
        return msg

    async def expect(self, kind: type[M], timeout: float = 10.0) -> M:
        """Read until a message of ``kind`` arrives (others are kept in inbox)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            msg = await self.recv(max(0.01, deadline - loop.time()))
            if isinstance(msg, kind):
                return msg

    def drain(self) -> None:
        """Forget the messages not yet returned by recv (the state is kept)."""
        while not self._queue.empty():
            msg = self._queue.get_nowait()
            if msg is None:
                self._queue.put_nowait(None)
                return

    @property
    def position(self) -> tuple[str, int]:
        """Where the client is: the duel (its id; "" for a match of one) and the seq in it."""
        return ("" if self.match is None else self.match.duel_id, self.seq)

    def next_action_id(self) -> str:
        """Unique per seat even across reconnects: a random part per connection, then a count."""
        return f"{self.name}-{self._prefix}-{next(self._ids)}"

    async def act(
        self,
        action: dict[str, Any],
        *,
        expected_seq: int | None = None,
        action_id: str | None = None,
        timeout: float = 10.0,
    ) -> Accepted | Rejected:
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
            if isinstance(msg, Error):
                raise ClientError(msg)

    @property
    def owes_decision(self) -> bool:
        return bool(self.legal)

    @property
    def duel_over(self) -> bool:
        """The duel watched is over (a match of several may go on)."""
        return self.view is not None and self.pending is None and self.view.get("winner") is not None

    @property
    def finished(self) -> bool:
        """The match is over: its only duel, or the last of several (``match_state``)."""
        if self.match is not None and self.match.best_of > 1:
            return self.match.phase == "finished"
        return self.duel_over

    @property
    def between_duels(self) -> bool:
        return self.match is not None and self.match.phase == "siding"

    async def keep_deck(self) -> bool:
        """Between two duels: done siding with the deck as it is, and, if this seat chooses, go
        first (what the bots do). True if anything was sent."""
        m = self.match
        if m is None or m.phase != "siding" or self.seat is None or self._kept_for == m.duel:
            return False
        self._kept_for = m.duel
        sent = False
        if not m.ready[self.seat] and m.deck is not None:
            await self.send(SideDeck(deck=list(m.deck), side=list(m.side or [])))
            sent = True
        if m.chooser == self.seat and m.first is None and self._chose_for != m.duel:
            await self.choose_first(True)
            sent = True
        return sent

    async def choose_first(self, go_first: bool) -> None:
        """Between two duels, as the seat that chooses: go first or second in the next one."""
        if self.match is not None:
            self._chose_for = self.match.duel
        await self.send(ChooseFirst(go_first=go_first))

    async def concede_duel(self, timeout: float = 10.0) -> Accepted | Rejected:
        """Give up the current duel only (the match goes on if it is not decided)."""
        cid = self.next_action_id()
        await self.send(ConcedeDuel(client_action_id=cid))
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            msg = await self.recv(max(0.01, deadline - loop.time()))
            if isinstance(msg, Accepted | Rejected) and msg.client_action_id == cid:
                return msg
            if isinstance(msg, Error):
                raise ClientError(msg)

    async def close(self) -> None:
        await self.ws.close()
        if self._reader is not None:
            await self._reader
