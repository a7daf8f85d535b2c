"""Match metadata, seats and their connections, in Redis.

Per match (same hash tag as the log): ``match:{id}:meta``, a hash with
``status`` (waiting | live | finished), ``created_ms``, ``spectators``
(1/0), ``spectator_delay`` (entries), ``quick`` (1/0), ``opponent`` (``bot``
or empty), ``format`` (the match's format; absent in matches made before formats: ``current``),
``rated`` (1: a rated match, server.accounts) and the account that took each seat logged in
(``acct0``/``acct1``; absent: a guest), the decks (msgpack), the players' display names, the request id
that took each seat (``req0``/``req1``), the connection holding each seat
now (``conn0``/``conn1``) and, while the match waits, when a seat's connection
let go of it (``left0``/``left1``: server.lobby.expiry).  The log stays the only truth about the duel; the
meta hash says who sits where and helps the lobby list matches.

Every write a client's request causes is one script that is safe to run
twice (a retry after a lost reply, by the server's Redis client or by the
client with the same request id): taking a seat records the request id that
took it, so the same request finds its seat again and any other finds the
seat taken.  See :mod:`server.lobby.quick` for the quick-match queue.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Literal

import msgpack
import redis.asyncio as aioredis

from protocol.codec import pack
from protocol.names import shown
from server.match.clocks import ClockSettings
from server.storage import keys, resp

WAITING = "waiting"
LIVE = "live"
FINISHED = "finished"

CREATE_LUA = """
-- KEYS[1] meta; ARGV[1] request id, ARGV[2..] field/value pairs
local mine = redis.call('HGET', KEYS[1], 'req0')
if mine then
  if mine == ARGV[1] then return 'MINE' end
  return 'TAKEN'
end
if redis.call('EXISTS', KEYS[1]) == 1 then return 'TAKEN' end
local fields = {}
for i = 2, #ARGV do fields[#fields + 1] = ARGV[i] end
redis.call('HSET', KEYS[1], 'req0', ARGV[1], 'seat0', '1', unpack(fields))
return 'OK'
"""

JOIN_LUA = """
-- KEYS[1] meta; ARGV[1] request id, ARGV[2] deck (msgpack), ARGV[3] display name, ARGV[4] bell
-- channel (a 'presence' bell: watchers learn the joiner's name before the duel's first entry),
-- ARGV[5] the joiner's account ('': a guest), ARGV[6] its Side Deck (msgpack)
if redis.call('EXISTS', KEYS[1]) == 0 then return 'NOTFOUND' end
local taken = redis.call('HGET', KEYS[1], 'req1')
if taken then
  if taken == ARGV[1] then return 'MINE' end
  return 'FULL'
end
if redis.call('HGET', KEYS[1], 'status') ~= 'waiting' then return 'FULL' end
redis.call('HSET', KEYS[1], 'req1', ARGV[1], 'seat1', '1', 'deck1', ARGV[2], 'name1', ARGV[3], 'side1', ARGV[6])
if ARGV[5] ~= '' then redis.call('HSET', KEYS[1], 'acct1', ARGV[5]) end
redis.call('PUBLISH', ARGV[4], 'presence')
return 'OK'
"""

HOLD_LUA = """
-- KEYS[1] meta; ARGV[1] seat, ARGV[2] connection id, ARGV[3] bell channel
local before = redis.call('HGET', KEYS[1], 'conn' .. ARGV[1])
redis.call('HSET', KEYS[1], 'conn' .. ARGV[1], ARGV[2])
redis.call('PUBLISH', ARGV[3], 'hold:' .. ARGV[1] .. ':' .. ARGV[2])
return before or ''
"""

RELEASE_LUA = """
-- KEYS[1] meta; ARGV[1] seat, ARGV[2] connection id, ARGV[3] bell channel, ARGV[4] now ms
if redis.call('HGET', KEYS[1], 'conn' .. ARGV[1]) == ARGV[2] then
  redis.call('HDEL', KEYS[1], 'conn' .. ARGV[1])
  if redis.call('HGET', KEYS[1], 'status') == 'waiting' then
    redis.call('HSET', KEYS[1], 'left' .. ARGV[1], ARGV[4])
  end
  redis.call('PUBLISH', ARGV[3], 'presence')
  return 1
