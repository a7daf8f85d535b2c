"""Fan-out between server processes.

Every append publishes its seq on the match's doorbell channel (inside the
append script, so a bell rings exactly when an entry was appended).  Each
process subscribes to the bell of each match it holds (and to no other, so a
bell costs only the processes that hold its match, however many there are:
docs/scaling.md) and, for a match it holds with watchers, reads the entries it
has not seen from the stream and sends them out.  An entry appended after a
match's load but before Redis confirmed its subscription rings no bell here:
each confirmation starts one catch-up read of its match.

Pub/sub delivers in order for as long as the subscription's connection lives,
so bells are missed only while it is down: when the listener subscribes again
it catches up every match it holds (a few at a time).  Behind that, a settle
check: after a match's latest bell, the process checks that match's last seq
once ``poll_interval`` later (30 s by default), then again after 2x, 4x, ...
that pause, ``SETTLE_CHECKS`` times in all, and then no more until the next
bell.  The checks of a sweep go out in pipelined batches and only matches that
are behind are synced, a few at a time: no request waits behind the server's
own housekeeping, a match in play costs nothing (each bell pushes its check
back), and a match left idle costs a handful of checks in all, so that Redis
traffic does not grow with the number of idle matches.  A client can always
ask itself (``sync``).  The seq numbers make every path idempotent.

A bell carries the new seq, so a process that already holds the match at
that seq (it made the append itself) reads nothing.  Bells ring in the order
of the appends, so a bell at or below one heard before for the same match
means the log went back (Redis lost entries it had acknowledged) and was
appended to again: the process checks the entry it holds against the log and
folds the match again if the log no longer has it (``MatchService.verify``;
also for every held match when the listener subscribes again).  A bell that rings
while a sync of its match is running makes that sync run once more, so an
entry appended during a read is not left for the poll.

The same channel carries seat news: ``hold:<seat>:<connection>`` when a
connection takes a seat (the process holding an older connection for that
seat closes it: one live connection per seat) and ``presence`` when one lets
go; both make the processes holding the match re-read who is connected; and
``expired`` when a waiting match nobody joined expired (server.lobby.expiry: the process
holding its creator's connection tells it and closes it); and ``match`` when a match of several
duels whose duel it is moved on (server.match.matchplay: the connections watching that duel are
told, and follow it to the next duel: server.process.matchdesk).
Each process also keeps a heartbeat in ``duel:processes`` (a sorted set by
time); a seat held by a process whose heartbeat stopped counts as
disconnected, so a crash shows as a disconnection.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

import redis.asyncio as aioredis
import structlog

from server.match.matches import MatchService
from server.storage import keys, resp
from server.storage.redisconn import store_failure


class SeatEvents(Protocol):
    """What the process does when a bell says a seat was taken or a waiting match expired:
    close its own connection that held it (server.process.connections)."""

    def seat_taken(self, match_id: str, seat: int, conn: str) -> Awaitable[None] | None: ...

    def match_expired(self, match_id: str) -> Awaitable[None] | None: ...

    def match_news(self, match_id: str) -> Awaitable[None] | None: ...


SYNC_CONCURRENCY = 16
"""At most this many catch-up syncs run at once (resubscribe, sweep)."""

SWEEP_BATCH = 200
"""Matches checked per pipelined round trip in a sweep."""

SETTLE_CHECKS = 6
"""Checks of a match after its latest bell (at 1, 2, 4, 8, 16, 32 x ``poll_interval``)."""

STOP_WAIT_S = 5.0
"""How long ``stop`` waits for the fan-out's tasks to end after cancelling them."""

HEARTBEAT_S = 3.0
"""How often a process says it is alive."""

PROCESS_TTL_MS = 10_000
"""A process silent this long is taken for dead (its seats count as disconnected)."""

log = structlog.get_logger("duel.fanout")


_jitter = random.Random()
"""The poll's jitter: its own generator, so that the server never draws from (and so never moves)
the process's global one (Hypothesis, for one, checks that nothing does while it generates)."""


