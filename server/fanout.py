"""Fan-out between server processes.

Every append publishes its seq on the match's doorbell channel (inside the
append script, so a bell rings exactly when an entry was appended).  Each
process listens on the bell pattern and, for a match it holds with watchers,
reads the entries it has not seen from the stream and sends them out.  Pub/sub
is at most once, so a slow poll repairs missed bells; the seq numbers make
both paths idempotent.

A bell carries the new seq, so a process that already holds the match at
that seq (it made the append itself) reads nothing.  A bell that rings
while a sync of its match is running makes that sync run once more, so an
entry appended during a read is not left for the poll.
"""

from __future__ import annotations

import asyncio
import contextlib

import redis.asyncio as aioredis
import structlog

from server import keys
from server.matches import MatchService

log = structlog.get_logger("duel.fanout")


class FanOut:
    def __init__(self, client: aioredis.Redis, service: MatchService, poll_interval: float) -> None:
        self._redis = client
        self._service = service
        self._poll_interval = poll_interval
        self._tasks: list[asyncio.Task[None]] = []
        self._syncing: dict[str, asyncio.Task[None]] = {}
        self._again: set[str] = set()
        self._stopped = False
        self.ready = asyncio.Event()

    def start(self) -> None:
        self._tasks = [
            asyncio.create_task(self._listen(), name="fanout-listen"),
            asyncio.create_task(self._poll(), name="fanout-poll"),
        ]

    async def stop(self) -> None:
        self._stopped = True
        for task in [*self._tasks, *self._syncing.values()]:
            task.cancel()
        for task in [*self._tasks, *self._syncing.values()]:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._tasks.clear()
        self._syncing.clear()

    def _schedule(self, match_id: str, seq: int | None = None) -> None:
        """Catch ``match_id`` up (if held here) unless it is at ``seq`` already."""
        lm = self._service.cached(match_id)
        if self._stopped or lm is None or (seq is not None and lm.seq >= seq):
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

    async def _listen(self) -> None:
        while True:
            pubsub = self._redis.pubsub()
            try:
                await pubsub.psubscribe(keys.BELL_PATTERN)
                self.ready.set()
                while True:
                    msg = await pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
                    if msg is None:
                        continue
                    channel = msg["channel"]
                    name = channel.decode() if isinstance(channel, bytes) else str(channel)
                    match_id = keys.match_of_bell(name)
                    if match_id is not None:
                        self._schedule(match_id, _seq(msg.get("data")))
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("bell_listener_failed")
                await asyncio.sleep(0.5)
            finally:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()  # type: ignore[no-untyped-call]

    async def _poll(self) -> None:
        while True:
            await asyncio.sleep(self._poll_interval)
            for match_id in self._service.live_with_watchers():
                self._schedule(match_id)


def _seq(data: object) -> int | None:
    """The seq a bell announces (None if it is not one)."""
    try:
        return int(data) if isinstance(data, bytes | str | int) else None
    except ValueError:
        return None