end
return 0
"""

FINISH_LUA = """
-- KEYS[1] meta, KEYS[2] snapshots, KEYS[3] action ids; ARGV[1] now ms, ARGV[2] seconds the
-- action ids are kept, ARGV[3] who records it ('' = nobody in particular), ARGV[4..] field/value
-- pairs. Once only: the first process to see the end records it (1), the others find it recorded
-- (0); the one that recorded it gets 1 again if it runs it again (a retry after a lost reply: it
-- still has the end's follow-up to do, the seal). A finished match needs one snapshot
-- (the newest: loading its final position; until its log is sealed, server.storage.store) and its action
-- ids only while a client may still resend its last action; the rest is memory a finished duel
-- need not hold (bench/redis_memory.py).
if redis.call('HGET', KEYS[1], 'status') == 'finished' then
  if ARGV[3] ~= '' and redis.call('HGET', KEYS[1], 'finished_by') == ARGV[3] then return 1 end
  return 0
end
local fields = {}
for i = 4, #ARGV do fields[#fields + 1] = ARGV[i] end
redis.call('HSET', KEYS[1], 'status', 'finished', 'finished_ms', ARGV[1], 'finished_by', ARGV[3], unpack(fields))
local newest = -1
local seqs = redis.call('HKEYS', KEYS[2])
for _, s in ipairs(seqs) do
  local n = tonumber(s)
  if n ~= nil and n > newest then newest = n end
end
for _, s in ipairs(seqs) do
  if tonumber(s) ~= newest then redis.call('HDEL', KEYS[2], s) end
end
redis.call('EXPIRE', KEYS[3], ARGV[2])
return 1
"""

EXPIRE_LUA = """
-- KEYS: the match's keys, meta first; ARGV[1] seat 0 let go before this (ms), ARGV[2] created
-- before this (ms: the time to live; 0: none), ARGV[3] a holder of seat 0 whose process is dead
-- ('': none), ARGV[4] bell channel. A match nobody joined is deleted, and why returned, if its
-- creator let go of seat 0 before ARGV[1] (or its holder is the dead one and it was created
-- before ARGV[1]), or it was created before ARGV[2]; '' otherwise. Atomic with a join: a match
-- whose seat 1 was taken is never deleted here.
if redis.call('HGET', KEYS[1], 'status') ~= 'waiting' or redis.call('HEXISTS', KEYS[1], 'req1') == 1 then
  return ''
end
local created = tonumber(redis.call('HGET', KEYS[1], 'created_ms') or '0')
local holder = redis.call('HGET', KEYS[1], 'conn0')
local why = ''
if created < tonumber(ARGV[2]) then
  why = 'ttl'
elseif not holder then
  if tonumber(redis.call('HGET', KEYS[1], 'left0') or created) < tonumber(ARGV[1]) then why = 'left' end
elseif holder == ARGV[3] and created < tonumber(ARGV[1]) then
  why = 'left'
end
if why == '' then return '' end
redis.call('DEL', unpack(KEYS))
redis.call('PUBLISH', ARGV[4], 'expired')
return why
"""

ACTION_IDS_KEPT_S = 24 * 3600
"""How long the action ids of a finished match are kept: a resend of an action of a finished
duel within this time is still answered ``accepted`` with its seq (PROTOCOL.md section 3)."""

CreateOutcome = Literal["ok", "mine", "taken"]
JoinOutcome = Literal["ok", "mine", "full", "notfound"]


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
    names: tuple[str, str] = ("", "")
    opponent: str = ""
    bot_level: str = ""  # how the server's bot plays (protocol.messages.BOT_LEVELS; "": the default)
    holders: tuple[str, str] = ("", "")  # connection ids holding the seats ("": nobody)
    format: str = "current"  # the match's format (docs/formats.md)
    result: dict[str, Any] | None = None  # finished: {winner, reason, length, turns, finished_ms}
    rated: bool = False  # a rated match (server.accounts): both seats taken by accounts
    accounts: tuple[str, str] = ("", "")  # the account that took each seat ("": a guest)
    # a match of several duels (server.match.series): its duels, the Side Decks, how long siding
    # lasts, whether clocks run per duel or over the match; a duel N > 1 names its match (``parent``)
    best_of: int = 1
    sides: tuple[list[int], list[int]] = ([], [])
    side_ms: int = 180_000
    clock_scope: str = "duel"
    parent: str = ""
    duel: int = 1
    match_result: dict[str, Any] | None = None  # a match of several, over: {score, winner, reason}

    @property
    def match_id_of_series(self) -> str:
        """The match this duel belongs to (itself, for a match's first or only duel)."""
        return self.parent or self.match_id

    def public(self, seq: int) -> dict[str, Any]:
        """The lobby row; ``seq`` is the log's length, shown as far as a
        spectator may see it (a delayed match's seq is shown delayed)."""
        row = {
            "match_id": self.match_id,
            "status": self.status,
            "seq": seq if self.status == FINISHED else max(0, seq - self.spectator_delay),
            "spectators": self.spectators,
            "created_ms": self.created_ms,
            "spectator_delay": self.spectator_delay,
            "players": list(self.names),
            "format": self.format,
        }
        if self.rated:
            row["rated"] = True
        if self.result is not None:
            row.update(self.result)
        if self.best_of > 1:
            row["best_of"] = self.best_of
            row["duel"] = self.duel
            row["series"] = self.match_id_of_series
            if self.match_result is not None:
                row["match_result"] = self.match_result
        return row


def _result(f: dict[str, Any]) -> dict[str, Any] | None:
    if _text(f.get("status", b"")) != FINISHED or "finished_ms" not in f:
        return None
    winner = _text(f.get("winner", b""))
    return {
        "winner": int(winner) if winner in ("0", "1") else (winner or None),
        "end_reason": _text(f.get("end_reason", b"")),
        "length": int(f.get("length", b"0")),
        "turns": int(f.get("turns", b"0")),
        "finished_ms": int(f["finished_ms"]),
    }


def _match_result(blob: object) -> dict[str, Any] | None:
    if not isinstance(blob, bytes):
        return None
    raw = msgpack.unpackb(blob, raw=False)
    return raw if isinstance(raw, dict) else None


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
    def __init__(self, client: aioredis.Redis, pipe: resp.Pipe | None = None) -> None:
        """``pipe``: the lean connection (server.storage.resp) for the scripts and the reads every
        duel makes, when the server is one Redis."""
        self._redis = client
        self._pipe = pipe
        register = resp.script_registrar(client, pipe)
        self._create = register(CREATE_LUA)
        self._join = register(JOIN_LUA)
        self._hold = register(HOLD_LUA)
        self._release = register(RELEASE_LUA)
        self._finish = register(FINISH_LUA)
        self._expire = register(EXPIRE_LUA)

    async def _cmd(self, *args: bytes | str | int) -> Any:
        return await resp.command(self._redis, self._pipe, *args)

    async def create(
        self,
        match_id: str,
        request_id: str,
        deck0: list[int],
        *,
        spectators: bool,
        quick: bool,
        name: str = "",
        clock: ClockSettings | None = None,
        spectator_delay: int = 0,
        opponent: str = "",
        bot_level: str = "",
        created_ms: int | None = None,
        fmt: str = "current",
        rated: bool = False,
        account: str = "",
        series: dict[str, Any] | None = None,
    ) -> CreateOutcome:
        """Create the match with seat 0 taken by ``request_id``: ``ok``; ``mine`` when this
        request created it before (a retry); ``taken`` when the id belongs to another match."""
        now = _now_ms() if created_ms is None else created_ms
        fields: dict[str, Any] = {
            "status": WAITING,
            "created_ms": now,
            "spectators": int(spectators),
            "spectator_delay": spectator_delay,
            "quick": int(quick),
            "deck0": pack(deck0),
            "name0": name,
            "opponent": opponent,
            "clock": pack(None if clock is None else clock.to_action()),
            "format": fmt,
        }
        if bot_level:
            fields["bot_level"] = bot_level
        if rated:
            fields["rated"] = 1
        if account:
            fields["acct0"] = account
        if series is not None:  # a match of several duels: best_of, side0, side_ms, clock_scope, parent, duel
            fields.update({k: pack(v) if isinstance(v, list) else v for k, v in series.items()})
        args: list[Any] = [request_id]
        for k, v in fields.items():
            args.extend((k, v))
        reply = _text(await self._create(keys=[keys.meta_key(match_id)], args=args))
        if reply in ("OK", "MINE"):
            await self._cmd("ZADD", keys.LOBBY_MATCHES, "NX", now, match_id)
            await self._cmd("ZADD", keys.LOBBY_WAITING, "NX", now, match_id)
        return "ok" if reply == "OK" else "mine" if reply == "MINE" else "taken"

    async def join(
        self,
        match_id: str,
        request_id: str,
        deck1: list[int],
        name: str = "",
        account: str = "",
        side1: list[int] | None = None,
    ) -> JoinOutcome:
        """Take seat 1 for ``request_id`` (as ``account``, if logged in; ``side1``: its Side Deck):
        ``ok``, ``mine`` (taken by this request before), ``full`` (someone else has it, or the
        match is not waiting), ``notfound``."""
        bell = keys.bell_channel(match_id)
        args = [request_id, pack(deck1), name, bell, account, pack(side1 or [])]
        reply = _text(await self._join(keys=[keys.meta_key(match_id)], args=args))
        return {"OK": "ok", "MINE": "mine", "FULL": "full"}.get(reply, "notfound")  # type: ignore[return-value]

    async def get(self, match_id: str) -> MatchInfo | None:
        key = keys.meta_key(match_id)
        raw: dict[Any, Any]
        if self._pipe is None:
            raw = await self._redis.hgetall(key)
        else:
            raw = resp.pairs(await self._pipe.call("HGETALL", key))
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
            names=(shown(_text(f.get("name0", b""))), shown(_text(f.get("name1", b"")))),
            opponent=_text(f.get("opponent", b"")),
            bot_level=_text(f.get("bot_level", b"")),
            holders=(_text(f.get("conn0", b"")), _text(f.get("conn1", b""))),
            result=_result(f),
            format=_text(f.get("format", b"current")),
            rated=f.get("rated", b"0") == b"1",
            accounts=(_text(f.get("acct0", b"")), _text(f.get("acct1", b""))),
            best_of=int(f.get("best_of", b"1")),
            sides=(deck("side0") or [], deck("side1") or []),
            side_ms=int(f.get("side_ms", b"180000")),
            clock_scope=_text(f.get("clock_scope", b"duel")),
            parent=_text(f.get("parent", b"")),
            duel=int(f.get("duel", b"1")),
            match_result=_match_result(f.get("match_result")),
        )

    async def status(self, match_id: str) -> str | None:
        """The match's status (``waiting``, ``live``, ``finished``), None if there is no such match."""
        raw = await self._cmd("HGET", keys.meta_key(match_id), "status")
        return None if raw is None else _text(raw)

    async def set_status(self, match_id: str, status: str) -> None:
        await self._cmd("HSET", keys.meta_key(match_id), "status", status)

    async def set_match_result(self, match_id: str, result: dict[str, Any]) -> None:
        """A match of several duels is over: its result on its first duel's meta (its lobby row)."""
        await self._cmd("HSET", keys.meta_key(match_id), "match_result", pack(result))

    async def finish(
        self,
        match_id: str,
        *,
        winner: int | str | None,
        reason: str,
        length: int,
        turns: int,
        by: str = "",
        finished_ms: int | None = None,
    ) -> bool:
        """Record the result (once; True for the first, and again for the same ``by``: a retry
        whose first reply was lost) and move the match from the live index to the history. Two
        steps, because the meta is in the match's hash slot and the indexes in the lobby's
        (Redis Cluster); moving it is idempotent, so every process that sees the end does it.
        ``finished_ms``: when it ended, if not now (an imported match: its last entry's time)."""
        fields = {
            "winner": "" if winner is None else str(winner),
            "end_reason": reason,
            "length": length,
            "turns": turns,
        }
        args: list[Any] = [_now_ms() if finished_ms is None else finished_ms, ACTION_IDS_KEPT_S, by]
        for k, v in fields.items():
            args.extend((k, v))
        match_keys = [keys.meta_key(match_id), keys.snapshots_key(match_id), keys.actions_key(match_id)]
        first = bool(await self._finish(keys=match_keys, args=args))
        finished_ms = int(await self._cmd("HGET", keys.meta_key(match_id), "finished_ms") or _now_ms())
        await self._cmd("ZADD", keys.LOBBY_FINISHED, finished_ms, match_id)
        await self._cmd("ZREM", keys.LOBBY_MATCHES, match_id)
        return first

    async def hold(self, match_id: str, seat: int, conn: str) -> str:
        """``conn`` now holds ``seat``; tell every process (which closes an older holder).
        Returns the connection that held it before ("" if none)."""
        before = await self._hold(keys=[keys.meta_key(match_id)], args=[seat, conn, keys.bell_channel(match_id)])
        return _text(before)

    async def release(self, match_id: str, seat: int, conn: str) -> None:
        """``conn`` lets go of ``seat`` (only if it still holds it)."""
        await self._release(keys=[keys.meta_key(match_id)], args=[seat, conn, keys.bell_channel(match_id), _now_ms()])

    async def waiting_before(self, before_ms: int, start: int, num: int) -> list[str]:
        """Matches on the waiting index created before ``before_ms``, oldest first, from the
        ``start``-th. The index may still hold a match that has started or is gone (it is
        tidied by ``unlist_waiting``)."""
        rows = await self._redis.zrangebyscore(keys.LOBBY_WAITING, "-inf", f"({before_ms}", start=start, num=num)
        return [_text(raw_id) for raw_id in rows]

    async def waiting_state(self, match_ids: list[str]) -> list[tuple[str | None, bool, str]]:
        """Per match: its status (None: no such match), whether seat 1 was taken, and the
        connection holding seat 0 ("": none). One pipelined round trip."""
        pipe = self._redis.pipeline(transaction=False)
        for match_id in match_ids:
            pipe.hmget(keys.meta_key(match_id), "status", "req1", "conn0")
        out: list[tuple[str | None, bool, str]] = []
        for status, req1, conn0 in await pipe.execute():
            out.append((None if status is None else _text(status), req1 is not None, _text(conn0 or b"")))
        return out

    async def expire(self, match_id: str, left_before_ms: int, created_before_ms: int, dead_holder: str) -> str:
        """Delete a match nobody joined whose creator left (or whose time to live ran out):
        EXPIRE_LUA; why it expired (``left``, ``ttl``), or "" (it did not)."""
        meta = keys.meta_key(match_id)
        why = _text(
            await self._expire(
                keys=[meta, *(k for k in keys.match_keys(match_id) if k != meta)],
                args=[left_before_ms, created_before_ms, dead_holder, keys.bell_channel(match_id)],
            )
        )
        if why:
            await self.unlist_waiting(match_id, gone=True)
        return why

    async def unlist_waiting(self, match_id: str, *, gone: bool) -> None:
        """Take a match off the waiting index (it started, or is ``gone``: off the lobby too)."""
        await self._cmd("ZREM", keys.LOBBY_WAITING, match_id)
        if gone:
            await self._cmd("ZREM", keys.LOBBY_MATCHES, match_id)

    async def process_alive(self, process_id: str, within_ms: int = 10_000) -> bool:
        """Has server process ``process_id`` sent a heartbeat lately (server.match.fanout)?"""
        score = await self._redis.zscore(keys.PROCESSES, process_id)
        return score is not None and score >= _now_ms() - within_ms

    async def holders(self, match_id: str) -> tuple[tuple[str, str], tuple[str, str]]:
        """(the connections holding the seats, the players' names)."""
        key, names = keys.meta_key(match_id), ("conn0", "conn1", "name0", "name1")
        raw = await self._cmd("HMGET", key, *names)
        t = [_text(x or b"") for x in raw]
        return (t[0], t[1]), (shown(t[2]), shown(t[3]))

    async def listing(
        self, status: str, limit: int = 50, before_ms: int | None = None, before_id: str | None = None
    ) -> list[MatchInfo]:
        """Matches newest first: "live" (waiting or running, by creation time) or "finished"
        (the history, by finish time); ``before_ms`` / ``before_id`` page back from a row
        (ties in time are ordered by id, descending, as Redis orders equal scores)."""
        out, _cursor = await self.page(status, limit, before_ms, before_id)
        return out

    async def page(
        self, status: str, limit: int = 50, before_ms: int | None = None, before_id: str | None = None
    ) -> tuple[list[MatchInfo], tuple[int, str] | None]:
        """:meth:`listing`, and the cursor to page on from: the index's score and id of the last
        row looked at (None: no row), to give as ``before_ms`` and ``before_id``. A cursor from
        the index itself, not from the matches' data, always moves on: a page never comes back."""
        index = keys.LOBBY_FINISHED if status == FINISHED else keys.LOBBY_MATCHES
        top: str | int = "+inf" if before_ms is None else before_ms if before_id is not None else f"({before_ms}"
        out: list[MatchInfo] = []
        cursor: tuple[int, str] | None = None
        offset = 0
        while len(out) < limit:
            rows = await self._redis.zrevrangebyscore(index, top, "-inf", start=offset, num=limit + 1, withscores=True)
            if not rows:
                break
            offset += len(rows)
            for row in rows:
                raw_id, score = row[0], float(row[1])
                match_id = _text(raw_id)
                if (
                    before_ms is not None
                    and before_id is not None
                    and int(score) == before_ms
                    and match_id >= before_id
                ):
                    continue  # the same millisecond, at or before the cursor's row
                cursor = (int(score), match_id)
                info = await self.get(match_id)
                if info is not None and (info.status == FINISHED) == (status == FINISHED):
                    out.append(info)
                if len(out) >= limit:
                    break
        return out, cursor
