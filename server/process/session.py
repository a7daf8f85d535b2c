"""One websocket connection: handshake, binding to a seat, dispatch.

A session reads frames one at a time (so one client's requests are handled
in order) and writes through a bounded outbox, drained by a task that runs
while there is something to send: a client that reads too slowly fills its
outbox and is dropped with close code 1013, without stalling the match or
other clients.

A session binds to at most one match, as a seat (create, join, quick match,
reconnect with a token) or as a spectator.  Only a seat binding can act, and
only for its own seat: the seat comes from the signed token, never from the
client's messages.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import structlog
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError
from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed
from websockets.protocol import State

from protocol import errors as E
from protocol.codec import decode_client, encode
from protocol.errors import CloseCode, ProtocolError
from protocol.messages import (
    ACCOUNT_REQUESTS,
    MATCH_REQUESTS,
    SUPPORTED_VERSIONS,
    Act,
    ClientMessage,
    Closing,
    CreateMatch,
    Error,
    GetCards,
    GetReplay,
    Hello,
    Join,
    ListMatches,
    MatchList,
    Ping,
    Pong,
    QuickMatch,
    Reconnect,
    ReplayLog,
    Seated,
    ServerMessage,
    Spectate,
    Spectating,
    Sync,
    UploadReplay,
    Welcome,
)
from server.accounts import Refused as AccountRefused
from server.history import replays
from server.history.uploads import SessionUploads
from server.lobby.catalog import catalogue, format_names
from server.lobby.decks import DeckError, deck_or_demo, format_named
from server.lobby.siding import check_registered
from server.lobby.tokens import BadToken
from server.match.clocks import ClockSettings
from server.match.directory import FINISHED, MatchInfo
from server.match.matches import LiveMatch, Watcher
from server.process import casual_quick, rated_quick
from server.process.matchdesk import series_fields
from server.rules import DEFAULT_FORMAT
from server.runtime.limits import SERVER_OWNED, TokenBucket, client_address, forwarded_for
from server.storage.redisconn import store_failure

if TYPE_CHECKING:
    from server.accounts import AccountDesk
    from server.history.replays import LogCache
    from server.history.uploads import Readers
    from server.lobby.bot_seats import BotSeats
    from server.lobby.creation_limits import CreationLimits
    from server.lobby.quick import QuickQueue
    from server.lobby.rated_queue import RatedQueue
    from server.lobby.tokens import SeatTokens
    from server.match.directory import MatchDirectory
    from server.match.matches import MatchService
    from server.process.config import ServerConfig
    from server.process.connections import Connections
    from server.process.matchdesk import MatchDesk, Place
    from server.runtime.limits import AddressLimits
    from server.runtime.metrics import Metrics
    from server.storage.store import RedisEventStore

REDIS_ERRORS = (RedisConnectionError, RedisTimeoutError)
"""Redis could not be reached (after the client's own retries): ``server/unavailable``."""

log = structlog.get_logger("duel.session")

SERVER_NAME = "duel-server/0.1"


@dataclass(frozen=True, slots=True)
class SessionServices:
    """What a session uses of its process (built once by server.process.app, in order)."""

    config: ServerConfig
    process_id: str
    metrics: Metrics
    store: RedisEventStore
    directory: MatchDirectory
    service: MatchService
    quick: QuickQueue
    rated_quick: RatedQueue
    tokens: SeatTokens
    creations: CreationLimits
    addresses: AddressLimits
    readers: Readers
    replay_logs: LogCache
    bots: BotSeats
    connections: Connections
    accounts: AccountDesk
    matches: MatchDesk


class Session:
    def __init__(self, ws: ServerConnection, services: SessionServices, *, owned: bool = False) -> None:
        """``owned``: one of this process's own bots opened the connection (server.lobby.bot_seats):
        it counts against no client address."""
        self.ws = ws
        self.services = services
        self.cfg = services.config
        self.id = secrets.token_hex(6)
        # frames not sent yet, in order; a plain list and a task only while it is drained, not
        # an asyncio.Queue and a writer task per connection: 3 KiB less per connection held
        self._out: list[bytes] = []
        self._drain: asyncio.Task[None] | None = None
        self._kicked = False  # a write of the outbox is scheduled for the end of this turn
        self._stopped = False  # no new drain once the connection is closing
        # the loop, kept: ``asyncio.get_running_loop`` makes a getpid system call in CPython 3.11
        # (a fork check), and every frame sent asked for it (getpid was 2.4 % of the server's CPU
        # at saturation, over half of it from here)
        self._loop = asyncio.get_running_loop()
        self.version: int | None = None
        self.match_id: str | None = None  # the duel watched (a match of several: its current one)
        self.watcher: Watcher | None = None
        self.series: str | None = None  # a match of several duels: its id (server.process.matchdesk)
        self.following = asyncio.Lock()  # the match's news, one at a time (matchdesk.follow)
        self.bucket = TokenBucket(self.cfg.rate_per_second, self.cfg.rate_burst)
        headers = ws.request.headers if ws.request is not None else None
        self.address = (
            SERVER_OWNED
            if owned
            else client_address(ws.remote_address, forwarded_for(headers), self.cfg.trusted_proxies)
        )
        # the opening handshake is over and nothing reads its headers again (the library
        # neither): they were 5 KiB of every duel held (two connections)
        for message in (ws.request, ws.response):
            if message is not None:
                message.headers.clear()
        self.violations = 0
        self.dropped = False
        self.conn_id = f"{services.process_id}/{self.id}"
        self._waiting: asyncio.Task[None] | None = None  # a quick-match player waiting to be paired
        self._quick_format = DEFAULT_FORMAT  # the queue it waits in (quick match pairs within a format)
        self._quick_rated = False  # ... the format's rated queue (server.process.rated_quick)
        # replay files sent on this connection (server.history.uploads: limits, reader processes)
        self.uploads = SessionUploads(services.readers, self.address, self.send, self.error)
        # a client's heartbeat (``ping`` with ``silence_ms``): a connection silent for this long
        # (seconds) is gone, and is closed (None: only the keepalive's pings judge it)
        self.silence: float | None = None
        self.login = services.accounts.connection()  # the account it is logged in as (server.accounts)

    # ------------------------------------------------------------ output

    def send(self, msg: ServerMessage | bytes) -> None:
        """Queue a message (or its frame, already encoded); never blocks.  A full outbox drops
        the client."""
        if self.dropped:
            return
        if len(self._out) >= self.cfg.out_queue:
            self.dropped = True
            self.services.metrics.inc("duel_slow_clients_dropped_total")
            log.warning("slow_client_dropped", session=self.id, match_id=self.match_id)
            asyncio.get_running_loop().create_task(self.ws.close(CloseCode.TRY_AGAIN_LATER, "outgoing queue full"))
            return
        self._out.append(msg if isinstance(msg, bytes) else encode(msg))
        self.services.metrics.inc("duel_frames_out_total")
        if self._drain is None and not self._kicked and not self._stopped:
            self._kicked = True
            self._loop.call_soon(self._kick)

    def flush(self) -> None:
        """Write what was sent so far now (one write, as ``_kick`` would at the end of the
        loop's turn). The fan-out calls it once every watcher has its updates: the frames leave
        before the rest of the action's bookkeeping and the loop's turn (in a duel played back to
        back, the append's acknowledgement to the first write: 82-90 -> 58-65 µs)."""
        if self._kicked:
            self._kick()

    def _kick(self) -> None:
        """Send what this turn queued: in one write if the socket takes it now, else by a drain."""
        self._kicked = False
        if self._drain is None and self._out and not self._stopped and not self._write_now():
            self._drain = self._loop.create_task(self._drain_out())

    def _write_now(self) -> bool:
        """Write the whole outbox as one system call, if the connection is open and nothing
        waits in its buffer (else False: the drain sends it, waiting while the client is slow,
        so that the outbox limit still catches a client that does not read). Every frame goes
        through websockets' protocol object (``send_binary``) as ``ws.send`` would put it; only
        the write is joined: an action's Accepted and its update are one send, not two (each
        ~18 us of a core on loopback)."""
        ws = self.ws
        transport = ws.transport
        if ws.protocol.state is not State.OPEN or transport.is_closing() or transport.get_write_buffer_size():
            return False
        protocol = ws.protocol
        for data in self._out:
            protocol.send_binary(data)
        self._out = []
        transport.write(b"".join(protocol.data_to_send()))
        return True

    def error(self, code: str, reason: str, *, fatal: bool = False) -> None:
        self.services.metrics.inc("duel_errors_total", code=code)
        self.send(Error(code, reason, fatal))

    async def _drain_out(self) -> None:
        """Send the outbox in order until it is empty (a later ``send`` starts another drain)."""
        try:
            while self._out:
                batch, self._out = self._out, []
                for data in batch:
                    await self.ws.send(data)
        except ConnectionClosed:
            self._out = []  # nobody left to send to
        finally:
            self._drain = None

    # ------------------------------------------------------------ lifecycle

    async def run(self) -> None:
        self.services.connections.sessions.add(self)
        try:
            if await self._handshake():
                await self._read()
        except ConnectionClosed:
            pass
        finally:
            self.services.connections.sessions.discard(self)
            self.uploads.close()
            await self._unbind()
            await self._flush_and_stop()

    async def _read(self) -> None:
        """Every frame the client sends, in order, until the connection closes; or, once the client
        has a heartbeat (``ping`` with ``silence_ms``), until it is silent for that long: its
        connection is held up or cut somewhere (the close tells its match at once)."""
        ws = self.ws
        while True:
            if self.silence is None:
                frame = await ws.recv()
            else:
                try:
                    frame = await asyncio.wait_for(ws.recv(), self.silence)
                except TimeoutError:
                    self.services.metrics.inc("duel_heartbeats_missed_total")
                    log.info("heartbeat_missed", session=self.id, match_id=self.match_id, silence_s=self.silence)
                    await self.close(CloseCode.INTERNAL_ERROR, "no message within silence_ms")
                    return
            await self._on_frame(frame)

    async def _flush_and_stop(self, timeout: float = 2.0) -> None:
        """Let the drain send what is queued (at most ``timeout`` s), then stop it."""
        self._kick()  # what this turn queued goes now, not after the stop
        self._stopped = True
        drain = self._drain
        if drain is None:
            return
        try:
            await asyncio.wait_for(asyncio.shield(drain), timeout=timeout)
        except TimeoutError:
            drain.cancel()
        except Exception:  # the socket is gone; nothing to report to
            drain.cancel()

    async def close(self, code: int, reason: str) -> None:
        """Flush what is queued (briefly), then close the connection."""
        self.dropped = True
        await self._flush_and_stop(timeout=1.0)
        await self.ws.close(code, reason)

    async def goodbye(self, reason: str) -> None:
        """Tell the client to reconnect (server restart or drain) and close."""
        self.send(Closing(reason, True))
        await self.close(CloseCode.SERVICE_RESTART, reason)

    async def taken_over(self) -> None:
        """A newer connection with this seat's token took the seat: tell this client why
        (it must not reconnect on its own, or the two would take the seat back and forth)."""
        reason = "another connection took this seat over with the same token"
        log.info("seat_taken_over", session=self.id, match_id=self.match_id)
        self.send(Closing(reason, False))
        await self.close(CloseCode.TAKEN_OVER, reason)

    async def _unbind(self) -> None:
        if self._waiting is not None:
            self._waiting.cancel()
            self._waiting = None
            if self.match_id is not None:
                lm = self.services.service.cached(self.match_id)
                if lm is None or not lm.started:
                    with contextlib.suppress(*REDIS_ERRORS):
                        await self._leave_queue(self.match_id)
        if self.match_id is not None and self.watcher is not None:
            self.services.service.detach(self.match_id, self.watcher)
            seat = self.watcher.seat
            if seat is not None:
                self.services.connections.leave_seat(self.match_id, seat, self)
                with contextlib.suppress(*REDIS_ERRORS):
                    await self.services.directory.release(self.match_id, seat, self.conn_id)
        self.watcher = None

    async def _leave_queue(self, match_id: str) -> None:
        """This waiting quick-match player's connection closed: a ghost is never paired. Unless
        another connection took the seat over (``reconnect``): that one waits on."""
        (holder, _), _names = await self.services.directory.holders(match_id)
        if holder not in ("", self.conn_id):
            return
        if self._quick_rated:
            await self.services.rated_quick.leave(match_id, self._quick_format)
        else:
            await self.services.quick.leave(match_id, self._quick_format)

    # ------------------------------------------------------------ input

    async def _handshake(self) -> bool:
        """Wait for hello; answer welcome.  False: the connection is closing."""
        try:
            async with asyncio.timeout(self.cfg.hello_timeout):
                async for frame in self.ws:
                    msg = self._decode(frame)
                    if msg is None:
                        continue
                    if not isinstance(msg, Hello):
                        self.error(E.SESSION_HELLO_REQUIRED, "send hello first")
                        continue
                    common = set(msg.versions) & set(SUPPORTED_VERSIONS)
                    if not common:
                        self.error(
                            E.SESSION_UNSUPPORTED_VERSION,
                            f"this server speaks protocol versions {list(SUPPORTED_VERSIONS)}",
                            fatal=True,
                        )
                        await self.close(CloseCode.UNSUPPORTED_VERSION, "no common protocol version")
                        return False
                    self.version = max(common)
                    self.send(
                        Welcome(
                            version=self.version,
                            server=SERVER_NAME,
                            session=self.id,
                            max_frame=self.cfg.max_frame,
                            rate_per_second=self.cfg.rate_per_second,
                            cards_version=catalogue().version,
                            formats=format_names(),
                        )
                    )
                    return True
        except TimeoutError:
            self.error(E.SESSION_HELLO_REQUIRED, "no hello in time", fatal=True)
            await self.close(CloseCode.HELLO_TIMEOUT, "no hello in time")
        return False

    def _decode(self, frame: str | bytes) -> ClientMessage | None:
        """Decode a frame or answer with an error frame (and count a violation)."""
        self.services.metrics.inc("duel_frames_in_total")
        if not self.bucket.take():
            self._violation(E.RATE_LIMITED, f"at most {self.cfg.rate_per_second} frames per second on one connection")
            return None
        if not self.services.addresses.take(self.address):
            self._violation(
                E.RATE_LIMITED,
                f"at most {self.cfg.address_rate} frames per second from all the connections of one address",
            )
            return None
        if isinstance(frame, str):
            self._violation(E.FRAME_NOT_BINARY, "send binary msgpack frames, not text")
            return None
        try:
            return decode_client(frame, max_size=self.cfg.max_frame)
        except ProtocolError as exc:
            self._violation(exc.code, exc.reason)
            return None

    def _violation(self, code: str, reason: str) -> None:
        self.violations += 1
        fatal = self.violations >= self.cfg.max_violations
        self.error(code, reason, fatal=fatal)
        if fatal:
            asyncio.get_running_loop().create_task(self.close(CloseCode.POLICY_VIOLATION, "too many errors"))

    async def _on_frame(self, frame: str | bytes) -> None:
        msg = self._decode(frame)
        if msg is None:
            return
        try:
            await self._dispatch(msg)
        except DeckError as exc:
            self.error(E.DECK_INVALID, str(exc))
        except AccountRefused as exc:
            self.error(exc.code, exc.reason)
        except ConnectionClosed:
            raise
        except Exception as exc:
            failure = store_failure(exc)
            if failure is None:
                log.exception("request_failed", session=self.id, match_id=self.match_id, type=msg.type)
                self.error(E.SERVER_INTERNAL, "the server failed; retry the request")
                return
            # Redis is down, slow, out of memory, read-only or failing over: nothing the client
            # can fix, and the same request may succeed shortly (issue 34, finding 5)
            log.warning("redis_unavailable", session=self.id, match_id=self.match_id, type=msg.type, why=failure.health)
            self.services.metrics.inc("duel_redis_errors_total", kind=type(exc).__name__)
            self.services.service.store_failed(failure)
            self.error(
                E.SERVER_UNAVAILABLE,
                f"the match store is {failure.words} right now; retry the same request shortly",
            )

    async def _dispatch(self, msg: ClientMessage) -> None:
        if isinstance(msg, Act):
            await self._act(msg)
        elif isinstance(msg, Sync):
            await self._sync(msg)
        elif isinstance(msg, CreateMatch):
            await self._create(msg)
        elif isinstance(msg, Join):
            await self._join(msg)
        elif isinstance(msg, QuickMatch):
            await self._quick(msg)
        elif isinstance(msg, ListMatches):
            await self._list(msg)
        elif isinstance(msg, Spectate):
            await self._spectate(msg)
        elif isinstance(msg, Reconnect):
            await self._reconnect(msg)
        elif isinstance(msg, GetReplay):
            await self._replay(msg)
        elif isinstance(msg, GetCards):
            self.send(catalogue())
        elif isinstance(msg, UploadReplay):
            await self.uploads.part(msg)
        elif isinstance(msg, Ping):
            if msg.silence_ms is not None:
                self.silence = msg.silence_ms / 1000
            self.send(Pong(msg.nonce))
        elif isinstance(msg, ACCOUNT_REQUESTS):
            self.send(await self.services.accounts.handle(msg, self.login, self.address))
        elif isinstance(msg, MATCH_REQUESTS):
            await self.services.matches.handle(self, msg)
        else:  # Hello
            self.error(E.MESSAGE_UNEXPECTED, "hello was already received")

    # ------------------------------------------------------------ requests

    def _free(self) -> bool:
        if self.match_id is not None:
            self.error(E.SESSION_ALREADY_IN_MATCH, f"this connection is bound to match {self.match_id}")
            return False
        return True

    async def _may_create(self, match_id: str) -> bool:
        """This address's match creation limits (server.lobby.creation_limits) let it make ``match_id``."""
        refusal = await self.services.creations.refusal(self.address, match_id)
        if refusal is not None:
            self.error(refusal.code, refusal.reason)
            return False
        return True

    async def _bind(
        self,
        match_id: str,
        seat: int | None,
        last_seq: int,
        greet: Callable[[LiveMatch], None] | None = None,
        *,
        duel: int = 1,
        info: MatchInfo | None = None,
    ) -> None:
        """Bind to ``match_id`` (a match of several duels: to the duel it is at, server.process.matchdesk;
        ``duel``: the duel ``last_seq`` counts in)."""
        info = info or await self.services.directory.get(match_id)
        if info is None:
            await self._attach(match_id, seat, last_seq, greet)
            return
        self.watcher = Watcher(seat, self.send, self.flush)
        place = await self.services.matches.resolve(info, duel, last_seq)
        self.series = place.series
        await self._attach(place.duel_id, seat, place.last_seq, self.services.matches.greet(self, place, greet))

    async def move_to(self, duel_id: str, place: Place) -> None:
        """Leave the duel watched for the match's next one (matchdesk.follow)."""
        seat = None if self.watcher is None else self.watcher.seat
        await self._unbind()
        await self._attach(duel_id, seat, 0, self.services.matches.greet(self, place, None))

    async def _attach(
        self, match_id: str, seat: int | None, last_seq: int, greet: Callable[[LiveMatch], None] | None
    ) -> None:
        self.match_id = match_id
        self.watcher = Watcher(seat, self.send, self.flush)
        if seat is not None:
            # one live connection per seat: this one takes it over (here and on every process)
            replaced = self.services.connections.take_seat(match_id, seat, self)
            if replaced is not None:
                await replaced.taken_over()
            await self.services.directory.hold(match_id, seat, self.conn_id)
        await self.services.service.attach(match_id, self.watcher, last_seq, greet)

    def _request_id(self, given: str | None) -> str:
        """The client's request id, or one of our own (the server's Redis retries then stay
        idempotent, though a client retry cannot find the first attempt's seat)."""
        return given if given is not None else secrets.token_urlsafe(18)

    async def _seat(self, match_id: str, seat: int, known: tuple[bool, tuple[str, str]] | None = None) -> None:
        """Tell the client its seat and token, then start sending it the match. ``known``:
        whether the duel has started and the players' names, when the caller knows them
        (else they are read from Redis)."""
        if known is None:
            started = await self.services.store.last_seq(match_id) > 0
            info = await self.services.directory.get(match_id)
            names = list(info.names) if info is not None else ["", ""]
        else:
            started, names = known[0], list(known[1])
        self.send(Seated(match_id, seat, self.services.tokens.issue(match_id, seat), started, names))
        await self._bind(match_id, seat, 0)

    def _known(self, match_id: str, names: tuple[str, str] | None) -> tuple[bool, tuple[str, str]] | None:
        """What a joiner's ``Seated`` says, when this process knows it: the duel started here
        (or was seen started) and the names were read after the join (``refresh_presence``)."""
        lm = self.services.service.cached(match_id)
        return (True, names) if names is not None and lm is not None and lm.started else None

    async def _start(self, match_id: str) -> None:
        """Append the duel's first entry once both seats are taken (at most once, whoever calls).
        A match of several duels gets its record first (server.match.matchplay), and its first
        duel's first player by a coin toss from the seed."""
        info = await self.services.directory.get(match_id)
        if info is None or info.decks[0] is None or info.decks[1] is None or info.parent:
            return
        first, match = await self.services.matches.begin(info)
        duel = (match_id, (info.decks[0], info.decks[1]), info.clock, info.spectator_delay, info.names, info.format)
        await self.services.service.start(*duel, first=first, match=match)

    async def _create(self, msg: CreateMatch) -> str | None:
        if not self._free():
            return None
        account = await self.services.accounts.for_create(self.login, msg.rated, msg.opponent)
        fmt = format_named(msg.format).name
        if msg.best_of not in (1, 3, 5):
            self.error(E.MESSAGE_BAD_FIELD, "field 'best_of' must be 1, 3 or 5")
            return None
        deck = deck_or_demo(msg.deck, 0, fmt)
        side = check_registered(deck, msg.side, fmt)
        if msg.opponent == "bot":
            deck_or_demo(None, 1, fmt)  # the bot brings the format's demo deck: refused here if there is none
        elif msg.bot_level is not None:
            self.error(E.MESSAGE_BAD_FIELD, "field 'bot_level' goes with opponent 'bot'")
            return None
        request_id = self._request_id(msg.request_id)
        match_id = self.services.tokens.match_id_for(request_id)
        if not await self._may_create(match_id):
            return None
        clock = None if msg.clock_ms is None else ClockSettings(msg.clock_ms, msg.increment_ms)
        outcome = await self.services.directory.create(
            match_id,
            request_id,
            deck,
            spectators=msg.spectators,
            quick=False,
            name=msg.name,
            clock=clock,
            spectator_delay=msg.spectator_delay,
            opponent=msg.opponent or "",
            bot_level=msg.bot_level or "",
            fmt=fmt,
            rated=msg.rated,
            account=account,
            series=series_fields(msg.best_of, side, msg.side_ms, msg.clock_scope),
        )
        if outcome == "taken":  # pragma: no cover - a 72-bit collision of derived match ids
            self.error(E.SERVER_INTERNAL, "could not create the match; retry with another request id")
            return None
        self.services.creations.made(self.address, match_id)
        if outcome == "ok":  # a new match: nobody else can know its id yet
            self.services.service.fresh(match_id)
            await self._seat(match_id, 0, (False, (msg.name, "")))
        else:
            await self._seat(match_id, 0)
        await self.services.accounts.seated(account, match_id)
        if msg.opponent == "bot" and outcome == "ok":
            self.services.bots.start(match_id, level=msg.bot_level or "")
        log.info("match_created", match_id=match_id, session=self.id, retry=outcome == "mine", format=fmt)
        return match_id

    async def _join(self, msg: Join) -> None:
        if not self._free():
            return
        info = await self.services.directory.get(msg.match_id)
        deck = deck_or_demo(msg.deck, 1, info.format if info is not None else None)
        side = check_registered(deck, msg.side, info.format if info is not None else None)
        account = await self.services.accounts.for_join(self.login, info)
        request_id = self._request_id(msg.request_id)
        outcome = await self.services.directory.join(msg.match_id, request_id, deck, msg.name, account, side)
        if outcome == "notfound":
            self.error(E.MATCH_NOT_FOUND, f"no match {msg.match_id}")
            return
        if outcome == "full":
            self.error(E.MATCH_FULL, "both seats are taken")
            return
        names = await self.services.service.refresh_presence(msg.match_id)  # the joiner's name before the board
        await self._start(msg.match_id)
        await self._seat(msg.match_id, 1, self._known(msg.match_id, names))
        await self.services.accounts.seated(account, msg.match_id)
        log.info("match_joined", match_id=msg.match_id, session=self.id, retry=outcome == "mine")

    async def _quick(self, msg: QuickMatch) -> None:
        if msg.rated:
            await rated_quick.request(self, msg)  # paired by rating (server.lobby.rated_queue)
        else:
            await casual_quick.request(self, msg)

    async def _list(self, msg: ListMatches) -> None:
        infos = await self.services.directory.listing(msg.status, msg.limit, msg.before_ms, msg.before_id)
        rows = []
        for info in infos:
            store = self.services.store
            seq = info.result["length"] if info.result is not None else await store.last_seq(info.match_id)
            rows.append(info.public(seq))
        self.send(MatchList(rows))

    async def _spectate(self, msg: Spectate) -> None:
        if not self._free():
            return
        info = await self.services.directory.get(msg.match_id)
        if info is None:
            self.error(E.MATCH_NOT_FOUND, f"no match {msg.match_id}")
            return
        if not info.spectators:
            self.error(E.SESSION_UNAUTHORIZED, "this match does not allow spectators")
            return
        delay = info.spectator_delay

        def greet(lm: LiveMatch) -> None:
            # the seq a spectator may see: behind the live one on a delayed match
            self.send(Spectating(msg.match_id, lm.point_for(None).seq, delay, list(info.names)))

        await self._bind(msg.match_id, None, msg.last_seq, greet, duel=msg.duel, info=info)

    async def _reconnect(self, msg: Reconnect) -> None:
        if not self._free():
            return
        try:
            claim = self.services.tokens.verify(msg.token)
        except BadToken:
            self.error(E.SESSION_UNAUTHORIZED, "the token is not valid", fatal=True)
            await self.close(CloseCode.UNAUTHORIZED, "bad token")
            return
        info = await self.services.directory.get(claim.match_id)
        if info is None:
            self.error(E.MATCH_NOT_FOUND, f"no match {claim.match_id}")
            return
        self.services.accounts.for_seat(self.login, info, claim.seat)
        started = await self.services.store.last_seq(claim.match_id) > 0
        self.send(Seated(claim.match_id, claim.seat, msg.token, started, list(info.names)))
        await self._bind(claim.match_id, claim.seat, msg.last_seq, duel=msg.duel, info=info)
        lm = self.services.service.cached(self.match_id or claim.match_id)
        going = lm is not None and (not lm.finished or self.series is not None)  # a match of several: between duels
        if info.opponent == "bot" and claim.seat == 0 and lm is not None and going and not lm.presence[1]:
            # its server went away: seat it again, playing as it did
            self.services.bots.start(claim.match_id, resume=True, level=info.bot_level)
        if not started:
            # both seats were taken but the genesis append never happened (a crash
            # between the two): start the duel now
            await self._start(claim.match_id)
        await rated_quick.reconnected(self, info, claim.seat)  # a rated quick-match player waits again
        log.info("reconnected", match_id=claim.match_id, seat=claim.seat, last_seq=msg.last_seq)

    async def _act(self, msg: Act) -> None:
        if self.match_id is None or self.watcher is None:
            self.error(E.SESSION_NOT_IN_MATCH, "create, join or reconnect to a match first")
            return
        seat = self.watcher.seat
        if seat is None:
            self.error(E.SESSION_SPECTATOR, "spectators cannot act")
            return
        if await self.services.matches.intercept(self, seat, msg):
            return  # a match of several duels: a server's action id, or the match conceded between duels
        await self.services.service.submit(self.match_id, seat, msg, self.send)

    async def _sync(self, msg: Sync) -> None:
        if self.match_id is None or self.watcher is None:
            self.error(E.SESSION_NOT_IN_MATCH, "create, join, spectate or reconnect first")
            return
        await self.services.service.resync(self.match_id, self.watcher, msg.last_seq)

    async def _replay(self, msg: GetReplay) -> None:
        if msg.upload_id is not None:
            await self.uploads.page(msg)  # a file sent on this connection (server.history.uploads)
            return
        info = await self.services.directory.get(msg.match_id)
        if info is None:
            self.error(E.MATCH_NOT_FOUND, f"no match {msg.match_id}")
            return
        seated_here = self.watcher is not None and self.watcher.seat is not None
        seated_here = seated_here and msg.match_id in (self.match_id, self.series)
        if not info.spectators and not seated_here:
            self.error(E.SESSION_UNAUTHORIZED, "this match's replay is for its players only")
            return
        if info.best_of > 1 and not await self.services.matches.play.over(info):
            # the full replay of a duel shows both decks: not before the match is over (siding)
            self.error(E.MATCH_NOT_FINISHED, "the duels' full replays open when the whole match ends")
            return
        log_entries = self.services.replay_logs.get(msg.match_id)
        if log_entries is None:
            if info.status != FINISHED:
                lm = await self.services.service.load(msg.match_id)
                if not lm.finished:
                    self.error(E.MATCH_NOT_FINISHED, "the full replay opens when the match ends")
                    return
            log_entries = await self.services.store.read(msg.match_id)
            self.services.replay_logs.put(msg.match_id, log_entries)
        key = self.services.tokens.alias_key(msg.match_id)
        checkpoints = self.services.replay_logs.checkpoints(msg.match_id)
        got = replays.page(log_entries, key, msg.viewpoint, msg.from_seq, msg.limit, msg.views, checkpoints)
        match = await self.services.matches.replay_record(info)
        self.send(
            ReplayLog(
                msg.match_id,
                got.entries,
                viewpoint=msg.viewpoint,
                total=got.total,
                next_seq=got.next_seq,
                players=list(info.names),
                result=got.result,
                match=match,
            )
        )


__all__ = ["Session"]
