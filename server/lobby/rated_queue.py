"""Rated quick match: players of a format paired by rating, the accepted gap widening as they wait.

Each format has a queue of its own (``keys.rated_queue_key``), a sorted set of the waiting
players' match ids by their rating in that format (server.accounts.ladder); ``QUICK_RATED_SINCE``
says since when each has waited. Two players may be paired when their ratings differ by at most
the window of the one who has waited longer: ``RatedWindow`` (±100 at first, 50 more per 10 s
waited, at most ±1000: PROTOCOL.md section 4a). A player is paired with the closest rating its
window allows (the longest waiting on a tie), among the ``CANDIDATES`` nearest on each side.

**One script pairs** (``PAIR_LUA``), so every process on one Redis sees one queue and a player is
paired once: it reads the candidates, drops those whose server stopped saying they are connected
(``quick:alive``, as the casual queue does), passes over the player's own account's, picks one,
takes both players off the queue and records the pairing (``quick:joiner``, the request's outcome
``quick:req:<id>``) in the same step, or queues the player. It runs in three ways:

* ``new``: a ``quick_match {rated: true}``. Paired: it joins the waiting player's match (seat 1),
  as a casual quick match does; else it waits in a match of its own (seat 0).
* ``again``: every few seconds for each waiting player (its window has grown): paired, the player
  whose server ran the script **moves**: it leaves its own match (deleted, never started) and takes
  seat 1 of the other's, on its own connection (a second ``seated``). The other player's server
  only sees its match joined, as when a newcomer joins it; if the mover's server dies in between,
  the waiting player's server takes seat 1 for it from ``quick:joiner`` (server.lobby.quick).
* ``requeue``: a waiting player whose entry was dropped (it reconnected, or its server went quiet
  too long) waits again, keeping the time it started waiting (its match's creation).

The keys share the ``{lobby}`` hash tag with the casual queue's, so the script runs on Redis
Cluster too. Nothing here reads a clock of Redis: the server's time is passed in.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Literal

import redis.asyncio as aioredis

from server.lobby.quick import ALIVE_MS, REFRESH_S, REQUEST_TTL_S, Entrant, Pairing
from server.storage import keys

CANDIDATES = 64
"""Waiting players looked at on each side of a rating (the nearest first), at most, per pairing."""

PAIR_LUA = """
-- KEYS: 1 the format's rated queue, 2 waiting since, 3 alive, 4 request outcome, 5 waiter, 6 joiner,
--   7 accounts
-- ARGV: 1 mode (new | again | requeue), 2 own match id, 3 now ms, 4 alive ms, 5 entrant record,
--   6 outcome ttl s, 7 rating, 8 window at first, 9 widening, 10 every ms, 11 widest window,
--   12 candidates per side, 13 waiting since (requeue), 14 account
local mode, own, now = ARGV[1], ARGV[2], tonumber(ARGV[3])
local rating, widest = tonumber(ARGV[7]), tonumber(ARGV[11])
if mode == 'new' then
  local prev = redis.call('GET', KEYS[4])
  if prev then return {'PREV', prev} end
elseif mode == 'again' then
  if not redis.call('ZSCORE', KEYS[1], own) then return {'GONE', ''} end
end
local mine = now
if mode == 'again' then mine = tonumber(redis.call('HGET', KEYS[2], own) or now) end
if mode == 'requeue' then mine = tonumber(ARGV[13]) end
local function window(waited)
  local w = tonumber(ARGV[8]) + tonumber(ARGV[9]) * math.floor(waited / tonumber(ARGV[10]))
  if w > widest then return widest end
  return w
end
local best, best_gap, best_since = nil, 0, 0
local function consider(found)
  for i = 1, #found, 2 do
    local mid, score = found[i], tonumber(found[i + 1])
    if mid ~= own and redis.call('HGET', KEYS[7], mid) ~= ARGV[14] then
      local alive = tonumber(redis.call('HGET', KEYS[3], mid) or '0')
      if alive < now then
        redis.call('ZREM', KEYS[1], mid)
        redis.call('HDEL', KEYS[2], mid)
        redis.call('HDEL', KEYS[3], mid)
        redis.call('HDEL', KEYS[5], mid)
        redis.call('HDEL', KEYS[7], mid)
      else
        local since = tonumber(redis.call('HGET', KEYS[2], mid) or now)
        local gap = math.abs(score - rating)
        if gap <= window(now - math.min(since, mine))
            and (best == nil or gap < best_gap or (gap == best_gap and since < best_since)) then
          best, best_gap, best_since = mid, gap, since
        end
      end
    end
  end
end
consider(redis.call('ZRANGEBYSCORE', KEYS[1], ARGV[7], rating + widest, 'WITHSCORES', 'LIMIT', 0, ARGV[12]))
consider(redis.call('ZREVRANGEBYSCORE', KEYS[1], '(' .. ARGV[7], rating - widest, 'WITHSCORES', 'LIMIT', 0, ARGV[12]))
if best then
  redis.call('ZREM', KEYS[1], best, own)
  redis.call('HDEL', KEYS[2], best, own)
  redis.call('HDEL', KEYS[3], best, own)
  redis.call('HDEL', KEYS[5], own)
  redis.call('HDEL', KEYS[7], best, own)
  redis.call('HSET', KEYS[6], best, ARGV[5])
  redis.call('SET', KEYS[4], 'join:' .. best, 'EX', ARGV[6])
  return {'join:' .. best, redis.call('HGET', KEYS[5], best) or ''}
end
if mode == 'again' then
  redis.call('ZADD', KEYS[1], 'XX', ARGV[7], own)
  redis.call('HSET', KEYS[3], own, now + tonumber(ARGV[4]))
  return {'wait:' .. own, ''}
