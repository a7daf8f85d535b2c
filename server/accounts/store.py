"""Accounts in Redis: names, password hashes, sessions, failed logins, each account's matches.

Keys (server.storage.keys, hash tag ``{accounts}``):

* ``accounts:{accounts}:names`` -- HASH: name key -> account id. The name key is the name in NFKC,
  casefolded (and NFKC again): ``Ann``, ``ann`` and a full-width ``Ann`` are one account.
* ``accounts:{accounts}:acct:<id>`` -- HASH ``name`` (as registered), ``hash`` (argon2id, never
  sent anywhere), ``created_ms``.
* ``...:acct:<id>:sessions`` -- HASH session id -> expiry (ms): the sessions not revoked.
* ``...:acct:<id>:matches`` -- ZSET of the matches it sat in, by creation time.
* ``accounts:{accounts}:fail:<sha256 of the name key>`` -- failed logins in the window (expires).

Every write is one command or one script that is safe to run twice (the Redis client retries).
"""

from __future__ import annotations

import hashlib
import unicodedata
from dataclasses import dataclass
from typing import Any

import redis.asyncio as aioredis

from server.storage import keys

REGISTER_LUA = """
-- KEYS[1] names, KEYS[2] the new account; ARGV[1] name key, ARGV[2] account id, ARGV[3] name,
-- ARGV[4] hash, ARGV[5] created ms. The id that has the name (this one if it was free).
local have = redis.call('HGET', KEYS[1], ARGV[1])
if have then return have end
redis.call('HSET', KEYS[2], 'name', ARGV[3], 'hash', ARGV[4], 'created_ms', ARGV[5])
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return ARGV[2]
"""

OPEN_SESSION_LUA = """
-- KEYS[1] sessions; ARGV[1] session id, ARGV[2] its expiry (ms), ARGV[3] now (ms), ARGV[4] most
-- sessions kept. Expired sessions go; beyond the most, the soonest to expire go first.
local all = redis.call('HGETALL', KEYS[1])
local live = {}
for i = 1, #all, 2 do
  local at = tonumber(all[i + 1])
  if at == nil or at <= tonumber(ARGV[3]) then
    redis.call('HDEL', KEYS[1], all[i])
  else
    live[#live + 1] = {all[i], at}
  end
end
table.sort(live, function(a, b) return a[2] < b[2] end)
local over = #live - tonumber(ARGV[4]) + 1
for i = 1, over do redis.call('HDEL', KEYS[1], live[i][1]) end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
local last = tonumber(ARGV[2])
for _, s in ipairs(live) do if s[2] > last then last = s[2] end end
redis.call('PEXPIREAT', KEYS[1], last)
return 1
"""

FAIL_LUA = """
-- KEYS[1] the name's failure count; ARGV[1] the window (ms). The count, this failure included.
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return n
"""

MAX_SESSIONS = 32
"""Session tokens an account keeps at once; a new login beyond it revokes the one expiring first."""


