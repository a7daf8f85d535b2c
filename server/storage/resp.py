"""A lean, pipelined Redis connection for the hot path: one socket, many requests in flight.

redis-py spends more CPU per command than the command itself costs: a pool checkout, a
retry wrapper, a deprecation shim, a timeout context and a round of packing for every call
(measured under load: about 17 % of the server's CPU went to appending, most of it in
the client; docs/performance-log/2026-11-23-01-server-lean-redis-client.md). The appends of
every match are independent requests whose replies come back in the order they were sent, so
one connection can carry them all at once: each call writes its command and waits for its own
reply, which the protocol hands out in order (RESP2 replies, parsed by hiredis).

Only what the hot path needs: commands, replies, ``EVALSHA`` with a fall-back to ``EVAL``,
one reconnect-and-retry policy. A dropped connection fails every request in flight with
:class:`RedisConnectionError`; the caller's call is sent again on a new connection (up to
``RETRIES`` times), which is safe because every write the server makes is a script that
may run twice (server.storage.store: a repeated action key appends nothing). One server only:
``redis://`` and ``unix://`` URLs (``rediss://`` and clusters use redis-py).
"""

from __future__ import annotations

import asyncio
import hashlib
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar, cast
from urllib.parse import parse_qs, unquote, urlsplit

import hiredis
from redis.exceptions import BusyLoadingError, ResponseError
from redis.exceptions import ConnectionError as RedisConnectionError

P = TypeVar("P", bound=asyncio.BaseProtocol)

RETRIES = 3
"""A call whose connection broke is sent again this many times (on a new connection)."""
CALL_TIMEOUT_S = 5.0
"""A reply later than this breaks the connection (like redis-py's ``socket_timeout``), and
the calls in flight are retried on a new one."""
CONNECT_TIMEOUT_S = 2.0


def supports(url: str) -> bool:
    """Whether this client can talk to ``url`` (one server, no TLS)."""
    return url.startswith(("redis://", "unix://"))


def encode(args: tuple[bytes | str | int, ...]) -> bytes:
    """One command in RESP (an array of bulk strings: str as UTF-8, int in decimal), packed by
    hiredis (4.5x faster than the same in Python, which was 3 % of the server's CPU at
    saturation; tests/server/test_resp.py compares it with :func:`encode_reference`)."""
    packed: bytes = hiredis.pack_command(cast(Any, args))  # its stub takes a 1-tuple: any length works
    return packed


def encode_reference(args: tuple[bytes | str | int, ...]) -> bytes:
    """What :func:`encode` packs, written out from the RESP specification."""
    out = [b"*%d\r\n" % len(args)]
    for a in args:
        b = a if isinstance(a, bytes) else (a.encode() if isinstance(a, str) else b"%d" % a)
        out.append(b"$%d\r\n" % len(b))
        out.append(b)
        out.append(b"\r\n")
    return b"".join(out)


def _error(text: str) -> ResponseError | BusyLoadingError:
    """A Redis error reply as redis-py raises it: ``LOADING`` (a restarted Redis still reading
    its AOF: the command was not run) is a ``BusyLoadingError``, a connection error, so the call
    is retried and then, if Redis is still loading, answered ``server/unavailable`` like any
    other outage; a client that sends the action again is appended once (its action id). Any
    other error is a ``ResponseError``."""
    return BusyLoadingError(text) if text.startswith("LOADING") else ResponseError(text)


