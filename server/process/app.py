"""The server process: Redis clients, the match service, fan-out and the
websocket listener (with ``/healthz`` and ``/metrics`` on the same port)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import socket
from http import HTTPStatus
from typing import TYPE_CHECKING

import structlog
from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.datastructures import Headers
from websockets.http11 import Request, Response

from server import accounts, rules
from server.history.replays import FileCache, LogCache
from server.history.uploads import Readers, Refused
from server.lobby.bot_seats import BotSeats
from server.lobby.creation_limits import CreationLimits
from server.lobby.expiry import WaitingExpiry
from server.lobby.quick import QuickQueue
from server.lobby.rated_queue import RatedQueue
from server.lobby.tokens import SeatTokens, load_secret
from server.match.directory import MatchDirectory, MatchInfo
from server.match.fanout import FanOut
from server.match.matches import MatchService
from server.match.matchplay import Drops, MatchPlay
from server.match.sealing import Sealer
from server.process import webapp
from server.process.config import ServerConfig
from server.process.connections import Connections
from server.process.keepalive import Keepalive
from server.process.matchdesk import MatchDesk
from server.process.session import Session, SessionServices
from server.runtime.limits import AddressLimits, client_address, forwarded_for
from server.runtime.metrics import Metrics
from server.storage import keys, redisconn, resp
from server.storage.redisconn import REDIS_DOWN, store_failure
from server.storage.store import RedisEventStore

if TYPE_CHECKING:
    pass

log = structlog.get_logger("duel.server")
ENGINE_KIND = rules.ENGINE_KIND


class DuelServer:
    """Start with :meth:`start`, stop with :meth:`stop` (drains first)."""

    def __init__(self, config: ServerConfig, redis_url: str, *, secret: bytes | None = None) -> None:
        self.config = config
        self.redis_url = redis_url
        self.metrics = Metrics()
        self.process_id = secrets.token_hex(6)
        self.redis = redisconn.connect(redis_url, config.redis_connections)
        # the appends go over one lean pipelined connection when the server is one Redis
        self.pipe = resp.Pipe(redis_url) if resp.supports(redis_url) else None
        self.store = RedisEventStore(self.redis, self.pipe)
        self.directory = MatchDirectory(self.redis, self.pipe)
        self.quick = QuickQueue(self.redis)
        self.rated_quick = RatedQueue(self.redis, config.rated_window)
        secret = secret if secret is not None else load_secret(config.data_dir)
        self.tokens = SeatTokens(secret)
        self.sealer = (
            None
            if config.seal_after is None
            else Sealer(self.store, self.metrics, config.seal_after, config.seal_sweep_every, config.seal_overdue)
        )
        self.service = MatchService(
            self.store,
            self.directory,
            self.metrics,
            self.tokens.alias_key,
            self.process_id,
            config.out_queue,
            sealer=self.sealer,
        )
        # accounts, session tokens and the rated ladder (server.accounts; it hears of each end)
        self.accounts = accounts.build(
            self.redis, self.directory, self.store, self.service, self.metrics, secret, config.accounts
        )
        # matches of several duels (server.match.matchplay): it hears of each duel's end first, and
        # tells the rated matches of a whole match's end
        self.play = MatchPlay(self.redis, self.directory, self.service, self.store, self.metrics, self.pipe)
        self.play.rated_ended = self.service.ended
        self.service.ended = self.play.ended
        self.drops = Drops(self.redis, self.play, self.metrics, grace=config.drop_grace, every=config.drop_sweep_every)
        self.connections = Connections()
        self.fanout = FanOut(
            redisconn.connect(redis_url, 8),
            self.service,
            config.poll_interval,
            self.connections,
            redisconn.subscribers(redis_url),
            lean=self.pipe,
        )
        self.addresses = AddressLimits(config.address_rate, config.max_connections_per_address)
        self.creations = CreationLimits(
            config.address_matches_per_minute,
            config.address_waiting_matches,
            self.directory,
            self.service,
            config.waiting_ttl,
        )
        self.expiry = WaitingExpiry(
            self.directory,
            self.service,
            self.metrics,
            config.waiting_grace,
            config.waiting_ttl,
            config.waiting_sweep_every,
        )
        self.bots: set[asyncio.Task[None]] = set()
        self.keepalive = (
            None
            if config.ping_interval is None
            else Keepalive(
                config.ping_interval,
                config.ping_timeout,
                config.close_timeout,
                lambda: self.metrics.inc("duel_keepalive_timeouts_total"),
            )
        )
        # the server's own bot players (server.lobby.bot_seats), on this process's own listener
        bot_host = config.host if config.host not in ("0.0.0.0", "::", "") else "127.0.0.1"
        self.bot_seats = BotSeats(
            lambda: f"ws://{bot_host}:{self.port}",
            think_s=config.bot_think,
            policy=config.bot_policy,
            abandoned_after=config.bot_abandoned_after,
            metrics=self.metrics,
            tokens=self.tokens,
            directory=self.directory,
            service=self.service,
            tasks=self.bots,
            draining=lambda: self.draining,
        )
        self.replay_logs = LogCache()
        self.downloads = FileCache()  # replay files made for GET /replays/ID.duelreplay
        # replay files sent by clients (server.history.uploads)
        self.readers = Readers(config, self.tokens.replay_key())
        self.session_services = SessionServices(
            config=config,
            process_id=self.process_id,
            metrics=self.metrics,
            store=self.store,
            directory=self.directory,
            service=self.service,
            quick=self.quick,
            rated_quick=self.rated_quick,
            tokens=self.tokens,
            creations=self.creations,
            addresses=self.addresses,
            readers=self.readers,
            replay_logs=self.replay_logs,
            bots=self.bot_seats,
            connections=self.connections,
            accounts=self.accounts.desk,
            matches=MatchDesk(self.play),
        )
        self._server: Server | None = None
        self.draining = False

    @property
    def port(self) -> int:
        assert self._server is not None
        for sock in self._server.sockets:
            return int(sock.getsockname()[1])
        raise RuntimeError("not listening")  # pragma: no cover

    async def _retention(self) -> None:
        """Delete finished matches by the configured rule, now and then (never a live one)."""
        from server.history.archive import prune

        while True:
            try:
                deleted = await prune(self.redis, keep=self.config.keep_matches, max_age_days=self.config.keep_days)
                if deleted:
                    log.info("retention_deleted", matches=len(deleted))
                    self.metrics.inc("duel_matches_deleted_total", len(deleted))
            except REDIS_DOWN:
                log.warning("retention_redis_unavailable")
            await asyncio.sleep(self.config.retention_every)

    async def start(self) -> DuelServer:
        await self.redis.ping()
        self.service.loop_clock.start()
        self.fanout.start()
        if self.config.keep_matches is not None or self.config.keep_days is not None:
            self.bots.add(asyncio.create_task(self._retention(), name="retention"))
        await asyncio.wait_for(self.fanout.ready.wait(), timeout=10)
        cfg = self.config
        if self.keepalive is not None:
            self.bots.add(asyncio.create_task(self.keepalive.run(), name="keepalive"))
        if self.sealer is not None:
            self.bots.add(asyncio.create_task(self.sealer.run(), name="sealer"))
        self.bots.add(asyncio.create_task(self.expiry.run(), name="expiry"))
        self.bots.add(asyncio.create_task(self.accounts.rated.run(), name="rated"))
        self.bots.add(asyncio.create_task(self.drops.run(), name="drops"))
        self._server = await serve(
            self._handle,
            cfg.host,
            cfg.port,
            process_request=self._http,
            max_size=cfg.hard_max_frame,
            max_queue=8,
            compression=None,
            ping_interval=None,  # one task pings every connection (server.process.keepalive)
            ping_timeout=None,
            open_timeout=10,
            close_timeout=cfg.close_timeout,
            server_header=None,
        )
        log.info(
            "listening",
            host=cfg.host,
            port=self.port,
            redis=redisconn.masked(self.redis_url),
            engine=ENGINE_KIND,
        )
        return self

    async def _handle(self, ws: ServerConnection) -> None:
        if self.config.socket_send_buffer:
            sock = ws.transport.get_extra_info("socket")
            if sock is not None:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, self.config.socket_send_buffer)
        self.metrics.inc("duel_connections_total")
        self.metrics.inc("duel_connections_open")
        if self.keepalive is not None:
            self.keepalive.add(ws)
        owned = self.bot_seats.owns(ws.request.headers if ws.request is not None else None)
        session = Session(ws, self.session_services, owned=owned)  # owned: no client's budget
        self.addresses.enter(session.address)
        try:
            await session.run()
        finally:
            self.metrics.inc("duel_connections_open", -1)
            self.addresses.leave(session.address)

    @property
    def sessions(self) -> set[Session]:
        """Every session of this process (server.process.connections)."""
        return self.connections.sessions

    async def health(self) -> tuple[bool, str]:
        """Can this process serve? Not draining, Redis answers within a second, and takes
        writes: after a failed write (``StoreHealth``), the check writes the heartbeat itself,
        and answers with what Redis said while that fails."""
        if self.draining:
            return False, "draining"
        health = self.service.store_health
        try:
            async with asyncio.timeout(1.0):
                await self.redis.ping()
                if health.failing is not None:
                    await self.fanout.say_alive()
        except Exception as exc:
            failure = store_failure(exc)
            if failure is None:
                return False, f"redis: {type(exc).__name__}"
            if health.failing is None or failure.code in ("UNREACHABLE", "TIMEOUT"):
                return False, failure.health
        if health.failing is not None:
            return False, health.failing.health
        return True, "ok"

    async def _http(self, connection: ServerConnection, request: Request) -> Response | None:
        path = request.path.split("?", 1)[0]
        if path == "/healthz":
            ok, why = await self.health()
            body = why + "\n"
            if ok and "detail=1" in request.path:
                from server.storage import doctor

                found = await doctor.check(self.redis)
                body += "".join(f.line() + "\n" for f in found) + f"verdict: {doctor.worst(found)}\n"
                body += f"engine: {ENGINE_KIND}\n"
            return _text(HTTPStatus.OK if ok else HTTPStatus.SERVICE_UNAVAILABLE, body)
        if path == "/metrics":
            return _text(HTTPStatus.OK, self.metrics.render(), "text/plain; version=0.0.4; charset=utf-8")
        if self.draining:
            return _text(HTTPStatus.SERVICE_UNAVAILABLE, "draining\n")
        if path.startswith("/replays/") and path.endswith(".duelreplay"):
            return await self._replay_download(path[len("/replays/") : -len(".duelreplay")])
        if path.startswith("/matches/") and path.endswith(".duelreplay"):
            return await self._match_download(path[len("/matches/") : -len(".duelreplay")])
        if path.startswith("/matches/") and path.endswith(".json"):
            return await self._match_record(path[len("/matches/") : -len(".json")])
        if "upgrade" in request.headers.get("Connection", "").lower() and not self.bot_seats.owns(request.headers):
            address = client_address(
                connection.remote_address, forwarded_for(request.headers), self.config.trusted_proxies
            )
            if self.addresses.full(address):
                self.metrics.inc("duel_connections_refused_total", reason="per_address")
                return _text(HTTPStatus.TOO_MANY_REQUESTS, "too many connections from this address\n")
        if "upgrade" not in request.headers.get("Connection", "").lower():
            return webapp.static_response(path, request.headers) or _text(
                HTTPStatus.NOT_FOUND, "not found: connect with a websocket, or GET /, /healthz, /metrics\n"
            )
        return None

    async def _duel_file(self, match_id: str, info: MatchInfo) -> bytes:
        """A finished duel's replay file (signed), made in a reader process (folding and
        compressing a whole log would hold the loop, issue 34) and kept: it never changes."""
        from server.history import archive, replay_file

        data = self.downloads.get(match_id)
        if data is None:
            records = [replay_file.record(e) for e in await self.store.read(match_id)]
            data = await self.readers.run(
                archive.replay_bytes, match_id, records, info.names, info.created_ms, self.tokens.replay_key()
            )
            self.downloads.put(match_id, data)
        return data

    async def _replay_download(self, match_id: str) -> Response:
        """``GET /replays/<match id>.duelreplay``: a finished match's replay file (signed), for
        matches that allow spectators (a players-only match's replay stays with its players)."""
        from server.match.directory import FINISHED

        if not keys.MATCH_ID_RE.fullmatch(match_id):
            return _text(HTTPStatus.NOT_FOUND, "no such match\n")
        try:
            info = await self.directory.get(match_id)
            if info is None or info.status != FINISHED or not info.spectators or not await self.play.over(info):
                return _text(HTTPStatus.NOT_FOUND, "no finished match with that id whose replay is public\n")
            data = await self._duel_file(match_id, info)
        except REDIS_DOWN:
            return _text(HTTPStatus.SERVICE_UNAVAILABLE, "the match store cannot be reached right now\n")
        except Refused as exc:
            return _text(HTTPStatus.SERVICE_UNAVAILABLE, f"{exc}\n")
        return _file(data, f"{match_id}.duelreplay")

    async def _match_download(self, match_id: str) -> Response:
        """``GET /matches/<match id>.duelreplay``: a finished match of several duels' replay file,
        every duel in order (server.history.replay_file, a match file; docs/replay-format.md), signed, for
        matches that allow spectators. Made from its duels' files, and kept."""
        from server.history import replay_file

        if not keys.MATCH_ID_RE.fullmatch(match_id):
            return _text(HTTPStatus.NOT_FOUND, "no such match\n")
        cached = f"match:{match_id}"
        try:
            data = self.downloads.get(cached)
            if data is None:
                info = await self.directory.get(match_id)
                rec = None if info is None or not info.spectators else await self.play.record(info.match_id_of_series)
                if info is None or rec is None or rec.phase != "finished" or rec.match_id != match_id:
                    return _text(HTTPStatus.NOT_FOUND, "no finished match of several duels with that id, public\n")
                files = []
                for duel in rec.duels:
                    duel_info = await self.directory.get(duel.duel_id)
                    if duel_info is None:
                        return _text(HTTPStatus.NOT_FOUND, f"duel {duel.number} of that match is gone\n")
                    files.append(await self._duel_file(duel.duel_id, duel_info))
                data = replay_file.build_match(self.play.record_json(rec), files, self.tokens.replay_key())
                self.downloads.put(cached, data)
        except REDIS_DOWN:
            return _text(HTTPStatus.SERVICE_UNAVAILABLE, "the match store cannot be reached right now\n")
        except Refused as exc:
            return _text(HTTPStatus.SERVICE_UNAVAILABLE, f"{exc}\n")
        return _file(data, f"{match_id}.match.duelreplay")

    async def _match_record(self, match_id: str) -> Response:
        """``GET /matches/<match id>.json``: a finished match of several duels' record, listing its
        duels' replay files (docs/replay-format.md), for matches that allow spectators."""
        if not keys.MATCH_ID_RE.fullmatch(match_id):
            return _text(HTTPStatus.NOT_FOUND, "no such match\n")
        try:
            info = await self.directory.get(match_id)
            rec = None if info is None or not info.spectators else await self.play.record(info.match_id_of_series)
        except REDIS_DOWN:
            return _text(HTTPStatus.SERVICE_UNAVAILABLE, "the match store cannot be reached right now\n")
        if rec is None or rec.phase != "finished":
            return _text(HTTPStatus.NOT_FOUND, "no finished match of several duels with that id, public\n")
        body = json.dumps(self.play.record_json(rec), indent=1) + "\n"
        return _text(HTTPStatus.OK, body, "application/json")

    async def stop(self) -> None:
        """Drain: refuse new connections, let in-flight actions finish, tell
        every client to reconnect (close 1012), then release Redis."""
        self.draining = True
        if self._server is not None:
            self._server.close(close_connections=False)
        for match_id in list(self.service.live_with_watchers()):
            lm = self.service.cached(match_id)
            if lm is not None:
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(self.config.drain_timeout):
                        await lm.lock.acquire()
                        lm.lock.release()
        background = list(self.bots)
        for task in background:
            task.cancel()
        self.accounts.rated.stop()
        self.play.stop()
        if background:
            # ended before Redis is released: a task cancelled in the middle of a Redis command
            # and left to end after the connections close could hang the loop's shutdown
            await asyncio.wait(background, timeout=self.config.drain_timeout)
        sessions = list(self.sessions)
        await asyncio.gather(*(s.goodbye("server restarting") for s in sessions), return_exceptions=True)
        if self._server is not None:
            self._server.close(close_connections=True)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._server.wait_closed(), self.config.drain_timeout)
        if self.sealer is not None and self.sealer.waiting:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.sealer.flush(), self.config.drain_timeout)
        await self.fanout.stop()
        self.service.loop_clock.stop()
        self.readers.close()
        self.accounts.passwords.close()
        await self.redis.aclose()
        if self.pipe is not None:
            await self.pipe.close()
        log.info("stopped")

    async def __aenter__(self) -> DuelServer:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()


def _file(data: bytes, name: str) -> Response:
    headers = Headers(
        [
            ("Content-Type", "application/octet-stream"),
            ("Content-Length", str(len(data))),
            ("Content-Disposition", f'attachment; filename="{name}"'),
            ("Cache-Control", "no-cache"),
        ]
    )
    return Response(HTTPStatus.OK.value, HTTPStatus.OK.phrase, headers, data)


def _text(status: HTTPStatus, body: str, content_type: str = "text/plain; charset=utf-8") -> Response:
    headers = Headers([("Content-Type", content_type), ("Content-Length", str(len(body.encode())))])
    return Response(status.value, status.phrase, headers, body.encode())
