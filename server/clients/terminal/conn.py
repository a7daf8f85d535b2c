"""Connecting to a duel server and holding a seat, for the terminal clients.

Every failure a user can run into (no server, a bad ``--url``, an unknown or full match, a bad
token, a connection lost for good) becomes a :class:`CliError`: one plain line for the user and
an exit status. Taking a seat (``create_match``, ``join``, ``quick_match``) carries a fresh
``request_id`` and is retried with it when the answer is lost, so a retry never makes a second
match or takes a second seat (PROTOCOL.md, section 4). A dropped seat is resumed with its token.
A connection may first be logged in with an account (:class:`Account`, below).
"""

from __future__ import annotations

import asyncio
import contextlib
import getpass
import os
import secrets
import socket
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from protocol import errors as E
from protocol.messages import (
    Cards,
    ClientMessage,
    Closing,
    Error,
    GetCards,
    LoggedIn,
    Login,
    LoginToken,
    Presence,
    Reconnect,
    Register,
    Seated,
    Spectating,
)
from server.clients.client import DuelClient

DEFAULT_URL = "ws://127.0.0.1:8765"
SEAT_NAMES = ("A", "B")
ANSWER_TIMEOUT = 20.0
"""Seconds to wait for the answer to a seat request before retrying it."""
TAKE_TRIES = 4
RETRYABLE = (E.SERVER_UNAVAILABLE, E.SERVER_INTERNAL)

Prepare = Callable[[DuelClient], Awaitable[None]]
"""What is done on each new connection before its seat request (a login: :class:`Account`)."""


class CliError(Exception):
    """A failure to report as one line (``error: ...``) with a non-zero exit status."""

    def __init__(self, message: str, status: int = 1) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


def url_problem(url: str) -> str | None:
    """Why ``url`` cannot be a duel server's address (None if it looks right)."""
    try:
        parts = urlsplit(url)
        _ = parts.port  # reading it checks it
    except ValueError as exc:
        return f"bad --url {url!r}: {exc}; expected ws://HOST:PORT, e.g. {DEFAULT_URL}"
    if parts.scheme not in ("ws", "wss"):
        hint = ""
        if parts.scheme in ("http", "https"):
            hint = f" (the websocket address of that server is {'wss' if parts.scheme == 'https' else 'ws'}://{parts.netloc}{parts.path})"
        return f"bad --url {url!r}: it must start with ws:// or wss://{hint}; e.g. {DEFAULT_URL}"
    if not parts.hostname:
        return f"bad --url {url!r}: no host in it; expected ws://HOST:PORT, e.g. {DEFAULT_URL}"
    return None


async def connect(url: str, name: str) -> DuelClient:
    """A connected client that has said hello, or a :class:`CliError` saying why not."""
    problem = url_problem(url)
    if problem is not None:
        raise CliError(problem, 2)
    try:
        return await DuelClient.connect(url, name)
    except (InvalidURI, ValueError) as exc:
        raise CliError(f"bad --url {url!r}: {exc}", 2) from None
    except ConnectionRefusedError:
        raise CliError(
            f"no duel server at {url} (connection refused): start one with `make run` "
            "(or `duel serve`), or give its address with --url"
        ) from None
    except socket.gaierror as exc:
        raise CliError(f"cannot find the host of {url} ({exc.strerror or exc}): check --url") from None
    except InvalidHandshake as exc:
        raise CliError(f"{url} answered, but not as a duel server (websocket handshake failed: {exc})") from None
    except TimeoutError:
        raise CliError(f"the duel server at {url} did not answer in time") from None
    except (ConnectionClosed, EOFError):
        raise CliError(f"the duel server at {url} closed the connection before the handshake ended") from None
    except OSError as exc:
        raise CliError(f"cannot reach the duel server at {url}: {exc.strerror or exc}") from None


def error_line(err: Error, *, match_id: str | None = None) -> str:
    """What a refused seat request means, in words (and what to do instead)."""
    mid = match_id or "?"
    if err.code == E.MATCH_NOT_FOUND:
        return f"there is no match {mid} on this server (see the matches with: duel play --list)"
    if err.code == E.MATCH_FULL:
        return f"match {mid} is full: both seats are taken (watch it with: duel play --spectate {mid})"
    if err.code == E.SESSION_UNAUTHORIZED:
        if match_id is None:
            return "the server refused the token: it is not a valid seat token for this server"
        return f"match {mid} cannot be watched: {err.reason}"
    if err.code == E.DECK_INVALID:
        return f"the server refused the deck: {err.reason}"
    return f"the server refused: {err.reason} ({err.code})"