class _Protocol(asyncio.Protocol):
    """Replies are handed to the waiting calls in the order the commands were written.

    The commands of one turn of the event loop go out in one write (fewer system calls when
    many matches append at once). A watchdog aborts the connection when the oldest command
    has waited longer than :data:`CALL_TIMEOUT_S`: its reply, and so every later one, can no
    longer be trusted to arrive, and the callers retry on a new connection."""

    def __init__(self, timeout_s: float = CALL_TIMEOUT_S) -> None:
        self.timeout_s = timeout_s
        self.reader = hiredis.Reader()
        self.waiting: deque[asyncio.Future[Any]] = deque()
        self.sent_at: deque[float] = deque()
        self.outbox: list[bytes] = []
        self.transport: asyncio.Transport | None = None
        self.lost = False
        self.loop = asyncio.get_running_loop()
        self.watchdog: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        self.reader.feed(data)
        waiting, sent_at = self.waiting, self.sent_at
        while True:
            reply = self.reader.gets()
            if reply is False:
                return
            if not waiting:  # pragma: no cover - Redis never answers what was not asked
                continue
            fut = waiting.popleft()
            sent_at.popleft()
            if fut.done():  # its caller was cancelled
                continue
            if isinstance(reply, hiredis.ReplyError):
                fut.set_exception(_error(str(reply)))
            else:
                fut.set_result(reply)

    def connection_lost(self, exc: Exception | None) -> None:
        self.lost = True
        if self.watchdog is not None:
            self.watchdog.cancel()
        self.sent_at.clear()
        while self.waiting:
            fut = self.waiting.popleft()
            if not fut.done():
                fut.set_exception(RedisConnectionError(f"connection to Redis lost: {exc or 'closed'}"))

    def send(self, data: bytes, *, now: bool = False) -> asyncio.Future[Any]:
        """Queue a command (written with the rest of this turn's, or at once if ``now``,
        together with those queued before it); the future gets its reply."""
        fut: asyncio.Future[Any] = self.loop.create_future()
        self.waiting.append(fut)
        self.sent_at.append(self.loop.time())
        if not self.outbox and not now:
            self.loop.call_soon(self._flush)
        self.outbox.append(data)
        if now:
            self._flush()  # a flush already scheduled finds the outbox empty
        if self.watchdog is None:
            self.watchdog = self.loop.call_later(self.timeout_s, self._check)
        return fut

    def _flush(self) -> None:
        if not self.outbox:
            return
        data, self.outbox = b"".join(self.outbox), []
        if self.transport is not None and not self.lost:
            self.transport.write(data)

    def _check(self) -> None:
        self.watchdog = None
        if not self.sent_at:
            return
        late = self.loop.time() - self.sent_at[0]
        if late >= self.timeout_s:
            assert self.transport is not None
            self.transport.abort()  # connection_lost fails every call in flight
            return
        self.watchdog = self.loop.call_later(self.timeout_s - late, self._check)