end
redis.call('ZADD', KEYS[1], ARGV[7], own)
redis.call('HSET', KEYS[2], own, mine)
redis.call('HSET', KEYS[3], own, now + tonumber(ARGV[4]))
redis.call('HSET', KEYS[5], own, ARGV[5])
redis.call('HSET', KEYS[7], own, ARGV[14])
if mode == 'new' then redis.call('SET', KEYS[4], 'wait:' .. own, 'EX', ARGV[6]) end
return {'wait:' .. own, ''}
"""

LEAVE_LUA = """
-- KEYS: 1 the format's rated queue, 2 waiting since, 3 alive, 4 waiter, 5 accounts; ARGV: 1 match
-- id. 1 if it was still queued.
local queued = redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('HDEL', KEYS[2], ARGV[1])
redis.call('HDEL', KEYS[3], ARGV[1])
redis.call('HDEL', KEYS[5], ARGV[1])
if queued == 1 then redis.call('HDEL', KEYS[4], ARGV[1]) end
return queued
"""

Mode = Literal["new", "again", "requeue"]


@dataclass(frozen=True, slots=True)
class RatedWindow:
    """The rating gap two players may be paired across: ``start`` at first, ``widen`` more for
    every ``every_s`` seconds the longer-waiting of the two has waited, at most ``widest``."""

    start: float = 100.0
    widen: float = 50.0
    every_s: float = 10.0
    widest: float = 1000.0

    def gap(self, waited_ms: int) -> float:
        """The widest gap after ``waited_ms`` of waiting (what the script computes)."""
        return min(self.widest, self.start + self.widen * (waited_ms // int(self.every_s * 1000)))

    @property
    def tick(self) -> float:
        """How often a waiting player's server looks again (its window widens every ``every_s``)."""
        return max(0.2, min(REFRESH_S, self.every_s / 2))


def _now_ms() -> int:
    return int(time.time() * 1000)


def _text(value: object) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


class RatedQueue:
    def __init__(self, client: aioredis.Redis, window: RatedWindow | None = None) -> None:
        self._redis = client
        self.window = window or RatedWindow()
        self._pair = client.register_script(PAIR_LUA)
        self._leave = client.register_script(LEAVE_LUA)

    async def _run(self, mode: Mode, me: Entrant, match_id: str, rating: float, since_ms: int = 0) -> list[object]:
        w = self.window
        reply: list[object] = await self._pair(
            keys=[
                keys.rated_queue_key(me.format),
                keys.QUICK_RATED_SINCE,
                keys.QUICK_ALIVE,
                keys.quick_request_key(me.request_id),
                keys.QUICK_WAITER,
                keys.QUICK_JOINER,
                keys.QUICK_RATED_ACCOUNT,
            ],
            args=[
                mode,
                match_id,
                _now_ms(),
                ALIVE_MS,
                me.pack(),
                REQUEST_TTL_S,
                f"{rating:.1f}",
                w.start,
                w.widen,
                int(w.every_s * 1000),
                w.widest,
                CANDIDATES,
                since_ms,
                me.account,
            ],
        )
        return reply

    def _pairing(self, reply: list[object]) -> Pairing:
        outcome, match_id = _text(reply[0]).split(":", 1)
        if outcome == "join":
            return Pairing("join", match_id, Entrant.unpack(reply[1]))
        return Pairing("wait", match_id)

    async def pair(self, me: Entrant, own_match_id: str, rating: float) -> Pairing:
        """A new request: pair ``me`` (rated ``rating``) with the closest waiting player its window
        allows, or queue it as ``own_match_id``. The same request always gets the same answer."""
        reply = await self._run("new", me, own_match_id, rating)
        if _text(reply[0]) == "PREV":
            outcome, match_id = _text(reply[1]).split(":", 1)
            if outcome != "join":
                return Pairing("wait", match_id)
            return Pairing("join", match_id, Entrant.unpack(await self._redis.hget(keys.QUICK_WAITER, match_id)))
        return self._pairing(reply)

    async def again(self, me: Entrant, match_id: str, rating: float) -> Pairing | None:
        """``me`` waits as ``match_id``: pair it now if a window allows (``join``: it moves to the
        other's match), else keep it marked as connected (``wait``). None: it is no longer queued
        (someone was paired with it, or its entry lapsed)."""
        reply = await self._run("again", me, match_id, rating)
        if _text(reply[0]) == "GONE":
            return None
        return self._pairing(reply)

    async def requeue(self, me: Entrant, match_id: str, rating: float, since_ms: int) -> Pairing:
        """Queue a waiting player again (it reconnected, or its entry lapsed), waiting since
        ``since_ms``; it may be paired at once (``join``: it moves)."""
        return self._pairing(await self._run("requeue", me, match_id, rating, since_ms))

    async def leave(self, match_id: str, fmt: str) -> bool:
        """The waiting player left before anyone was paired with it; True if it was queued."""
        got = await self._leave(
            keys=[
                keys.rated_queue_key(fmt),
                keys.QUICK_RATED_SINCE,
                keys.QUICK_ALIVE,
                keys.QUICK_WAITER,
                keys.QUICK_RATED_ACCOUNT,
            ],
            args=[match_id],
        )
        return bool(got)

    async def seat_request(self, match_id: str) -> str | None:
        """The request id that took seat 0 of ``match_id`` (what its player queued with)."""
        raw = await self._redis.hget(keys.meta_key(match_id), "req0")
        return None if raw is None else _text(raw)

    async def waiting(self, fmt: str) -> list[tuple[str, float]]:
        """The waiting players of ``fmt`` (match id, rating), lowest rating first."""
        rows: list[Any] = await self._redis.zrange(keys.rated_queue_key(fmt), 0, -1, withscores=True)
        return [(_text(m), float(r)) for m, r in rows]