def fatal_close(client: DuelClient) -> str | None:
    """Why a closed connection must not be resumed (the seat was taken over), if it must not."""
    closing = next((m for m in reversed(client.inbox) if isinstance(m, Closing)), None)
    if closing is not None and not closing.reconnect:
        return "another connection took this seat with the same token (this one stops; use the other)"
    return None


async def fetch_catalogue(client: DuelClient) -> Cards:
    await client.send(GetCards())
    return await client.expect(Cards, timeout=ANSWER_TIMEOUT)


async def _answer(client: DuelClient) -> Seated | Spectating | Error | None:
    """The answer to a seat request: the seat, a refusal, or None when it was lost."""
    try:
        while True:
            msg = await client.recv(timeout=ANSWER_TIMEOUT)
            if isinstance(msg, Seated | Spectating | Error):
                return msg
            if isinstance(msg, Presence | Closing):
                continue
    except (EOFError, TimeoutError):
        return None


@dataclass
class Seat:
    """A seat (or a spectator's place) in a match, on a live connection."""

    url: str
    name: str
    client: DuelClient
    match_id: str
    seat: int | None  # None: spectating
    token: str = ""
    started: bool = True
    players: list[str] = field(default_factory=lambda: ["", ""])
    first_message: int = 0
    """Index in ``client.inbox`` of the first message after the seat was taken."""
    command: str = "duel play"
    """The command that resumes this seat (for the hints)."""
    prepare: Prepare | None = None
    """Done on each new connection before the seat is taken back (a login)."""

    @property
    def seat_name(self) -> str:
        return "spectator" if self.seat is None else SEAT_NAMES[self.seat]

    def _bind(self, client: DuelClient, answer: Seated | Spectating) -> None:
        self.client = client
        self.first_message = client.inbox.index(answer) + 1
        if any(answer.players):
            self.players = list(answer.players)

    async def resume(self, give_up_after: float, on_retry: Callable[[], None] | None = None) -> None:
        """Take the seat back after the connection dropped (the token; for a spectator,
        ``spectate`` again), trying with backoff for ``give_up_after`` seconds."""
        from protocol.messages import Spectate

        reason = fatal_close(self.client)
        if reason is not None:
            raise CliError(reason)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + give_up_after
        last_seq = self.client.seq
        duel = self.client.match.duel if self.client.match is not None else 1
        delay = 0.2
        while True:
            try:
                client = await connect(self.url, self.name)
            except CliError:
                client = None
            if client is not None and self.prepare is not None:
                try:
                    await self.prepare(client)
                except (EOFError, TimeoutError, ConnectionClosed, OSError):
                    await _close_quietly(client)
                    client = None
            if client is not None:
                request: ClientMessage = (
                    Spectate(match_id=self.match_id, last_seq=last_seq, duel=duel)
                    if self.seat is None
                    else Reconnect(token=self.token, last_seq=last_seq, duel=duel)
                )
                await _send_quietly(client, request)
                answer = await _answer(client)
                if isinstance(answer, Seated | Spectating):
                    self._bind(client, answer)
                    return
                if isinstance(answer, Error) and answer.code not in RETRYABLE:
                    raise CliError(error_line(answer, match_id=None if self.seat is not None else self.match_id))
                await _close_quietly(client)
            if loop.time() + delay > deadline:
                break
            if on_retry is not None:
                on_retry()
            await asyncio.sleep(delay)
            delay = min(3.0, delay * 2)
        raise CliError(f"lost the connection to {self.url} and could not get it back; {self.resume_hint()}")

    def resume_hint(self) -> str:
        if self.seat is None:
            return f"watch again with: duel play --spectate {self.match_id}{url_flag(self.url)}"
        return f"resume with: {self.command} --reconnect {self.token}{url_flag(self.url)}"


def url_flag(url: str) -> str:
    """`` --url URL`` for a command to print, unless it is the default."""
    return "" if url.rstrip("/") == DEFAULT_URL else f" --url {url}"


async def _send_quietly(client: DuelClient, msg: ClientMessage) -> None:
    with contextlib.suppress(ConnectionClosed, OSError):
        await client.send(msg)


async def _close_quietly(client: DuelClient) -> None:
    with contextlib.suppress(ConnectionClosed, OSError, TimeoutError):
        await asyncio.wait_for(client.close(), 5)


def new_request_id() -> str:
    """128+ random bits in base64url (PROTOCOL.md: 16-64 characters of [A-Za-z0-9_-])."""
    return secrets.token_urlsafe(18)


