"""The rated ladder in Redis: a rating per (account, format), the leaderboards, and the update of
a finished rated match, applied exactly once.

Keys (server.storage.keys, all under the hash tag ``{accounts}``, so that one script touches them
together, on Redis Cluster too): per format a HASH of ratings (account id -> JSON) and a ZSET
leaderboard (account id by ``Rating.score``); ``RATINGS_APPLIED`` (match id -> the update it
made), ``RATED_OPEN`` (rated matches not rated yet) and ``RATING_LOG`` (a stream of every update).

**Exactly once.** The new ratings are computed here from the ratings as read; then one script
(``APPLY_LUA``) writes them only if the match is not in ``RATINGS_APPLIED`` yet and both ratings
are still what was read, and in the same step records the match as applied, takes it off the
open set and logs the update. So two processes (or two calls) rating the same match write once:
the second finds it applied (``done``). A rating that moved meanwhile (the same account's other
match was rated first) is read again and the update computed again (``MOVED``). Nothing is
written unless everything is, so a process killed at any point leaves the match either rated or
open, and an open match is rated by the next sweep (server.accounts.rated).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Literal

import redis.asyncio as aioredis

from server.accounts.ratings import Rating, rate
from server.storage import keys

APPLY_LUA = """
-- KEYS[1] applied, KEYS[2] the format's ratings, KEYS[3] its leaderboard, KEYS[4] open, KEYS[5] log
-- ARGV[1] match id, ARGV[2] account of seat 0, ARGV[3] of seat 1, ARGV[4] seat 0's rating as read
-- ('' = none yet), ARGV[5] seat 1's, ARGV[6] seat 0's new rating, ARGV[7] seat 1's, ARGV[8] seat
-- 0's ladder score, ARGV[9] seat 1's, ARGV[10] the update (JSON)
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then
  redis.call('ZREM', KEYS[4], ARGV[1])
  return 'DONE'
