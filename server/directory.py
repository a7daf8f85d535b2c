"""Match metadata and the lobby, in Redis.

Per match (same hash tag as the log): ``match:{id}:meta``, a hash with
``status`` (waiting | live | finished), ``created_ms``, ``spectators``
(1/0), ``spectator_delay`` (entries), ``quick`` (1/0), the decks (msgpack)
and the seats taken.  The log
stays the only truth about the duel; the meta hash only says who sits where
before the duel starts and helps the lobby list matches.

Global lobby keys: ``lobby:matches`` (ZSET by creation time) and
``lobby:quick`` (LIST of matches waiting for a quick-match opponent).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import msgpack
import redis.asyncio as aioredis

from protocol.codec import pack
from server import keys
from server.clocks import ClockSettings

WAITING = "waiting"
LIVE = "live"
FINISHED = "finished"


@dataclass(frozen=True, slots=True)
class MatchInfo:
    match_id: str
    status: str
    created_ms: int
    spectators: bool
    quick: bool
    decks: tuple[list[int] | None, list[int] | None]
    clock: ClockSettings | None = None
    spectator_delay: int = 0

    def public(self, seq: int) -> dict[str, Any]:
        """The lobby row; ``seq`` is the log's length, shown as far as a
        spectator may see it (a delayed match's seq is shown delayed)."""
        return {
            "match_id": self.match_id,
            "status": self.status,
            "seq": seq if self.status == FINISHED else max(0, seq - self.spectator_delay),
            "spectators": self.spectators,
            "created_ms": self.created_ms,
            "spectator_delay": self.spectator_delay,
        }


def _clock(blob: object) -> ClockSettings | None:
    if not isinstance(blob, bytes):
        return None
    raw = msgpack.unpackb(blob)
    return None if not isinstance(raw, dict) else ClockSettings.from_genesis({"clock": raw})


def _text(value: object) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def _now_ms() -> int:
    return int(time.time() * 1000)


class MatchDirectory:
    def __init__(self, client: aioredis.Redis) -> None:
        self._redis = client

    async def create(
        self,
        match_id: str,
        deck0: list[int],
        *,
        spectators: bool,
        quick: bool,
        clock: ClockSettings | None = None,
        spectator_delay: int = 0,
    ) -> None:
        now = _now_ms()
        created = await self._redis.hsetnx(keys.meta_key(match_id), "seat0", "1")
        if not created:
            raise ValueError(f"match {match_id} exists")
        await self._redis.hset(
            keys.meta_key(match_id),
            mapping={
                "status": WAITING,
                "created_ms": now,
                "spectators": int(spectators),
                "spectator_delay": spectator_delay,
                "quick": int(quick),
                "deck0": pack(deck0),
                "clock": pack(None if clock is None else clock.to_action()),
            },
        )
        await self._redis.zadd(keys.LOBBY_MATCHES, {match_id: now})

    async def get(self, match_id: str) -> MatchInfo | None:
        raw = await self._redis.hgetall(keys.meta_key(match_id))
        if not raw or b"status" not in raw:
            return None
        f: dict[str, Any] = {_text(k): v for k, v in raw.items()}

        def deck(name: str) -> list[int] | None:
            blob = f.get(name)
            return None if blob is None else list(msgpack.unpackb(blob))

        return MatchInfo(
            match_id=match_id,
            status=_text(f["status"]),
            created_ms=int(f.get("created_ms", b"0")),
            spectators=f.get("spectators", b"1") == b"1",
            quick=f.get("quick", b"0") == b"1",
            decks=(deck("deck0"), deck("deck1")),
            clock=_clock(f.get("clock")),
            spectator_delay=int(f.get("spectator_delay", b"0")),
        )

    async def claim_seat1(self, match_id: str, deck1: list[int]) -> bool:
        """Take seat 1; False if someone else already has it."""
        if not await self._redis.hsetnx(keys.meta_key(match_id), "seat1", "1"):
            return False
        await self._redis.hset(keys.meta_key(match_id), "deck1", pack(deck1))
        return True

    async def set_status(self, match_id: str, status: str) -> None:
        await self._redis.hset(keys.meta_key(match_id), "status", status)

    async def recent(self, limit: int = 50) -> list[MatchInfo]:
        ids = await self._redis.zrevrange(keys.LOBBY_MATCHES, 0, limit * 2)
        out: list[MatchInfo] = []
        for raw_id in ids:
            info = await self.get(_text(raw_id))
            if info is not None and info.status != FINISHED:
                out.append(info)
            if len(out) >= limit:
                break
        return out

    async def quick_pop(self) -> str | None:
        raw = await self._redis.lpop(keys.LOBBY_QUICK)
        return None if raw is None else _text(raw)

    async def quick_push(self, match_id: str) -> None:
        await self._redis.rpush(keys.LOBBY_QUICK, match_id)

    async def quick_remove(self, match_id: str) -> None:
        await self._redis.lrem(keys.LOBBY_QUICK, 0, match_id)
