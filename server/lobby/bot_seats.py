"""The server's own bot players: the seats a player asks the server to fill
(``create_match`` with ``opponent: "bot"``).

Each bot is a real client of its process (server.clients.bot_player) and takes seat 1 over the
protocol, as any client would. They are the server's, not a client's, and no client can use
them up:

* a bot's connections carry this process's key in a handshake header
  (:data:`SERVER_SEAT_HEADER`; the key is random per process and never leaves it), and such a
  connection counts against no client address (``server.runtime.limits.SERVER_OWNED``): the
  per-address connection limit and frame budget belong to the clients alone;
* a bot ends with its match, and leaves a match whose player has been disconnected for
  ``bot_abandoned_after`` seconds (ServerConfig); the player's ``reconnect`` seats it again
  (Session._reconnect), so leaving costs the player nothing. Before this, every abandoned
  vs-bot match kept its bot's connection open for ever, and 256 of them from one address
  (its connection limit) refused that address, and every later bot, for good (issue 34).
"""

from __future__ import annotations

import asyncio
import hmac
import secrets
from typing import TYPE_CHECKING

import structlog

if TYPE_CHECKING:
    from collections.abc import Callable

    from websockets.datastructures import Headers

    from server.lobby.tokens import SeatTokens
    from server.match.directory import MatchDirectory
    from server.match.matches import MatchService
    from server.runtime.metrics import Metrics

log = structlog.get_logger("duel.bots")

SERVER_SEAT_HEADER = "X-Duel-Server-Seat"
"""The handshake header of a connection the server opened for one of its own seats."""

BOT_NAME = "Bot"


class BotSeats:
    """The bots this process runs, by match."""

    def __init__(
        self,
        url: Callable[[], str],
        *,
        think_s: float,
        policy: str = "greedy",
        abandoned_after: float | None,
        metrics: Metrics,
        tokens: SeatTokens,
        directory: MatchDirectory,
        service: MatchService,
        tasks: set[asyncio.Task[None]],
        draining: Callable[[], bool],
    ) -> None:
        """``url()``: this process's own listener (known once it listens); ``policy``: how its bots
        play (``server.clients.bot.POLICIES``; a searching bot thinks in worker processes, never
        in the event loop: ``server.clients.search.pool``); ``tasks``: the
        process's background tasks, which a bot joins while it plays; ``draining()``: the process
        is stopping (no bot takes its seat back then)."""
        self._url = url
        self._think_s = think_s
        self._policy = policy
        self._abandoned_after = abandoned_after
        self._metrics = metrics
        self._tokens = tokens
        self._directory = directory
        self._service = service
        self._tasks = tasks
        self._draining = draining
        self._key = secrets.token_urlsafe(32)
        self._running: set[str] = set()  # matches whose bot runs here

    def __len__(self) -> int:
        return len(self._running)

    def __contains__(self, match_id: object) -> bool:
        return match_id in self._running

    def owns(self, headers: Headers | None) -> bool:
        """Did this process open the connection with these handshake headers (one of its bots)?"""
        given = headers.get_all(SERVER_SEAT_HEADER) if headers is not None else []
        return len(given) == 1 and hmac.compare_digest(given[0].encode(), self._key.encode())

    def start(self, match_id: str, *, resume: bool = False, level: str = "") -> None:
        """Seat the server's bot in seat 1 of ``match_id``. ``resume``: the match exists and its
        bot is not connected (a server restarted, or the bot left while its player was gone):
        the bot takes its seat back with the seat's token. ``level``: how it plays (the match's
        ``bot_level``, ``server.clients.bot.BOT_LEVEL_POLICIES``; "": this process's policy)."""
        from server.clients.bot import BOT_LEVEL_POLICIES
        from server.clients.bot_player import BotPlayer

        if match_id in self._running:
            return
        bot = BotPlayer.named(
            self._url(),
            BOT_LEVEL_POLICIES.get(level, self._policy),
            think_s=self._think_s,
            name=BOT_NAME,
            headers={SERVER_SEAT_HEADER: self._key},
            abandoned_after=self._abandoned_after,
        )
        self._running.add(match_id)
        self._metrics.set("duel_bots_running", len(self._running))

        async def run() -> None:
            left = False
            try:
                if resume:
                    result = await bot.resume(self._tokens.issue(match_id, 1))
                else:
                    result = await bot.join(match_id)
                left = result.left
                if left:
                    log.info("bot_left", match_id=match_id, actions=result.actions)
                    await self._released(match_id)
                else:
                    log.info("bot_finished", match_id=match_id, winner=result.winner, actions=result.actions)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("bot_failed", match_id=match_id)
            finally:
                self._running.discard(match_id)
                self._metrics.set("duel_bots_running", len(self._running))
            if left:
                await self._back_if_player_returned(match_id)

        task = asyncio.create_task(run(), name=f"bot-{match_id}")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _released(self, match_id: str, timeout: float = 10.0) -> None:
        """Wait (a little) until the directory no longer has the bot holding seat 1."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while loop.time() < deadline:
            holders, _ = await self._directory.holders(match_id)
            if not holders[1]:
                return
            await asyncio.sleep(0.05)

    async def _back_if_player_returned(self, match_id: str) -> None:
        """The bot left: if its player came back meanwhile (their ``reconnect`` found the bot
        still seated, so did not seat it again), the bot takes its seat back. A player who
        comes back after this look finds seat 1 free, and their ``reconnect`` seats the bot."""
        from server.storage.redisconn import REDIS_DOWN

        try:
            holders, _ = await self._directory.holders(match_id)
        except REDIS_DOWN:
            log.warning("bot_return_unknown", match_id=match_id)
            return
        if self._service.connected(holders[0]) and not self._draining():
            self.start(match_id, resume=True)
