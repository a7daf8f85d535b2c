"""Keepalive pings for every connection of the process, from one task.

websockets runs a keepalive task per connection (a task, its coroutine and a timer: ~1.3 KiB
of every duel held, two connections; tracemalloc, 300 duels held at a human pace). This does
the same job for all of them with a few queues, each in time order since every connection has
the same interval and timeouts:

* every ``interval`` seconds an open connection is sent a ping;
* a connection that has not answered a ping within ``timeout`` seconds is closed with 1011
  ("keepalive ping timeout"), as websockets does;
* a connection found closing (by this, by a full outbox, by anything) that is not closed
  ``close_timeout`` seconds later is aborted: a client that reads nothing never completes
  the closing handshake, and its close would wait on the full socket for ever. (websockets'
  own keepalive did this as a side effect: its next ping on a closing connection waited for
  the close deadline, then aborted the transport.)

A connection whose writing is paused (more than the high-water mark waits in its buffer: its
client reads too slowly) is not pinged until it is not, as websockets' keepalive would wait in
its ``drain``; the outbox limit drops a client that does not read at all (1013). A client that
reads nothing while it is sent little is pinged, does not answer, and is closed.
"""

from __future__ import annotations

import asyncio
import weakref
from collections import deque
from collections.abc import Callable

import structlog
from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed
from websockets.frames import CloseCode
from websockets.protocol import State

log = structlog.get_logger("duel.keepalive")

Ref = weakref.ref[ServerConnection]
"""The queues hold connections weakly: a closed connection is freed at once, not when its
next ping falls due (under churn, thousands of closed connections and their buffers)."""

BUSY_RETRY_S = 1.0
"""How soon a connection whose writing was paused is looked at again."""

PINGS_PER_TURN = 64
"""Pings sent before the task lets the event loop run everything else that is ready. Connections
opened together (a ramp of players, a reconnect storm after a restart) fall due together every
interval, and were pinged in one go: with 2,000 duels held, one such turn took 0.10-0.29 s
(asyncio's debug mode, which slows every callback; issue 41), every duel of the process waiting."""


class Keepalive:
    def __init__(
        self,
        interval: float,
        timeout: float | None,
        close_timeout: float,
        on_timeout: Callable[[], None] = lambda: None,
    ) -> None:
        self.interval = interval
        self.timeout = timeout
        self.close_timeout = close_timeout
        self._due: deque[tuple[float, Ref]] = deque()  # (when to ping, connection)
        self._busy: deque[tuple[float, Ref]] = deque()  # the same, for writing paused
        self._waiting: deque[tuple[float, Ref, asyncio.Future[float]]] = deque()  # (deadline, ...)
        self._ending: deque[tuple[float, Ref]] = deque()  # (when to abort if not closed, ...)
        self._added = asyncio.Event()
        self._closing: set[asyncio.Task[None]] = set()  # the closes started (a running task needs a reference)
        self._on_timeout = on_timeout  # called for each connection closed for a ping not answered in time

    def add(self, ws: ServerConnection) -> None:
        """Keep ``ws`` alive from now on (until it closes)."""
        self._due.append((asyncio.get_running_loop().time() + self.interval, weakref.ref(ws)))
        self._added.set()

    async def run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            now = loop.time()
            try:
                self._expire(now)
                await self._ping_due(now)
            except Exception:  # one connection's trouble must not stop the keepalive of all
                log.exception("keepalive_failed")
            fronts = [q[0][0] for q in (self._due, self._busy, self._waiting, self._ending) if q]
            if not fronts:
                self._added.clear()
                await self._added.wait()
                continue
            await asyncio.sleep(max(0.0, min(fronts) - loop.time()))

    def _expire(self, now: float) -> None:
        ending = self._ending
        while ending and ending[0][0] <= now:
            ws = ending.popleft()[1]()
            if ws is not None and ws.protocol.state is not State.CLOSED:
                log.info("closing_timeout", remote=str(ws.remote_address))
                ws.transport.abort()
        waiting = self._waiting
        while waiting and waiting[0][0] <= now:
            _, ref, pong = waiting.popleft()
            ws = ref()
            if ws is None or pong.done() or ws.protocol.state is not State.OPEN:
                continue
            self._on_timeout()
            log.info("keepalive_timeout", remote=str(ws.remote_address))
            task = asyncio.get_running_loop().create_task(ws.close(CloseCode.INTERNAL_ERROR, "keepalive ping timeout"))
            self._closing.add(task)
            task.add_done_callback(self._closing.discard)
            ending.append((now + self.close_timeout, ref))

    async def _ping_due(self, now: float) -> None:
        # each queue is in time order (a constant delay from when its entries were added); a
        # turn of the event loop is given to the rest after every PINGS_PER_TURN pings
        sent = 0
        for queue in (self._busy, self._due):
            while queue and queue[0][0] <= now:
                ref = queue.popleft()[1]
                ws = ref()
                if ws is not None:
                    await self._ping(ws, ref, now)
                    sent += 1
                    if sent % PINGS_PER_TURN == 0:
                        await asyncio.sleep(0)

    async def _ping(self, ws: ServerConnection, ref: Ref, now: float) -> None:
        state = ws.protocol.state
        if state is State.CLOSED:
            return
        if state is not State.OPEN:  # closing: it must be closed within the close timeout
            self._ending.append((now + self.close_timeout, ref))
            return
        transport = ws.transport
        if transport.get_write_buffer_size() > transport.get_write_buffer_limits()[1]:
            # writing is paused (the client reads too slowly): sending would wait for it to read
            self._busy.append((now + min(BUSY_RETRY_S, self.interval), ref))
            return
        try:
            # open and writing not paused: the ping is queued now, without waiting
            pong = asyncio.ensure_future(await ws.ping())  # the pong's future itself (no task made)
        except ConnectionClosed:
            return
        if self.timeout is not None:
            self._waiting.append((now + self.timeout, ref, pong))
        self._due.append((now + self.interval, ref))
