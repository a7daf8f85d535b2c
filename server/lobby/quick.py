"""The quick-match queue: pairing that no lost reply or crash can break.

All keys share the ``{lobby}`` hash tag (one slot on Redis Cluster). Each format has its own
queue (``queue_key``): a player is paired only with a player of the same format, and the match
is played under it (the waiting player's record names it). One script pairs a player: it pops
the oldest waiting player of its queue who is still connected (a waiting player's server
refreshes ``quick:alive`` every few seconds; a player whose entry lapsed, or who left, is
dropped, never paired) and records the pairing (``quick:joiner``) and the request's outcome
(``quick:req:<request id>``) in the same step, or, with nobody to pair with, queues the player.
Whatever happens after that step, the pairing is on record:

* a retry of the same request (the reply was lost, the server crashed) gets
  the same outcome back and finishes it: both steps after the script (create
  the waiting player's match, take seat 1) are idempotent;
* if the joining player's server dies before taking seat 1, the waiting
  player's server finds the pairing on record and takes seat 1 for it, so the
  waiting player is never left alone in a match nobody will join.

The waiting player's match is created from what it put on record
(``quick:waiter``), by whichever server gets there first.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Literal

import msgpack
import redis.asyncio as aioredis

from protocol.codec import pack
from server.rules import DEFAULT_FORMAT
from server.storage import keys

ALIVE_MS = 15_000
"""A waiting player counts as connected this long after its server last said so."""

REFRESH_S = 3.0
"""How often a waiting player's server says it is still there (and checks for a pairing)."""

REQUEST_TTL_S = 24 * 3600
"""How long a quick-match request's outcome is kept for retries."""

PAIR_LUA = """
-- KEYS: 1 queue, 2 alive, 3 request outcome, 4 waiter, 5 joiner
-- ARGV: 1 request id, 2 match id if it must wait, 3 now ms, 4 alive ms,
--       5 waiter record, 6 joiner record, 7 outcome ttl s
local prev = redis.call('GET', KEYS[3])
if prev then return {'PREV', prev} end
while true do
  local head = redis.call('ZRANGE', KEYS[1], 0, 0)
  if #head == 0 then break end
  local mid = head[1]
  redis.call('ZREM', KEYS[1], mid)
  local alive = tonumber(redis.call('HGET', KEYS[2], mid) or '0')
  redis.call('HDEL', KEYS[2], mid)
  if alive >= tonumber(ARGV[3]) then
    redis.call('HSET', KEYS[5], mid, ARGV[6])
    redis.call('SET', KEYS[3], 'join:' .. mid, 'EX', ARGV[7])
    return {'join:' .. mid, redis.call('HGET', KEYS[4], mid) or ''}
  end
  redis.call('HDEL', KEYS[4], mid)
end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[2])
redis.call('HSET', KEYS[2], ARGV[2], tonumber(ARGV[3]) + tonumber(ARGV[4]))
redis.call('HSET', KEYS[4], ARGV[2], ARGV[5])
redis.call('SET', KEYS[3], 'wait:' .. ARGV[2], 'EX', ARGV[7])
return {'wait:' .. ARGV[2], ''}
"""

ALIVE_LUA = """
-- KEYS: 1 queue, 2 alive; ARGV: 1 match id, 2 alive until (ms). 1 if still queued.
if redis.call('ZSCORE', KEYS[1], ARGV[1]) then
  redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
  return 1
end
return 0
"""

REQUEUE_LUA = """
-- KEYS: 1 queue, 2 alive, 3 waiter; ARGV: 1 match id, 2 now ms, 3 alive until, 4 waiter record
redis.call('ZADD', KEYS[1], 'NX', ARGV[2], ARGV[1])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[3])
redis.call('HSET', KEYS[3], ARGV[1], ARGV[4])
return 1
"""

LEAVE_LUA = """
-- KEYS: 1 queue, 2 alive, 3 waiter; ARGV: 1 match id. 1 if it was still queued.
local queued = redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('HDEL', KEYS[2], ARGV[1])
if queued == 1 then redis.call('HDEL', KEYS[3], ARGV[1]) end
return queued
"""


def queue_key(fmt: str) -> str:
    """The queue of the players of format ``fmt``, oldest first. The default format's is the
    queue's first name (players queued by a server older than formats are still paired)."""
    return keys.QUICK_QUEUE if fmt == DEFAULT_FORMAT else f"{keys.QUICK_QUEUE}:format:{fmt}"


def _now_ms() -> int:
    return int(time.time() * 1000)


def _text(value: object) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