end
local cur0 = redis.call('HGET', KEYS[2], ARGV[2]) or ''
local cur1 = redis.call('HGET', KEYS[2], ARGV[3]) or ''
if cur0 ~= ARGV[4] or cur1 ~= ARGV[5] then return 'MOVED' end
redis.call('HSET', KEYS[2], ARGV[2], ARGV[6], ARGV[3], ARGV[7])
redis.call('ZADD', KEYS[3], ARGV[8], ARGV[2], ARGV[9], ARGV[3])
redis.call('HSET', KEYS[1], ARGV[1], ARGV[10])
redis.call('ZREM', KEYS[4], ARGV[1])
redis.call('XADD', KEYS[5], 'MAXLEN', '~', 100000, '*', 'match', ARGV[1], 'update', ARGV[10])
return 'OK'
"""

MAX_TRIES = 8
"""Reads and writes of one update before giving up (each lost race means another update of one
of the two accounts was applied in between; the sweep tries again later)."""


@dataclass(frozen=True, slots=True)
class RatedResult:
    """What a finished rated match tells the ladder: its format, the accounts in seats 0 and 1,
    and the winning seat (None: a draw)."""

    match_id: str
    fmt: str
    accounts: tuple[str, str]
    winner: int | None


Applied = Literal["applied", "done"]


@dataclass(frozen=True, slots=True)
class Standing:
    account_id: str
    rating: Rating
    rank: int


def _text(value: object) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


class Ladder:
    def __init__(self, client: aioredis.Redis) -> None:
        self._redis = client
        self._apply = client.register_script(APPLY_LUA)

    async def rating(self, account_id: str, fmt: str) -> Rating:
        """An account's rating in a format (a new account's if it has none): what rated pairing
        reads (server.lobby.quick may pair rated players by it)."""
        return Rating.loads(await self._redis.hget(keys.ratings_key(fmt), account_id))

    async def ratings(self, account_ids: list[str], fmt: str) -> dict[str, Rating]:
        """Several accounts' ratings in one format, in one round trip."""
        if not account_ids:
            return {}
        raw = await self._redis.hmget(keys.ratings_key(fmt), account_ids)
        return {a: Rating.loads(r) for a, r in zip(account_ids, raw, strict=True)}

    async def standings(self, account_id: str, formats: list[str]) -> list[tuple[str, Rating, int]]:
        """(format, rating, rank) for each format the account has a rating in."""
        pipe = self._redis.pipeline(transaction=False)
        for fmt in formats:
            pipe.hget(keys.ratings_key(fmt), account_id)
            pipe.zrevrank(keys.board_key(fmt), account_id)
        got = await pipe.execute()
        out = []
        for i, fmt in enumerate(formats):
            raw, rank = got[2 * i], got[2 * i + 1]
            if raw is not None:
                out.append((fmt, Rating.loads(raw), 0 if rank is None else int(rank) + 1))
        return out

    async def page(self, fmt: str, offset: int, limit: int) -> tuple[list[Standing], int]:
        """The leaderboard from rank ``offset + 1``, at most ``limit`` rows, and how many are on it."""
        board = keys.board_key(fmt)
        ids = [_text(x) for x in await self._redis.zrevrange(board, offset, offset + limit - 1)]
        total = int(await self._redis.zcard(board))
        found = await self.ratings(ids, fmt)
        return [Standing(a, found[a], offset + i + 1) for i, a in enumerate(ids)], total

    # ------------------------------------------------------------ rated matches

    async def register(self, match_id: str, now_ms: int) -> None:
        """A rated match is about to start: it is open until its update is applied."""
        await self._redis.zadd(keys.RATED_OPEN, {match_id: now_ms}, nx=True)

    async def open_matches(self, limit: int) -> list[str]:
        """Rated matches not rated yet, oldest first."""
        return [_text(x) for x in await self._redis.zrange(keys.RATED_OPEN, 0, limit - 1)]

    async def close(self, match_id: str) -> None:
        """A registered match that will never be rated (it is gone: expired or deleted)."""
        await self._redis.zrem(keys.RATED_OPEN, match_id)

    async def applied(self, match_id: str) -> dict[str, Any] | None:
        """The update a match made (None: not rated)."""
        raw = await self._redis.hget(keys.RATINGS_APPLIED, match_id)
        return None if raw is None else dict(json.loads(raw))

    async def apply(self, result: RatedResult, now_ms: int) -> Applied:
        """Rate a finished match, once: ``applied`` by this call, ``done`` before (by any process)."""
        a0, a1 = result.accounts
        ratings_key = keys.ratings_key(result.fmt)
        script_keys = [
            keys.RATINGS_APPLIED,
            ratings_key,
            keys.board_key(result.fmt),
            keys.RATED_OPEN,
            keys.RATING_LOG,
        ]
        for _ in range(MAX_TRIES):
            raw0, raw1 = await self._redis.hmget(ratings_key, [a0, a1])
            old0, old1 = Rating.loads(raw0), Rating.loads(raw1)
            new0, new1 = rate(old0, old1, result.winner)
            update = {
                "match_id": result.match_id,
                "format": result.fmt,
                "accounts": [a0, a1],
                "winner": result.winner,
                "before": [old0.public(), old1.public()],
                "after": [new0.public(), new1.public()],
                "applied_ms": now_ms,
            }
            reply = _text(
                await self._apply(
                    keys=script_keys,
                    args=[
                        result.match_id,
                        a0,
                        a1,
                        "" if raw0 is None else _text(raw0),
                        "" if raw1 is None else _text(raw1),
                        new0.dumps(),
                        new1.dumps(),
                        new0.score,
                        new1.score,
                        json.dumps(update, separators=(",", ":")),
                    ],
                )
            )
            if reply == "OK":
                return "applied"
            if reply == "DONE":
                return "done"
        raise RuntimeError(f"the ratings of match {result.match_id} kept moving; the sweep rates it later")