class FanOut:
    def __init__(
        self,
        client: aioredis.Redis,
        service: MatchService,
        poll_interval: float,
        seats: SeatEvents | None = None,
        subscribers: Callable[[], aioredis.Redis] | None = None,
        lean: resp.Pipe | None = None,
    ) -> None:
        """``lean``: listen for bells over server.storage.resp (one Redis) instead of redis-py."""
        self._redis = client
        self._lean = lean
        # where to subscribe: the same Redis, or (Redis Cluster) one node after another: a
        # classic PUBLISH reaches every node's subscribers
        self._subscribers = subscribers or (lambda: client)
        self._service = service
        self._seats = seats
        self._poll_interval = poll_interval
        self._tasks: list[asyncio.Task[None]] = []
        self._syncing: dict[str, asyncio.Task[None]] = {}
        self._again: set[str] = set()
        self._stopped = False
        self._gate = asyncio.Semaphore(SYNC_CONCURRENCY)
        # match -> (when its next settle check is due, checks done since its latest bell)
        self._settle: dict[str, tuple[float, int]] = {}
        self.checks = 0  # settle checks sent (read by tests: idle matches stop costing)
        self.ready = asyncio.Event()
        # the bells of the matches this process holds, and only those: a bell reaches the
        # processes that hold its match, not every process (a pattern would: docs/scaling.md)
        self._subs = resp.Subscriptions()
        self._pubsub: Any = None  # redis-py's subscription, when not on the lean connection
        service.holding = self._holding

    def start(self) -> None:
        self._tasks = [
            asyncio.create_task(self._listen(), name="fanout-listen"),
            asyncio.create_task(self._poll(), name="fanout-poll"),
            asyncio.create_task(self._heartbeat(), name="fanout-heartbeat"),
        ]

    async def stop(self) -> None:
        """Cancel the listener, the poll, the heartbeat and the syncs, and wait for them a
        moment. A cancellation can be swallowed inside a Redis client's call (the task then
        ends at its loop's next ``_stopped`` check), so the wait is bounded: a server that
        stops must not hang on its own housekeeping."""
        self._stopped = True
        tasks = [*self._tasks, *self._syncing.values()]
        for task in tasks:
            task.cancel()
        if tasks:
            _, pending = await asyncio.wait(tasks, timeout=STOP_WAIT_S)
            if pending:
                log.warning("fanout_tasks_still_running", tasks=sorted(t.get_name() for t in pending))
        for task in tasks:
            if task.done() and not task.cancelled():
                task.exception()  # retrieved: nothing to report at shutdown
        self._tasks.clear()
        self._syncing.clear()

    def _schedule(self, match_id: str, seq: int | None = None) -> None:
        """Catch ``match_id`` up (if held here); ``seq``: the bell's. Nothing to read if the match
        is at ``seq`` already, or is appending at ``seq`` itself: under load the bell of this
        process's own append often comes before the append's reply, and a catch-up would only
        wait for the match's lock to find nothing to read (-3 % server CPU at saturation). If
        that append then fails, it reads the log itself (a conflict) or the settle check below
        does (Redis failed). A bell at or below one heard before means the log went back
        (``MatchService.verify``)."""
        lm = self._service.cached(match_id)
        if self._stopped or lm is None:
            return
        self._settle[match_id] = (time.monotonic() + self._jittered(), 0)
        if seq is not None:
            if seq <= lm.heard:  # appended at that seq again: the log went back
                self._spawn(self._service.verify(match_id))
            lm.heard = seq
            if lm.seq >= seq or lm.appending == seq:
                return
        if match_id in self._syncing:
            self._again.add(match_id)
            return
        self._syncing[match_id] = asyncio.create_task(self._sync(match_id, seq))

    async def _sync(self, match_id: str, seq: int | None) -> None:
        try:
            await self._service.sync(match_id, seq)
        except Exception:
            log.exception("sync_failed", match_id=match_id)
        finally:
            self._syncing.pop(match_id, None)
            if match_id in self._again:
                self._again.discard(match_id)
                self._schedule(match_id)

    def _holding(self, match_id: str, held: bool) -> None:
        """This process starts (``held``) or stops holding ``match_id``: subscribe to its bell,
        or drop it. Once Redis confirms a subscription, the match is caught up (``_confirmed``):
        an entry appended between its load and then rang no bell here."""
        channel = keys.bell_channel(match_id)
        if held:
            self._subs.add(channel)
        else:
            self._subs.discard(channel)
        pubsub = self._pubsub
        if pubsub is not None:  # redis-py's connection: a command each, as a task
            self._spawn(pubsub.subscribe(channel) if held else pubsub.unsubscribe(channel))

    def _confirmed(self, channel: bytes | str) -> None:
        """Redis confirmed the subscription to a match's bell: read what the match may have
        missed before it. Through the gate, a few at a time: a listener that subscribes again
        has every held match confirmed at once, and no request may wait behind the server's
        own housekeeping."""
        match_id = keys.match_of_bell(channel.decode() if isinstance(channel, bytes) else channel)
        if match_id is not None and self._service.cached(match_id) is not None:
            self._spawn(self._gated(self._service.sync, match_id))

    async def _listen(self) -> None:
        if self._lean is not None:
            await self._listen_lean(self._lean)
            return
        while not self._stopped:
            pubsub = self._subscribers().pubsub()
            try:
                # a channel of this process's own first: redis-py reads nothing until subscribed
                initial = set(self._subs.channels)
                await pubsub.subscribe(keys.process_channel(self._service.process_id), *sorted(initial))
                self._pubsub = pubsub
                # matches taken up or let go while that subscription was on its way
                if late := self._subs.channels - initial:
                    await pubsub.subscribe(*sorted(late))
                if gone := initial - self._subs.channels:
                    await pubsub.unsubscribe(*sorted(gone))
                self._subscribed()
                while not self._stopped:
                    msg = await pubsub.get_message(timeout=1.0)
                    if msg is None:
                        continue
                    if msg["type"] == "message":
                        self._bell(msg["channel"], msg.get("data"))
                    elif msg["type"] == "subscribe":
                        self._confirmed(msg["channel"])
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("bell_listener_failed")
                await asyncio.sleep(0.5)
            finally:
                if self._pubsub is pubsub:
                    self._pubsub = None
                with contextlib.suppress(Exception):
                    await pubsub.aclose()  # type: ignore[no-untyped-call]

    def _subscribed(self) -> None:
        if self.ready.is_set():
            # subscribed again after a failure: bells may have been missed meanwhile
            self._spawn(self._catch_up_all())
        self.ready.set()

    def _bell(self, channel: bytes | str, data: object) -> None:
        match_id = keys.match_of_bell(channel.decode() if isinstance(channel, bytes) else channel)
        if match_id is not None:
            self._ring(match_id, data)

    async def _listen_lean(self, pipe: resp.Pipe) -> None:
        """The bells over the lean connection (server.storage.resp): each message is handled as it
        is parsed, without a request and a task per message as redis-py's pub/sub has."""
        while not self._stopped:
            try:
                await pipe.listen_channels(self._subs, self._bell, self._subscribed, self._confirmed)
                log.warning("bell_listener_lost")
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("bell_listener_failed")
            await asyncio.sleep(0.5)

    def _ring(self, match_id: str, data: object) -> None:
        text = data.decode() if isinstance(data, bytes) else str(data)
        if text.startswith("hold:"):
            _, seat, conn = text.split(":", 2)
            if self._seats is not None and seat in ("0", "1"):
                closing = self._seats.seat_taken(match_id, int(seat), conn)
                if closing is not None:
                    self._spawn(closing)
            if conn.split("/", 1)[0] != self._service.process_id:
                # a seat taken on this process was read already: attaching its connection
                # reads who holds the seats and tells the match's watchers here
                self._spawn(self._service.refresh_presence(match_id))
        elif text == "presence":
            self._spawn(self._service.refresh_presence(match_id))
        elif text == "expired":
            closing = self._seats.match_expired(match_id) if self._seats is not None else None
            if closing is not None:
                self._spawn(closing)
        elif text == "match":  # a match of several duels moved on (server.match.matchplay)
            following = self._seats.match_news(match_id) if self._seats is not None else None
            if following is not None:
                self._spawn(following)
        else:
            self._schedule(match_id, _seq(data))

    def _spawn(self, coro: object) -> None:
        task = asyncio.ensure_future(coro)  # type: ignore[call-overload]
        task.add_done_callback(_log_failure)

    async def _heartbeat(self) -> None:
        """Say this process is alive; learn which others are (seat presence)."""
        process_id = self._service.process_id
        while not self._stopped:
            try:
                now = await self.say_alive()
                await self._redis.zremrangebyscore(keys.PROCESSES, 0, now - 6 * PROCESS_TTL_MS)
                raw = await self._redis.zrangebyscore(keys.PROCESSES, now - PROCESS_TTL_MS, "+inf")
                alive = {r.decode() if isinstance(r, bytes) else str(r) for r in raw} - {process_id}
                if alive != self._service.live_processes:
                    self._service.live_processes = alive
                    self._service.processes_changed()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("heartbeat_failed")
            await asyncio.sleep(HEARTBEAT_S)

    async def say_alive(self) -> int:
        """Write this process's heartbeat (the time, in ms, it wrote): a write like any other,
        so whether it succeeds tells whether Redis takes writes (``MatchService.store_failed``)."""
        now = int(time.time() * 1000)
        service = self._service
        try:
            await self._redis.zadd(keys.PROCESSES, {service.process_id: now})
        except Exception as exc:
            failure = store_failure(exc)
            if failure is not None:
                service.store_failed(failure)
            raise
        service.store_wrote()
        return now

    async def _catch_up_all(self) -> None:
        """Sync every held match, a few at a time (after the listener was down), checking first
        that its log did not go back (``MatchService.verify``: the listener is down when Redis
        restarts, and a Redis that restarts may have lost what it had acknowledged)."""
        matches = self._service.live_with_watchers()
        log.info("fanout_catch_up", matches=len(matches))
        await asyncio.gather(*(self._gated(self._service.verify, m) for m in matches), return_exceptions=True)

    async def _gated(self, work: Callable[[str], Awaitable[None]], match_id: str) -> None:
        """``work(match_id)``, a few at a time (the gate)."""
        async with self._gate:
            await work(match_id)

    def _jittered(self, scale: float = 1.0) -> float:
        return self._poll_interval * scale * (0.75 + 0.5 * _jitter.random())

    async def _poll(self) -> None:
        """The settle checks: every half ``poll_interval``, the matches whose check is due
        are checked (pipelined), those behind synced; each match's next check is twice as
        far off, and after ``SETTLE_CHECKS`` it has none until its next bell."""
        while not self._stopped:
            await asyncio.sleep(self._jittered(0.5))
            try:
                await self.settle()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("fanout_sweep_failed")

    async def settle(self) -> None:
        now = time.monotonic()
        held = set(self._service.live_with_watchers())
        for match_id in [m for m in self._settle if m not in held]:
            del self._settle[match_id]
        due = [m for m, (when, _) in self._settle.items() if when <= now]
        if not due:
            return
        for match_id in due:
            done = self._settle[match_id][1] + 1
            if done >= SETTLE_CHECKS:
                del self._settle[match_id]
            else:
                self._settle[match_id] = (now + self._jittered(2.0**done), done)
        self.checks += len(due)
        behind = await self._behind(due)
        if behind:
            log.info("fanout_sweep_found", matches=len(behind))
            await asyncio.gather(*(self._gated(self._service.sync, m) for m in behind), return_exceptions=True)

    async def _behind(self, matches: list[str]) -> list[str]:
        out: list[str] = []
        if not matches:
            return out
        start = _jitter.randrange(len(matches))
        ordered = matches[start:] + matches[:start]
        for i in range(0, len(ordered), SWEEP_BATCH):
            batch = ordered[i : i + SWEEP_BATCH]
            pipe = self._redis.pipeline(transaction=False)
            for match_id in batch:
                pipe.xrevrange(keys.log_key(match_id), max="+", min="-", count=1)
            tops = await pipe.execute()
            for match_id, rows in zip(batch, tops, strict=True):
                lm = self._service.cached(match_id)
                if lm is not None and rows and _id_seq(rows[0][0]) > lm.seq:
                    out.append(match_id)
        return out


def _log_failure(task: asyncio.Future[object]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.warning("bell_task_failed", error=repr(task.exception()))


def _id_seq(entry_id: object) -> int:
    text = entry_id.decode() if isinstance(entry_id, bytes) else str(entry_id)
    return int(text.split("-", 1)[0])


def _seq(data: object) -> int | None:
    """The seq a bell announces (None if it is not one)."""
    try:
        return int(data) if isinstance(data, bytes | str | int) else None
    except ValueError:
        return None