class Pipe:
    """One pipelined connection to one Redis, (re)connected on first use."""

    def __init__(self, url: str, timeout_s: float = CALL_TIMEOUT_S) -> None:
        self._timeout_s = timeout_s
        if not supports(url):
            raise ValueError(f"the lean Redis client does not handle {url.split('://', 1)[0]}:// URLs")
        parts = urlsplit(url)
        query = parse_qs(parts.query)
        self._unix = unquote(parts.path) if parts.scheme == "unix" else None
        self._host = parts.hostname or "127.0.0.1"
        self._port = parts.port or 6379
        self._password = unquote(parts.password) if parts.password else None
        self._username = unquote(parts.username) if parts.username else None
        if self._unix is not None:
            db = query.get("db", ["0"])[0]
        else:
            db = (parts.path or "/0").lstrip("/") or query.get("db", ["0"])[0]
        self._db = int(db)
        self._proto: _Protocol | None = None
        self._connecting: asyncio.Lock | None = None

    async def _open(self, factory: Callable[[], P]) -> tuple[asyncio.Transport, P]:
        """A new connection to the server (unix socket or TCP) speaking ``factory()``'s protocol."""
        loop = asyncio.get_running_loop()
        try:
            if self._unix is not None:
                opening = loop.create_unix_connection(factory, self._unix)
            else:
                opening = loop.create_connection(factory, self._host, self._port)
            transport, proto = await asyncio.wait_for(opening, CONNECT_TIMEOUT_S)
        except (OSError, TimeoutError) as exc:
            raise RedisConnectionError(f"cannot connect to Redis: {exc}") from exc
        assert isinstance(transport, asyncio.Transport)
        return transport, proto

    def _auth(self) -> tuple[str, ...]:
        assert self._password is not None
        return ("AUTH", self._username, self._password) if self._username else ("AUTH", self._password)

    def _protocol(self) -> _Protocol:
        return _Protocol(self._timeout_s)

    async def _connection(self) -> _Protocol:
        proto = self._proto
        if proto is not None and not proto.lost:
            return proto
        if self._connecting is None:
            self._connecting = asyncio.Lock()
        async with self._connecting:  # one reconnect for all the calls that found it broken
            if self._proto is not None and not self._proto.lost:
                return self._proto
            _, proto = await self._open(self._protocol)
            if self._password is not None:
                await proto.send(encode(self._auth()))
            if self._db:
                await proto.send(encode(("SELECT", self._db)))
            self._proto = proto
            return proto

    async def call(self, *args: bytes | str | int) -> Any:
        """Send one command and return its reply (a Redis error raises ``ResponseError``)."""
        data = encode(args)
        delay = 0.05
        for attempt in range(RETRIES + 1):
            try:
                proto = await self._connection()
                return await proto.send(data)
            except RedisConnectionError:
                if attempt == RETRIES:
                    raise
                await asyncio.sleep(delay)
                delay = min(0.5, delay * 2)
        raise AssertionError("unreachable")  # pragma: no cover

    @property
    def quiet(self) -> bool:
        """Connected, and no command is waiting for its reply: one written now goes out alone."""
        proto = self._proto
        return proto is not None and not proto.lost and not proto.waiting

    def start(self, *args: bytes | str | int) -> Awaitable[Any]:
        """:meth:`call`, with the command on its way before this returns: written at once when
        the pipe is :attr:`quiet` (the caller works while Redis runs it), else queued for this
        turn's write with the others (many commands in flight: one write for all of them is
        cheaper than the time won). Await the result for the reply (a lost connection retries
        as :meth:`call` does)."""
        proto = self._proto
        if proto is None or proto.lost:
            return self.call(*args)
        return self._retried(proto.send(encode(args), now=self.quiet), args)

    async def _retried(self, sent: asyncio.Future[Any], args: tuple[bytes | str | int, ...]) -> Any:
        try:
            return await sent
        except RedisConnectionError:
            return await self.call(*args)

    async def close(self) -> None:
        proto, self._proto = self._proto, None
        if proto is not None and proto.transport is not None:
            proto.transport.close()

    async def listen_channels(
        self,
        subs: Subscriptions,
        on_message: OnMessage,
        on_subscribed: Callable[[], None],
        on_channel: Callable[[bytes], None],
        health_s: float | None = None,
    ) -> None:
        """Keep the channels of ``subs`` subscribed on a connection of its own (every one of
        them on each new connection; those added later at once, see :class:`Subscriptions`)
        and hand every message to ``on_message(channel, data)``. ``on_channel(channel)`` once
        Redis confirmed a channel's subscription (what was published on it before is not
        heard: the caller reads it), ``on_subscribed`` once Redis answered on this connection
        (called from the protocol: no task per message). Returns when the connection is lost (the
        caller subscribes again and catches up what it may have missed); raises
        ``RedisConnectionError`` when Redis cannot be reached."""
        loop = asyncio.get_running_loop()
        lost: asyncio.Future[None] = loop.create_future()

        def listener() -> _Listener:
            health = HEALTH_S if health_s is None else health_s
            return _Listener(on_message, on_subscribed, lost, health, on_channel)

        transport, _ = await self._open(listener)
        if self._password is not None:
            transport.write(encode(self._auth()))
        subs.transport = transport
        channels = sorted(subs.channels)
        for i in range(0, len(channels), SUBSCRIBE_BATCH):
            transport.write(encode(("SUBSCRIBE", *channels[i : i + SUBSCRIBE_BATCH])))
        transport.write(encode(("PING",)))  # its answer: Redis heard this connection
        try:
            await lost
        finally:
            if subs.transport is transport:
                subs.transport = None
            transport.close()


SUBSCRIBE_BATCH = 500
"""Channels per ``SUBSCRIBE`` when a connection subscribes to all it keeps."""


class Subscriptions:
    """The channels a :meth:`Pipe.listen_channels` connection keeps: one may be added or
    dropped at any time (written at once while the connection is up; all of them again on each
    new connection)."""

    def __init__(self) -> None:
        self.channels: set[str] = set()
        self.transport: asyncio.Transport | None = None

    def add(self, channel: str) -> None:
        if channel not in self.channels:
            self.channels.add(channel)
            self._write("SUBSCRIBE", channel)

    def discard(self, channel: str) -> None:
        if channel in self.channels:
            self.channels.discard(channel)
            self._write("UNSUBSCRIBE", channel)

    def _write(self, *command: str) -> None:
        transport = self.transport
        if transport is not None and not transport.is_closing():
            transport.write(encode(command))


OnMessage = Callable[[bytes, bytes], None]

