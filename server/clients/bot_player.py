"""A bot that plays a seat over the public protocol, like any client.

``duel bot`` runs one against a server; the server runs one itself for a
player who asks to play against the bot (``create_match`` with ``opponent:
"bot"``). It connects, takes a seat (join, quick match, a token, or a match it
creates), and answers every decision it owes with its policy
(``server.clients.bot``), after an optional think time; a policy with ``observe``
is given the facts of every update the seat receives. A dropped connection is
resumed with its token. With
``abandoned_after`` set (the server's own bot: server.lobby.bot_seats), it leaves a
match whose opponent has been disconnected that long.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

import structlog
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from protocol.messages import (
    Closing,
    CreateMatch,
    Error,
    Join,
    Presence,
    QuickMatch,
    Reconnect,
    Rejected,
    Seated,
    Update,
)
from server.clients.bot import POLICIES, Policy, greedy
from server.clients.client import ClientError, DuelClient

log = structlog.get_logger("duel.bot")

RECONNECT_TRIES = 8


@dataclass
class BotResult:
    match_id: str
    seat: int
    winner: int | str | None
    actions: int
    left: bool = False  # it left the match unfinished: its opponent was gone (``abandoned_after``)


@dataclass
class BotPlayer:
    url: str
    policy: Policy = greedy
    seed: int | None = None
    think_s: float = 0.0
    name: str = "bot"
    deck: list[int] | None = None
    headers: dict[str, str] | None = None  # more HTTP headers for each connection's handshake
    abandoned_after: float | None = None  # leave once the opponent has been disconnected this long
    on_seated: Callable[[Seated], None] | None = None  # told where it sits (the match it created)
    rnd: random.Random = field(init=False)
    actions: int = 0

    def __post_init__(self) -> None:
        self.rnd = random.Random(self.seed)

    @classmethod
    def named(cls, url: str, policy: str, **kw: Any) -> BotPlayer:
        return cls(url, POLICIES[policy](), **kw)

    async def create(self, request: CreateMatch) -> BotResult:
        """Create a match (``request``'s options; its deck and name are the bot's) and play seat 0
        once an opponent joins (``on_seated`` learns the match id)."""
        return await self._play(replace(request, deck=self.deck, name=self.name, request_id=_request_id()))

    async def join(self, match_id: str) -> BotResult:
        return await self._play(Join(match_id=match_id, deck=self.deck, name=self.name, request_id=_request_id()))

    async def quick(self) -> BotResult:
        return await self._play(QuickMatch(deck=self.deck, name=self.name, request_id=_request_id()))

    async def resume(self, token: str) -> BotResult:
        return await self._play(Reconnect(token=token))

    async def _play(self, first: CreateMatch | Join | QuickMatch | Reconnect) -> BotResult:
        study = getattr(self.policy, "study", None)
        if callable(study) and self.deck is not None:
            study({}, self.deck)  # the deck it brings (the catalogue only the curious policy reads)
        client = await DuelClient.connect(self.url, self.name, headers=self.headers)
        await client.send(first)
        seated = await _seated(client)
        token, match_id, seat = seated.token, seated.match_id, seated.seat
        if self.on_seated is not None:
            self.on_seated(seated)
        while True:
            try:
                left = await self._loop(client, 1 - seat)
                winner = client.view.get("winner") if client.view else None
                with contextlib.suppress(Exception):
                    await client.close()
                return BotResult(match_id, seat, winner, self.actions, left)
            except (ConnectionClosed, EOFError):
                closing = next((m for m in reversed(client.inbox) if isinstance(m, Closing)), None)
                if closing is not None and not closing.reconnect:
                    raise
                client = await self._reconnect(token, client.seq, client.match.duel if client.match else 1)

    async def _reconnect(self, token: str, last_seq: int, duel: int = 1) -> DuelClient:
        for attempt in range(RECONNECT_TRIES):
            await asyncio.sleep(min(5.0, 0.2 * 2**attempt))
            with contextlib.suppress(OSError, ConnectionClosed, InvalidHandshake, TimeoutError):
                client = await DuelClient.connect(self.url, self.name, headers=self.headers)
                await client.send(Reconnect(token=token, last_seq=last_seq, duel=duel))
                await _seated(client)
                return client
        raise ConnectionError(f"could not reconnect to {self.url}")

    async def _loop(self, client: DuelClient, opponent: int) -> bool:
        """Play until the duel ends (False) or the opponent has been gone ``abandoned_after``
        seconds (True)."""
        asked_at: tuple[str, int] = ("", -1)
        loop = asyncio.get_running_loop()
        gone_since: float | None = None
        observe = getattr(self.policy, "observe", None)
        observed = 0
        while True:
            if callable(observe):
                while observed < len(client.inbox):
                    msg = client.inbox[observed]
                    observed += 1
                    if isinstance(msg, Update):
                        observe(msg.facts)
            if client.finished:
                return False
            if client.closed:
                raise EOFError("connection closed")
            if client.between_duels:
                await client.keep_deck()  # a bot sides nothing, and goes first when it chooses
            wait = 5.0
            if self.abandoned_after is not None:
                if client.presence is None or client.presence[opponent]:
                    gone_since = None
                else:
                    gone_since = loop.time() if gone_since is None else gone_since
                    wait = gone_since + self.abandoned_after - loop.time()
                    if wait <= 0:
                        return True
            if client.legal and client.view is not None and asked_at != client.position:
                asked_at = client.position
                # the think time includes the policy's own (a search takes its budget)
                pause = self.think_s * (0.5 + self.rnd.random()) if self.think_s else 0.0
                began = loop.time()
                action = await decide(self.policy, client.view, client.legal, self.rnd)
                if pause > loop.time() - began:
                    await asyncio.sleep(pause - (loop.time() - began))
                if client.position != asked_at:
                    continue  # the duel moved on while we thought
                try:
                    reply = await client.act(action)
                except ClientError as exc:
                    if exc.error.code == "server/unavailable":
                        await asyncio.sleep(0.5)
                        asked_at = ("", -1)
                        continue
                    raise
                self.actions += 1
                if isinstance(reply, Rejected):
                    asked_at = ("", -1)  # stale: decide again on the next update
                continue
            client.changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(client.changed.wait(), min(5.0, wait))


async def decide(policy: Policy, view: dict[str, Any], legal: list[dict[str, Any]], rnd: random.Random) -> Any:
    """The policy's action; a policy with an async ``think`` (the search bot) thinks outside the
    event loop (``server.clients.search.pool``), which goes on meanwhile."""
    think = getattr(policy, "think", None)
    if callable(think):
        return await think(view, legal, rnd)
    return policy(view, legal, rnd)


async def _seated(client: DuelClient) -> Seated:
    while True:
        msg = await client.recv(timeout=30)
        if isinstance(msg, Seated):
            return msg
        if isinstance(msg, Error):
            raise ClientError(msg)
        if isinstance(msg, Presence):
            continue


def _request_id() -> str:
    return secrets.token_urlsafe(18)


__all__ = ["BotPlayer", "BotResult", "InvalidURI", "decide"]
