"""Helpers of the match tests (matches of several duels): start one, wait for its states, play or
concede its duels, over real websockets."""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import Callable
from typing import Any

from protocol.messages import Accepted, CreateMatch, Join, MatchState, Seated, Update
from server import rules
from server.clients.client import DuelClient
from server.clients.client import bot_choice as choose

Q = rules.named_format("current")


def side_cards(count: int, avoid: set[int]) -> list[int]:
    """``count`` distinct cards of today's pool the engine plays, Main Deck cards, none of ``avoid``."""
    playable = {c.code for c in rules.supported()}
    out = []
    for code in sorted(Q.pool):
        data = rules.CARDS[code]
        if code in playable and code not in avoid and not data.extra_deck:
            out.append(code)
        if len(out) == count:
            return out
    raise AssertionError("not enough cards")


async def start_match(
    url: str, best_of: int = 3, sides: tuple[list[int] | None, list[int] | None] = (None, None), **create: Any
) -> tuple[DuelClient, DuelClient, str, list[str]]:
    """Seat 0 creates a match of ``best_of`` duels, seat 1 joins; both have duel 1's first update."""
    a = await DuelClient.connect(url, "A")
    b = await DuelClient.connect(url, "B")
    await a.send(CreateMatch(name="Ann", best_of=best_of, side=sides[0], **create))
    seated_a = await a.expect(Seated)
    await b.send(Join(match_id=seated_a.match_id, name="Bob", side=sides[1]))
    seated_b = await b.expect(Seated)
    for c in (a, b):
        await until(c, lambda c: c.view is not None)
    return a, b, seated_a.match_id, [seated_a.token, seated_b.token]


async def until(c: DuelClient, ready: Callable[[DuelClient], bool], timeout: float = 15.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not ready(c):
        if loop.time() > deadline:
            raise TimeoutError(f"{c.name}: not ready; match {c.match}")
        c.changed.clear()
        c.drain()
        if ready(c):
            return
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(c.changed.wait(), max(0.01, deadline - loop.time()))


def at(phase: str, duel: int) -> Callable[[DuelClient], bool]:
    """The client was told the match is in ``phase`` at duel ``duel``."""
    return lambda c: c.match is not None and c.match.phase == phase and c.match.duel == duel


def duel_started(duel: int) -> Callable[[DuelClient], bool]:
    """The client has duel ``duel``'s first update (and its view)."""
    return lambda c: c.match is not None and c.match.duel == duel and c.match.phase == "dueling" and c.view is not None


async def concede_duel(c: DuelClient) -> None:
    reply = await c.concede_duel()
    assert isinstance(reply, Accepted), reply


async def play_duel(clients: list[DuelClient], rnd: random.Random, max_actions: int = 2000) -> None:
    """Play the current duel to its end with the tests' aggressive player (never conceding)."""
    for _ in range(max_actions):
        for c in clients:
            c.drain()
        if all(c.duel_over for c in clients):
            return
        top = max(c.seq for c in clients)
        actor = next((c for c in clients if c.seq == top and c.owes_decision), None)
        if actor is None:
            waits = [asyncio.ensure_future(c.changed.wait()) for c in clients]
            for c in clients:
                c.changed.clear()
            await asyncio.wait(waits, timeout=5, return_when=asyncio.FIRST_COMPLETED)
            for w in waits:
                w.cancel()
            continue
        reply = await actor.act(choose([a for a in actor.legal if a["do"] != "concede"], rnd))
        assert isinstance(reply, Accepted), reply
    raise AssertionError("the duel did not end")


def states(c: DuelClient) -> list[MatchState]:
    return [m for m in c.inbox if isinstance(m, MatchState)]


def first_update(c: DuelClient, duel_id: str) -> Update:
    return next(m for m in c.inbox if isinstance(m, Update) and m.match_id == duel_id and m.seq == 1)