HEALTH_S = 15.0
"""A subscription silent this long is asked for a PING; silent for another such pause, it
is taken for dead (a connection can die without a word, e.g. a dropped network)."""


class _Listener(asyncio.Protocol):
    """A subscription to channels: messages go straight to a callback, as they are parsed."""

    def __init__(
        self,
        on_message: OnMessage,
        on_subscribed: Callable[[], None],
        lost: asyncio.Future[None],
        health_s: float,
        on_channel: Callable[[bytes], None],
    ) -> None:
        self.health_s = health_s
        self.reader = hiredis.Reader()
        self.on_message = on_message
        self.on_subscribed = on_subscribed
        self.on_channel = on_channel
        self.answered = False  # Redis answered on this connection (``on_subscribed`` was called)
        self.lost = lost
        self.heard = True
        self.pinged = False
        self.transport: asyncio.Transport | None = None
        self.loop = asyncio.get_running_loop()
        self.health = self.loop.call_later(self.health_s, self._check)

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        self.heard = True
        self.reader.feed(data)
        while (reply := self.reader.gets()) is not False:
            if isinstance(reply, hiredis.ReplyError):
                log_error = RedisConnectionError(f"subscription refused: {reply}")
                if not self.lost.done():
                    self.lost.set_exception(log_error)
                return
            kind = reply[0] if isinstance(reply, list) and reply else reply
            if kind == b"message":
                self.on_message(reply[1], reply[2])
            elif kind == b"subscribe":
                self.on_channel(reply[1])
            elif kind in (b"pong", b"PONG") and not self.answered:
                self.answered = True
                self.on_subscribed()

    def _check(self) -> None:
        if self.heard:
            self.heard, self.pinged = False, False
        elif not self.pinged and self.transport is not None:
            self.transport.write(encode(("PING",)))
            self.pinged = True
        elif self.transport is not None:
            self.transport.abort()
            return
        self.health = self.loop.call_later(self.health_s, self._check)

    def connection_lost(self, exc: Exception | None) -> None:
        self.health.cancel()
        if not self.lost.done():
            self.lost.set_result(None)


class Script:
    """A Lua script run with ``EVALSHA`` (``EVAL`` once when Redis does not know it yet)."""

    def __init__(self, pipe: Pipe, source: str) -> None:
        self.pipe = pipe
        self.source = source
        self.sha = hashlib.sha1(source.encode()).hexdigest()

    async def __call__(self, keys: list[str], args: list[Any]) -> Any:
        """Called as redis-py's scripts are: ``script(keys=[...], args=[...])``."""
        return await self._run(self.pipe.call("EVALSHA", self.sha, len(keys), *keys, *args), keys, args)

    def start(self, keys: list[str], args: list[Any]) -> Awaitable[Any]:
        """The call, written at once (:meth:`Pipe.start`): await the result for the reply."""
        return self._run(self.pipe.start("EVALSHA", self.sha, len(keys), *keys, *args), keys, args)

    async def _run(self, sent: Awaitable[Any], keys: list[str], args: list[Any]) -> Any:
        try:
            return await sent
        except ResponseError as exc:
            if not str(exc).startswith("NOSCRIPT"):
                raise
            return await self.pipe.call("EVAL", self.source, len(keys), *keys, *args)


def script_registrar(client: Any, pipe: Pipe | None) -> Callable[[str], Any]:
    """How a module registers its Lua scripts: on the lean pipe when the server has one,
    else redis-py's ``register_script`` (a cluster, TLS). Both are called alike."""
    if pipe is None:
        register: Callable[[str], Any] = client.register_script
        return register
    return lambda source: Script(pipe, source)


def pairs(flat: list[Any]) -> dict[bytes, Any]:
    """A flat ``[field, value, ...]`` reply (HGETALL, a stream entry) as a dict."""
    return dict(zip(flat[::2], flat[1::2], strict=True))


async def command(client: Any, pipe: Pipe | None, *args: bytes | str | int) -> Any:
    """One command over the lean connection when there is one, else redis-py's: only for
    commands whose reply redis-py passes on as Redis sent it (HGET, HSET, HMGET, HKEYS,
    XLEN, ZADD, ZREM), so that both give the same."""
    if pipe is not None:
        return await pipe.call(*args)
    return await client.execute_command(*args)