@dataclass(frozen=True, slots=True)
class Entrant:
    """What a quick-match player puts on record: enough for any server to seat it."""

    request_id: str
    deck: list[int]
    name: str
    format: str = DEFAULT_FORMAT
    """The format the player asked for (its match is played under it)."""
    account: str = ""
    """The account it is logged in as ("": a guest); a rated quick match's seats are its accounts'."""
    rated: bool = False
    """A rated quick match (server.lobby.rated_queue): its match is created rated."""
    side: list[int] = field(default_factory=list)
    """Its Side Deck (the format's match may be of several duels: server.match.series)."""

    def pack(self) -> bytes:
        record: dict[str, Any] = {"request_id": self.request_id, "deck": self.deck, "name": self.name}
        record["format"] = self.format
        if self.account:
            record["account"] = self.account
        if self.rated:
            record["rated"] = True
        if self.side:
            record["side"] = self.side
        return pack(record)

    @classmethod
    def unpack(cls, blob: object) -> Entrant | None:
        if not isinstance(blob, bytes) or not blob:
            return None
        raw: Any = msgpack.unpackb(blob)
        fmt = str(raw.get("format", DEFAULT_FORMAT))  # a record of a server older than formats: the default
        deck = [int(x) for x in raw["deck"]]
        account, rated = str(raw.get("account", "")), bool(raw.get("rated", False))
        side = [int(x) for x in raw.get("side", [])]
        return cls(str(raw["request_id"]), deck, str(raw.get("name", "")), fmt, account, rated, side)


@dataclass(frozen=True, slots=True)
class Pairing:
    """``wait``: queued as ``match_id`` (seat 0). ``join``: paired with ``match_id``, whose
    waiting player is ``waiter`` (seat 1)."""

    outcome: Literal["wait", "join"]
    match_id: str
    waiter: Entrant | None = None


class QuickQueue:
    def __init__(self, client: aioredis.Redis) -> None:
        self._redis = client
        self._pair = client.register_script(PAIR_LUA)
        self._alive = client.register_script(ALIVE_LUA)
        self._leave = client.register_script(LEAVE_LUA)
        self._requeue = client.register_script(REQUEUE_LUA)

    async def pair(self, me: Entrant, own_match_id: str) -> Pairing:
        """Pair ``me`` with the oldest connected waiting player of its format, or queue ``me`` as
        ``own_match_id``. The same request always gets the same answer."""
        reply = await self._pair(
            keys=[
                queue_key(me.format),
                keys.QUICK_ALIVE,
                keys.quick_request_key(me.request_id),
                keys.QUICK_WAITER,
                keys.QUICK_JOINER,
            ],
            args=[me.request_id, own_match_id, _now_ms(), ALIVE_MS, me.pack(), me.pack(), REQUEST_TTL_S],
        )
        first = _text(reply[0])
        if first == "PREV":
            outcome, match_id = _text(reply[1]).split(":", 1)
            waiter = None
            if outcome == "join":
                waiter = Entrant.unpack(await self._redis.hget(keys.QUICK_WAITER, match_id))
            return Pairing("join" if outcome == "join" else "wait", match_id, waiter)
        outcome, match_id = first.split(":", 1)
        if outcome == "join":
            return Pairing("join", match_id, Entrant.unpack(reply[1]))
        return Pairing("wait", match_id)

    async def still_waiting(self, match_id: str, fmt: str = DEFAULT_FORMAT) -> bool:
        """The waiting player (in the queue of ``fmt``) is still connected; False once it is no
        longer queued."""
        return bool(await self._alive(keys=[queue_key(fmt), keys.QUICK_ALIVE], args=[match_id, _now_ms() + ALIVE_MS]))

    async def requeue(self, me: Entrant, match_id: str) -> None:
        """Queue a waiting player again whose entry lapsed (its server went quiet too long)."""
        now = _now_ms()
        await self._requeue(
            keys=[queue_key(me.format), keys.QUICK_ALIVE, keys.QUICK_WAITER],
            args=[match_id, now, now + ALIVE_MS, me.pack()],
        )

    async def leave(self, match_id: str, fmt: str = DEFAULT_FORMAT) -> bool:
        """The waiting player (in the queue of ``fmt``) left before anyone was paired with it;
        True if it was queued."""
        return bool(await self._leave(keys=[queue_key(fmt), keys.QUICK_ALIVE, keys.QUICK_WAITER], args=[match_id]))

    async def joiner(self, match_id: str) -> Entrant | None:
        """The player paired with ``match_id``'s waiting player, if any."""
        return Entrant.unpack(await self._redis.hget(keys.QUICK_JOINER, match_id))

    async def waiter(self, match_id: str) -> Entrant | None:
        return Entrant.unpack(await self._redis.hget(keys.QUICK_WAITER, match_id))

    async def done(self, match_id: str) -> None:
        """The paired match has started: its records are no longer needed."""
        await self._redis.hdel(keys.QUICK_JOINER, match_id)
        await self._redis.hdel(keys.QUICK_WAITER, match_id)

    async def waiting(self, fmt: str = DEFAULT_FORMAT) -> int:
        """How many players wait in the queue of ``fmt``."""
        n: int = await self._redis.zcard(queue_key(fmt))
        return n