async def take_seat(
    url: str,
    name: str,
    request: ClientMessage,
    *,
    client: DuelClient | None = None,
    match_id: str | None = None,
    prepare: Prepare | None = None,
) -> Seat:
    """Send ``request`` (create_match, join, quick_match, reconnect or spectate) and return the
    seat. A lost answer (the connection dropped, no answer in time, the server's store briefly
    unavailable) is retried with the very same request, which carries a ``request_id`` (or is a
    token or a spectate), so the retry gets the same seat. A refusal is a :class:`CliError`.
    ``prepare``: done on each new connection first (``client``, given, is already prepared)."""
    for attempt in range(TAKE_TRIES):
        if client is None:
            client = await connect(url, name)
            if prepare is not None:
                try:
                    await prepare(client)
                except (EOFError, TimeoutError, ConnectionClosed, OSError):
                    await _close_quietly(client)
                    client = None
                    await asyncio.sleep(0.3 * 2**attempt)
                    continue
        await _send_quietly(client, request)
        answer = await _answer(client)
        if isinstance(answer, Seated):
            seat = Seat(url, name, client, answer.match_id, answer.seat, answer.token, answer.started)
            seat.prepare = prepare
            seat._bind(client, answer)
            return seat
        if isinstance(answer, Spectating):
            seat = Seat(url, name, client, answer.match_id, None)
            seat._bind(client, answer)
            return seat
        if isinstance(answer, Error) and answer.code not in RETRYABLE:
            await _close_quietly(client)
            raise CliError(error_line(answer, match_id=match_id))
        await _close_quietly(client)
        client = None
        await asyncio.sleep(0.3 * 2**attempt)
    raise CliError(f"the duel server at {url} did not answer the request (tried {TAKE_TRIES} times)")


# ---------------------------------------------------------------------- logging in with an account
#
# ``duel play --account NAME`` logs every connection of the process in, so that it can play rated
# matches (``--rated``) and take back a rated seat (PROTOCOL.md section 4a). The password is never
# an argument (``ps`` would show it to every user of the machine): it is read from the environment
# variable ``DUEL_PASSWORD`` when set (scripts), else typed at a prompt that does not echo it. It is
# sent once, in ``login`` (or ``register`` with ``--register``), on the first connection; every
# later connection (a retried seat request, a seat taken back after the connection dropped) logs
# in with the session token that answer gave (``login_token``), kept only in this process's
# memory. Neither is printed.

PASSWORD_ENV = "DUEL_PASSWORD"
"""The environment variable a script may give the account's password in."""


@dataclass
class Account:
    """An account to log every connection of this process in as."""

    name: str
    password: str = field(repr=False)
    register: bool = False
    token: str = field(default="", repr=False)  # the session token of the first login
    shown_name: str = ""  # the name as registered (``logged_in.name``)

    async def log_in(self, client: DuelClient) -> None:
        """Log ``client`` in (the password the first time, the session token after): else a
        :class:`CliError` saying why not."""
        request: ClientMessage
        if self.token:
            request = LoginToken(token=self.token)
        elif self.register:
            request = Register(name=self.name, password=self.password)
        else:
            request = Login(name=self.name, password=self.password)
        await client.send(request)
        while True:
            msg = await client.recv(timeout=ANSWER_TIMEOUT)
            if isinstance(msg, LoggedIn):
                self.token, self.shown_name = msg.token, msg.name
                self.register = False  # made once: a later connection logs in
                return
            if isinstance(msg, Error):
                raise CliError(refusal(msg, self.name))


def refusal(err: Error, name: str) -> str:
    """What a refused login means, in words."""
    if err.code == E.ACCOUNT_BAD_LOGIN:
        return f"the server refused the login of {name!r}: wrong name or password"
    if err.code == E.ACCOUNT_NAME_TAKEN:
        return f"there is already an account called {name!r} (log in without --register)"
    return f"the server refused the login of {name!r}: {err.reason} ({err.code})"


def account_of(name: str | None, register: bool) -> Account | None:
    """The account ``--account NAME`` names, its password from ``DUEL_PASSWORD`` or a prompt that
    does not echo it (None: no ``--account``, a guest)."""
    if name is None:
        if register:
            raise CliError("--register goes with --account NAME", 2)
        return None
    password = os.environ.get(PASSWORD_ENV)
    if password is None:
        try:
            password = getpass.getpass(f"password for {name}: ")
            if register:
                again = getpass.getpass("the same password again: ")
                if again != password:
                    raise CliError("the two passwords differ: nothing was registered", 2)
        except EOFError:
            raise CliError(f"no password for {name!r}: type it at the prompt, or set {PASSWORD_ENV}", 2) from None
    if not password:
        raise CliError(f"no password for {name!r}: type it at the prompt, or set {PASSWORD_ENV}", 2)
    return Account(name, password, register)