def name_key(name: str) -> str:
    """What makes two account names the same: NFKC, casefolded (Unicode's NFKC_Casefold, near enough)."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


def name_digest(name: str) -> str:
    return hashlib.sha256(name_key(name).encode()).hexdigest()


def _text(value: object) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


@dataclass(frozen=True, slots=True)
class Account:
    account_id: str
    name: str
    created_ms: int


@dataclass(frozen=True, slots=True)
class Credentials:
    """An account and its stored password hash (for the check at login only)."""

    account: Account
    hash: str


class AccountStore:
    def __init__(self, client: aioredis.Redis) -> None:
        self._redis = client
        self._register = client.register_script(REGISTER_LUA)
        self._open = client.register_script(OPEN_SESSION_LUA)
        self._fail = client.register_script(FAIL_LUA)

    async def register(self, account_id: str, name: str, password_hash: str, created_ms: int) -> bool:
        """Make the account; False if the name (its key) is taken."""
        got = await self._register(
            keys=[keys.ACCOUNT_NAMES, keys.account_key(account_id)],
            args=[name_key(name), account_id, name, password_hash, created_ms],
        )
        return _text(got) == account_id

    async def id_of(self, name: str) -> str | None:
        raw = await self._redis.hget(keys.ACCOUNT_NAMES, name_key(name))
        return None if raw is None else _text(raw)

    async def get(self, account_id: str) -> Account | None:
        raw = await self._redis.hmget(keys.account_key(account_id), "name", "created_ms")
        if raw[0] is None:
            return None
        return Account(account_id, _text(raw[0]), int(raw[1] or 0))

    async def names(self, account_ids: list[str]) -> dict[str, str]:
        """The names of these accounts (one pipelined round trip)."""
        pipe = self._redis.pipeline(transaction=False)
        for account_id in account_ids:
            pipe.hget(keys.account_key(account_id), "name")
        got = await pipe.execute()
        return {a: _text(n) for a, n in zip(account_ids, got, strict=True) if n is not None}

    async def credentials(self, name: str) -> Credentials | None:
        account_id = await self.id_of(name)
        if account_id is None:
            return None
        raw = await self._redis.hmget(keys.account_key(account_id), "name", "hash", "created_ms")
        if raw[0] is None or raw[1] is None:
            return None
        return Credentials(Account(account_id, _text(raw[0]), int(raw[2] or 0)), _text(raw[1]))

    async def set_hash(self, account_id: str, password_hash: str) -> None:
        await self._redis.hset(keys.account_key(account_id), "hash", password_hash)

    # ------------------------------------------------------------ sessions

    async def open_session(self, account_id: str, session_id: str, expires_ms: int, now_ms: int) -> None:
        await self._open(
            keys=[keys.account_sessions_key(account_id)], args=[session_id, expires_ms, now_ms, MAX_SESSIONS]
        )

    async def session_alive(self, account_id: str, session_id: str, now_ms: int) -> bool:
        raw = await self._redis.hget(keys.account_sessions_key(account_id), session_id)
        return raw is not None and int(raw) > now_ms

    async def revoke(self, account_id: str, session_id: str | None) -> None:
        """Revoke one session, or every one (``None``)."""
        key = keys.account_sessions_key(account_id)
        if session_id is None:
            await self._redis.delete(key)
        else:
            await self._redis.hdel(key, session_id)

    # ------------------------------------------------------------ failed logins

    @staticmethod
    def _failure_keys(name: str, address: str) -> tuple[str, str]:
        """The count of one name's failed logins from one address, and from every address."""
        whole = name_digest(name)
        pair = hashlib.sha256(f"{whole}\0{address}".encode()).hexdigest()
        return keys.login_failures_key(pair), keys.login_failures_key(whole)

    async def failures(self, name: str, address: str) -> tuple[int, int]:
        """Failed logins of ``name`` in the window: from ``address``, and from every address."""
        raw = await self._redis.mget(list(self._failure_keys(name, address)))
        from_here, everywhere = (0 if r is None else int(r) for r in raw)
        return from_here, everywhere

    async def failed(self, name: str, address: str, window_ms: int) -> None:
        for key in self._failure_keys(name, address):
            await self._fail(keys=[key], args=[window_ms])

    async def clear_failures(self, name: str, address: str) -> None:
        """A login that succeeded clears its own address's count (not the others')."""
        await self._redis.delete(self._failure_keys(name, address)[0])

    # ------------------------------------------------------------ matches

    async def note_match(self, account_id: str, match_id: str, created_ms: int) -> None:
        await self._redis.zadd(keys.account_matches_key(account_id), {match_id: created_ms}, nx=True)

    async def forget_match(self, account_id: str, match_id: str) -> None:
        await self._redis.zrem(keys.account_matches_key(account_id), match_id)

    async def matches(
        self, account_id: str, limit: int, before_ms: int | None, before_id: str | None
    ) -> list[tuple[str, int]]:
        """(match id, created ms) newest first, strictly after the cursor (``before_ms`` and
        ``before_id`` as ``list_matches`` pages), at most ``limit``; a little more may be read."""
        key = keys.account_matches_key(account_id)
        top: str | int = "+inf" if before_ms is None else before_ms if before_id is not None else f"({before_ms}"
        out: list[tuple[str, int]] = []
        offset = 0
        while len(out) < limit:
            rows: list[Any] = await self._redis.zrevrangebyscore(
                key, top, "-inf", start=offset, num=limit + 1, withscores=True
            )
            if not rows:
                break
            offset += len(rows)
            for raw_id, score in rows:
                match_id, ms = _text(raw_id), int(score)
                if before_ms is not None and before_id is not None and ms == before_ms and match_id >= before_id:
                    continue  # the cursor's own millisecond, at or before its row
                out.append((match_id, ms))
                if len(out) >= limit:
                    break
        return out
