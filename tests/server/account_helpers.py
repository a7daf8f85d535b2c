"""Helpers of the accounts and ladder tests: ask and get the answer (or the error), register,
log in, and a rated match between two accounts."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable
from typing import TypeVar

from protocol.messages import (
    ClientMessage,
    CreateMatch,
    Error,
    Join,
    LoggedIn,
    Login,
    Register,
    Seated,
    ServerMessage,
    Update,
)
from server.clients.client import DuelClient

M = TypeVar("M", bound=ServerMessage)


async def ask(c: DuelClient, msg: ClientMessage, kind: type[M], timeout: float = 20.0) -> M | Error:
    """Send ``msg``; the first answer of ``kind``, or the first error."""
    await c.send(msg)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        got = await c.recv(max(0.01, deadline - loop.time()))
        if isinstance(got, (kind, Error)):
            return got


async def refused(c: DuelClient, msg: ClientMessage, code: str) -> Error:
    got = await ask(c, msg, Error)
    assert isinstance(got, Error) and got.code == code, got
    return got


def unique(prefix: str) -> str:
    """A name no other test uses (the tests share one Redis)."""
    return f"{prefix}-{secrets.token_hex(4)}"


async def registered(url: str, name: str, password: str) -> tuple[DuelClient, LoggedIn]:
    c = await DuelClient.connect(url, name[:8])
    got = await ask(c, Register(name=name, password=password), LoggedIn)
    assert isinstance(got, LoggedIn), got
    return c, got


async def logged_in(url: str, name: str, password: str) -> DuelClient:
    c = await DuelClient.connect(url, name[:8])
    got = await ask(c, Login(name=name, password=password), LoggedIn)
    assert isinstance(got, LoggedIn), got
    return c


async def rated_match(a: DuelClient, b: DuelClient) -> tuple[str, list[str]]:
    """``a`` creates a rated match, ``b`` joins it; both have the genesis update."""
    seated_a = await ask(a, CreateMatch(rated=True), Seated)
    assert isinstance(seated_a, Seated), seated_a
    seated_b = await ask(b, Join(match_id=seated_a.match_id), Seated)
    assert isinstance(seated_b, Seated) and seated_b.started, seated_b
    for c in (a, b):
        while c.view is None:
            await c.expect(Update)
    return seated_a.match_id, [seated_a.token, seated_b.token]


async def until(check: Callable[[], object], what: str, timeout: float = 20.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not check():
        assert loop.time() < deadline, f"not within {timeout} s: {what}"
        await asyncio.sleep(0.05)
