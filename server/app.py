"""The server process: Redis clients, the match service, fan-out and the
websocket listener (with ``/healthz`` and ``/metrics`` on the same port)."""

from __future__ import annotations

import asyncio
import contextlib
import socket
from http import HTTPStatus

import redis.asyncio as aioredis
import structlog
from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.datastructures import Headers
from websockets.http11 import Request, Response

from server import webapp
from server.config import ServerConfig
from server.directory import MatchDirectory
from server.fanout import FanOut
from server.matches import MatchService
from server.metrics import Metrics
from server.session import Session
from server.store import RedisEventStore
from server.tokens import SeatTokens, load_secret

log = structlog.get_logger("duel.server")


class DuelServer:
    """Start with :meth:`start`, stop with :meth:`stop` (drains first)."""

    def __init__(self, config: ServerConfig, redis_url: str, *, secret: bytes | None = None) -> None:
        self.config = config
        self.redis_url = redis_url
        self.metrics = Metrics()
        self.redis = aioredis.Redis.from_url(redis_url, health_check_interval=15)
        self.store = RedisEventStore(self.redis)
        self.directory = MatchDirectory(self.redis)
        self.tokens = SeatTokens(secret if secret is not None else load_secret(config.data_dir))
        self.service = MatchService(self.store, self.directory, self.metrics, self.tokens.alias_key)
        self.fanout = FanOut(
            aioredis.Redis.from_url(redis_url, health_check_interval=15), self.service, config.poll_interval
        )
        self.sessions: set[Session] = set()
        self._server: Server | None = None
        self.draining = False

    @property
    def port(self) -> int:
        assert self._server is not None
        for sock in self._server.sockets:
            return int(sock.getsockname()[1])
        raise RuntimeError("not listening")  # pragma: no cover

    async def start(self) -> DuelServer:
        await self.redis.ping()
        self.fanout.start()
        await asyncio.wait_for(self.fanout.ready.wait(), timeout=10)
        cfg = self.config
        self._server = await serve(
            self._handle,
            cfg.host,
            cfg.port,
            process_request=self._http,
            max_size=cfg.hard_max_frame,
            max_queue=8,
            compression=None,
            ping_interval=cfg.ping_interval,
            ping_timeout=cfg.ping_timeout,
            open_timeout=10,
            close_timeout=cfg.close_timeout,
            server_header=None,
        )
        log.info("listening", host=cfg.host, port=self.port, redis=_safe_url(self.redis_url))
        return self

    async def _handle(self, ws: ServerConnection) -> None:
        if self.config.socket_send_buffer:
            sock = ws.transport.get_extra_info("socket")
            if sock is not None:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, self.config.socket_send_buffer)
        self.metrics.inc("duel_connections_total")
        self.metrics.inc("duel_connections_open")
        try:
            await Session(ws, self).run()
        finally:
            self.metrics.inc("duel_connections_open", -1)

    def _http(self, connection: ServerConnection, request: Request) -> Response | None:
        path = request.path.split("?", 1)[0]
        if path == "/healthz":
            status = HTTPStatus.SERVICE_UNAVAILABLE if self.draining else HTTPStatus.OK
            return _text(status, "draining\n" if self.draining else "ok\n")
        if path == "/metrics":
            return _text(HTTPStatus.OK, self.metrics.render(), "text/plain; version=0.0.4; charset=utf-8")
        if self.draining:
            return _text(HTTPStatus.SERVICE_UNAVAILABLE, "draining\n")
        if "upgrade" not in request.headers.get("Connection", "").lower():
            return webapp.static_response(path, request.headers) or _text(
                HTTPStatus.NOT_FOUND, "not found: connect with a websocket, or GET /, /healthz, /metrics\n"
            )
        return None

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
        sessions = list(self.sessions)
        await asyncio.gather(*(s.goodbye("server restarting") for s in sessions), return_exceptions=True)
        if self._server is not None:
            self._server.close(close_connections=True)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._server.wait_closed(), self.config.drain_timeout)
        await self.fanout.stop()
        await self.redis.aclose()
        log.info("stopped")

    async def __aenter__(self) -> DuelServer:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()


def _text(status: HTTPStatus, body: str, content_type: str = "text/plain; charset=utf-8") -> Response:
    headers = Headers([("Content-Type", content_type), ("Content-Length", str(len(body.encode())))])
    return Response(status.value, status.phrase, headers, body.encode())


def _safe_url(url: str) -> str:
    """The URL without a password, for logs."""
    if "@" in url:
        scheme, rest = url.split("://", 1)
        return f"{scheme}://***@{rest.split('@', 1)[1]}"
    return url
