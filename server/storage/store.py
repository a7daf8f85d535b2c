"""The event store: one Redis stream per match, appended only at the next seq.

The append is one Lua script (EVALSHA, falling back to EVAL; Redis 6.2 has no
Functions) that does every read and check first and writes last, because Lua
scripts have no rollback:

1. if the client action key is already recorded: return ``DUP <seq>`` and the
   fingerprint of the action it was recorded for;
2. if the stream's last seq + 1 is not the entry's seq: return ``CONFLICT <cur>`` (its length
   tells, unless a seal shortened it: then its top is read);
3. only then ``XADD <seq>-0``, record the action key (``<seq>:<fingerprint>``),
   ``PUBLISH`` the seq.

Two writers (tasks or processes) can therefore never fork a log, and a
repeated client action id appends nothing and returns the original seq.
The explicit stream IDs are a second guard: Redis refuses an ID that is not
above the stream's top.

A finished match's log is **sealed** (:meth:`RedisEventStore.seal`): every entry but the last
moves, byte for byte, into one compressed segment (``match:{ID}:sealed``) and the stream keeps
the last one, so that the log's top, the append's checks and the bell stay as they were. Every
read here finds the entries before the stream's first in the segment, so no reader can tell a
sealed log from a plain one; a finished duel keeps about a quarter of the bytes
(docs/performance-log/2026-11-24-13-finished-logs-sealed.md).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import zlib
from collections.abc import Awaitable
from dataclasses import dataclass
from typing import Any, Literal, Protocol

import msgpack
import redis.asyncio as aioredis

from server.storage import keys, resp
from server.storage.entry import LogEntry

MAX_ENTRY_BYTES = 512 * 1024
READ_BATCH = 500

ENTRY_FIELDS = len(LogEntry(seq=1, seat=None, action={}, facts=[], state_hash="").to_fields())
"""Stream fields of a log entry: the append script passes them to ``XADD`` one by one."""

APPEND_LUA = (
    """
-- KEYS[1] log stream, KEYS[2] action-id hash, KEYS[3] snapshots hash
-- ARGV[1] seq of the new entry, ARGV[2] action key ('' = none),
-- ARGV[3] bell channel, ARGV[4] fingerprint of the action,
-- ARGV[5] seq of a snapshot to keep ('' = none), ARGV[6] its bytes, ARGV[7..] stream field/value pairs
local akey = ARGV[2]
if akey ~= '' then
  local prev = redis.call('HGET', KEYS[2], akey)
  if prev then
    local seq, fp = string.match(prev, '^(%d+):?(.*)$')
    return {'DUP', tonumber(seq), fp}
  end
end
local seq = tonumber(ARGV[1])
local function top()
  local last = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)
  if #last == 0 then return 0 end
  return tonumber(string.match(last[1][1], '^(%d+)'))
end
-- the stream holds entries 1 .. top (a seal leaves its top alone): unless sealed, its length is
-- its top, and a length of seq - 1 is the next entry's place (XADD refuses an ID at or below
-- the top, which catches a sealed log). Else its top is read (XREVRANGE: ~10 us more in Redis)
if redis.call('XLEN', KEYS[1]) ~= seq - 1 then
  local cur = top()
  if seq ~= cur + 1 then return {'CONFLICT', cur} end
end
-- the entry's fields named one by one (begin_append passes ENTRY_FIELDS pairs): no table built
-- and unpacked (~4 us less in Redis)
local added = redis.pcall('XADD', KEYS[1], ARGV[1] .. '-0', """
    + ", ".join(f"ARGV[{i}]" for i in range(7, 7 + 2 * ENTRY_FIELDS))
    + """)
if type(added) == 'table' and added.err then
  local cur = top()
  if cur >= seq then return {'CONFLICT', cur} end
  return added
end
if akey ~= '' then redis.call('HSET', KEYS[2], akey, ARGV[1] .. ':' .. ARGV[4]) end
if ARGV[5] ~= '' then redis.call('HSET', KEYS[3], ARGV[5], ARGV[6]) end
redis.call('PUBLISH', ARGV[3], ARGV[1])
return {'OK', seq}
"""
)


SEAL_LUA = """
-- KEYS[1] log stream, KEYS[2] sealed segment, KEYS[3] snapshots, KEYS[4] the new stream, built aside
-- ARGV[1] the log's top seq when it was read, ARGV[2] the segment (entries 1 .. top - 1),
-- ARGV[3] '1': drop the snapshots too (a short log folds from the segment as fast)
-- Lua has no rollback: the log is replaced last, in one RENAME, once everything else is written,
-- so a script stopped by an error at any point leaves the log whole.
if redis.call('EXISTS', KEYS[2]) == 1 then return {'SEALED', 0} end
local top = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)
local cur = 0
if #top > 0 then cur = tonumber(string.match(top[1][1], '^(%d+)')) end
-- every entry 1 .. top still in the stream (seqs are 1, 2, 3 ...), and no entry since
if cur ~= tonumber(ARGV[1]) or redis.call('XLEN', KEYS[1]) ~= cur then return {'MOVED', cur} end
-- the new stream: the last entry alone, then dumped and restored if this Redis allows it (a new
-- stream node is allocated at 4 KiB up front, a restored one at its size)
redis.call('DEL', KEYS[4])
redis.call('XADD', KEYS[4], top[1][1], unpack(top[1][2]))
local packed = redis.pcall('DUMP', KEYS[4])
local compact = 0
if type(packed) == 'string' then
  local again = redis.pcall('RESTORE', KEYS[4], 0, packed, 'REPLACE')
  if type(again) == 'table' and again.ok then compact = 1 end
end
redis.call('SET', KEYS[2], ARGV[2])
redis.call('RENAME', KEYS[4], KEYS[1])
if ARGV[3] == '1' then redis.call('DEL', KEYS[3]) end
return {'OK', cur, compact}
"""

SEGMENT_MAGIC = b"DUELSEG1"
"""The first bytes of a sealed segment; then a zlib stream (RFC 1950) of one msgpack array
holding each entry's stream fields as a flat ``[name, value, ...]`` array of bytes."""

SEAL_LEVEL = 6
"""zlib's level: 0.6 ms for a 300-entry duel, 4.7x smaller (level 1: 0.3 ms, 3.9x)."""

SNAPSHOTS_KEPT_FROM = 1000
"""A sealed log of fewer entries keeps no snapshot: its final position folds from the segment
faster than the snapshot loads (3.4 against 5.1 ms for ~200 entries, bench/redis_memory.py),
and the snapshot was an eighth of what such a finished duel kept."""


class LogGapError(RuntimeError):
    """Entries of a log are missing: neither the stream nor a sealed segment holds them."""


@dataclass(frozen=True, slots=True)
class SealResult:
    """``ok``: entries 1 .. ``seq`` - 1 are in the segment now. ``sealed``: it was sealed
    before. ``moved``: the log changed while it was read (its top is ``seq``); nothing done.
    ``empty``: a log of fewer than two entries (nothing to seal)."""

    status: Literal["ok", "sealed", "moved", "empty"]
    seq: int
    raw_bytes: int = 0  # the entries' stream fields, packed
    sealed_bytes: int = 0  # the segment
    compact: bool = False  # the stream left was dumped and restored (this Redis allows DUMP/RESTORE)


@dataclass(frozen=True, slots=True)
class AppendResult:
    """``ok``: appended at ``seq``.  ``duplicate``: the action key was appended
    earlier at ``seq``, for the action with ``fingerprint``.  ``conflict``: the
    log's last seq is ``seq``."""

    status: Literal["ok", "duplicate", "conflict"]
    seq: int
    fingerprint: str = ""


class EventStore(Protocol):
    """What the match service needs from a log store."""

    async def append(
        self, match_id: str, entry: LogEntry, action_key: str = "", fingerprint: str = ""
    ) -> AppendResult: ...

    def begin_append(
        self,
        match_id: str,
        entry: LogEntry,
        action_key: str = "",
        fingerprint: str = "",
        snapshot: tuple[int, bytes] | None = None,
    ) -> Awaitable[AppendResult]: ...

    async def read(self, match_id: str, after: int = 0, limit: int | None = None) -> list[LogEntry]: ...

    async def last_seq(self, match_id: str) -> int: ...

    async def action_outcome(self, match_id: str, action_key: str) -> tuple[int, str] | None: ...


def action_key(seat: int, client_action_id: str) -> str:
    """Client action ids are scoped to the seat that sent them."""
    return f"{seat}:{client_action_id}"


def fingerprint(action: object) -> str:
    """What identifies an action as a client sent it (a retry sends the same): a digest of
    its canonical JSON, so that an id reused for a *different* action can be refused. Kept for
    the actions seen last, by their msgpack bytes (most actions are a few common ones: pass,
    next phase; the JSON and its digest were 3 % of the server's CPU at a human pace)."""
    try:
        key = msgpack.packb(action)
    except (TypeError, ValueError, OverflowError):
        return _fingerprint(action)
    got = _FINGERPRINTS.get(key)
    if got is None:
        if len(_FINGERPRINTS) >= 4096:
            _FINGERPRINTS.clear()
        got = _FINGERPRINTS[key] = _fingerprint(action)
    return got


_FINGERPRINTS: dict[bytes, str] = {}


def _fingerprint(action: object) -> str:
    text = json.dumps(action, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


class RedisEventStore:
    """:class:`EventStore` on Redis streams (works on Redis 6.2+ and Cluster)."""

    def __init__(self, client: aioredis.Redis, pipe: resp.Pipe | None = None) -> None:
        """``pipe``: a lean pipelined connection for the appends (server.storage.resp), when the
        server is one Redis; everything else goes through ``client`` (redis-py)."""
        self._redis = client
        self._pipe = pipe
        self._append: Any = client.register_script(APPEND_LUA) if pipe is None else resp.Script(pipe, APPEND_LUA)
        self._seal: Any = resp.script_registrar(client, pipe)(SEAL_LUA)

    @property
    def redis(self) -> aioredis.Redis:
        return self._redis

    async def append(self, match_id: str, entry: LogEntry, action_key: str = "", fingerprint: str = "") -> AppendResult:
        """:meth:`begin_append`, awaited (a snapshot rides only on the live path's appends)."""
        return await self.begin_append(match_id, entry, action_key, fingerprint)

    @property
    def quiet(self) -> bool:
        """An append begun now is written to Redis at once (:meth:`begin_append`)."""
        return self._pipe is not None and self._pipe.quiet

    def begin_append(
        self,
        match_id: str,
        entry: LogEntry,
        action_key: str = "",
        fingerprint: str = "",
        snapshot: tuple[int, bytes] | None = None,
    ) -> Awaitable[AppendResult]:
        """:meth:`append` in two halves: the command is on its way before this returns (on the
        lean pipe: written at once if it is :attr:`quiet`, else with this turn's others; through
        redis-py, when the result is awaited), and the caller may work while Redis appends (and
        fsyncs). The result must be awaited.

        ``snapshot`` (seq, bytes): a snapshot of an entry already in the log (server.match.snapshots),
        kept by the same command if the entry is appended (not on a duplicate or a conflict). It
        then costs no command and no fsync of its own: written alone, between two actions of a
        duel, its fsync delayed the next action's append."""
        fields = entry.to_fields()
        if len(fields) != ENTRY_FIELDS:  # the script names each field pair: no other count fits it
            raise ValueError(f"a log entry has {ENTRY_FIELDS} stream fields, not {len(fields)}")
        size = sum(len(v) if isinstance(v, bytes | str) else 8 for v in fields.values())
        if size > MAX_ENTRY_BYTES:
            raise ValueError(f"entry of {size} bytes exceeds {MAX_ENTRY_BYTES}")
        snap_seq, snap = ("", b"") if snapshot is None else (str(snapshot[0]), snapshot[1])
        args: list[Any] = [entry.seq, action_key, keys.bell_channel(match_id), fingerprint, snap_seq, snap]
        for name, value in fields.items():
            args.extend((name, value))
        script_keys = [keys.log_key(match_id), keys.actions_key(match_id), keys.snapshots_key(match_id)]
        if self._pipe is None:
            return self._appended(self._append(keys=script_keys, args=args))
        return self._appended(self._append.start(script_keys, args))

    async def _appended(self, sent: Awaitable[Any]) -> AppendResult:
        reply = await sent
        status, seq = reply[0], int(reply[1])
        if isinstance(status, bytes):
            status = status.decode()
        if status == "OK":
            return AppendResult("ok", seq)
        if status == "DUP":
            fp = reply[2] if len(reply) > 2 else b""
            return AppendResult("duplicate", seq, fp.decode() if isinstance(fp, bytes) else str(fp))
        if status == "CONFLICT":
            return AppendResult("conflict", seq)
        raise RuntimeError(f"unexpected append reply {reply!r}")  # pragma: no cover

    async def read(self, match_id: str, after: int = 0, limit: int | None = None) -> list[LogEntry]:
        """Entries with seq > ``after``, in order (at most ``limit``), from the stream and, for
        those before its first entry, from the sealed segment."""
        out: list[LogEntry] = []
        start = after + 1
        key = keys.log_key(match_id)
        while limit is None or len(out) < limit:
            count = READ_BATCH if limit is None else min(READ_BATCH, limit - len(out))
            rows = await self._xrange(key, f"{start}-0", "+", count)
            if not rows:
                break  # the stream keeps the log's top (a seal leaves the last entry): nothing after
            first = int(rows[0][b"seq"])
            if first != start:  # sealed (before this read, or between two batches)
                got = await self._from_segment(match_id, start, first)
                room = len(got) if limit is None else min(len(got), limit - len(out))
                out.extend(got[:room])
                if room < len(got):
                    break
            for fields in rows:
                out.append(LogEntry.from_fields(fields))
            start = out[-1].seq + 1
            if len(rows) < count:
                break
        if limit is not None:
            del out[limit:]
        return out

    async def _from_segment(self, match_id: str, start: int, stop: int) -> list[LogEntry]:
        """The entries ``start`` .. ``stop`` - 1 from the sealed segment (all of them, or an error)."""
        blob = await self._cmd("GET", keys.sealed_key(match_id))
        rows = [] if blob is None else unpack_segment(blob)
        if not rows or int(rows[0][b"seq"]) != 1 or int(rows[-1][b"seq"]) < stop - 1:
            raise LogGapError(f"entries {start}..{stop - 1} of match {match_id} are in neither its log nor a segment")
        return [LogEntry.from_fields(fields) for fields in rows[start - 1 : stop - 1]]

    async def seal(self, match_id: str) -> SealResult:
        """Move every entry of the log but its last into the sealed segment, byte for byte,
        compressed (a finished match: server.match.sealing), and drop the snapshots of a short log
        (:data:`SNAPSHOTS_KEPT_FROM`). One script checks that the log is as it was read (its top,
        and every entry still in the stream) before it writes the segment and renames the
        one-entry stream it built over the log, so an entry appended meanwhile, or a second
        sealer, changes nothing."""
        key = keys.log_key(match_id)
        rows: list[dict[bytes, Any]] = []
        while True:
            start = int(rows[-1][b"seq"]) + 1 if rows else 1
            batch = await self._xrange(key, f"{start}-0", "+", READ_BATCH)
            rows.extend(batch)
            if len(batch) < READ_BATCH:
                break
        if rows and int(rows[0][b"seq"]) != 1:
            return SealResult("sealed", int(rows[-1][b"seq"]))
        if len(rows) < 2:
            return SealResult("empty", len(rows))
        top = int(rows[-1][b"seq"])
        packed: bytes = msgpack.packb([[x for kv in fields.items() for x in kv] for fields in rows[:-1]])
        # zlib lets go of the GIL: compressed on another thread, the ~0.6 ms holds no duel up
        segment = SEGMENT_MAGIC + await asyncio.to_thread(zlib.compress, packed, SEAL_LEVEL)
        drop = "1" if top < SNAPSHOTS_KEPT_FROM else ""
        script_keys = [key, keys.sealed_key(match_id), keys.snapshots_key(match_id), keys.sealing_key(match_id)]
        reply = await self._seal(keys=script_keys, args=[top, segment, drop])
        status = reply[0].decode() if isinstance(reply[0], bytes) else str(reply[0])
        if status == "OK":
            return SealResult("ok", top, len(packed), len(segment), bool(int(reply[2])))
        return SealResult("sealed" if status == "SEALED" else "moved", int(reply[1]))

    async def _cmd(self, *args: bytes | str | int) -> Any:
        return await resp.command(self._redis, self._pipe, *args)

    async def _xrange(self, key: str, lo: str, hi: str, count: int) -> list[dict[bytes, Any]]:
        """The fields of the stream entries from ``lo`` to ``hi`` (at most ``count``)."""
        if self._pipe is None:
            rows: Any = await self._redis.xrange(key, min=lo, max=hi, count=count)
            return [fields for _id, fields in rows]
        return [resp.pairs(flat) for _id, flat in await self._pipe.call("XRANGE", key, lo, hi, "COUNT", count)]

    async def last_seq(self, match_id: str) -> int:
        key = keys.log_key(match_id)
        if self._pipe is not None:
            rows = await self._pipe.call("XREVRANGE", key, "+", "-", "COUNT", 1)
        else:
            rows = await self._redis.xrevrange(key, max="+", min="-", count=1)
        if not rows:
            return 0
        entry_id = rows[0][0]
        if isinstance(entry_id, bytes):
            entry_id = entry_id.decode()
        return int(str(entry_id).split("-", 1)[0])

    async def action_outcome(self, match_id: str, action_key: str) -> tuple[int, str] | None:
        """(seq, fingerprint) of the entry a client action id produced, if any."""
        raw = await self._cmd("HGET", keys.actions_key(match_id), action_key)
        if raw is None:
            return None
        seq, _, fp = (raw.decode() if isinstance(raw, bytes) else str(raw)).partition(":")
        return int(seq), fp

    async def entry(self, match_id: str, seq: int) -> LogEntry | None:
        """Entry ``seq`` (from the stream or the sealed segment), None if the log has none."""
        got = await self.read(match_id, after=seq - 1, limit=1) if seq >= 1 else []
        return got[0] if got and got[0].seq == seq else None

    async def put_snapshot(self, match_id: str, seq: int, blob: bytes) -> None:
        await self._cmd("HSET", keys.snapshots_key(match_id), str(seq), blob)

    async def newest_snapshot(self, match_id: str) -> tuple[int, bytes] | None:
        """The snapshot of the highest seq, if any (server.match.snapshots)."""
        seqs = [int(k) for k in await self._cmd("HKEYS", keys.snapshots_key(match_id))]
        if not seqs:
            return None
        seq = max(seqs)
        blob = await self._cmd("HGET", keys.snapshots_key(match_id), str(seq))
        return (seq, blob) if isinstance(blob, bytes) else None

    async def length(self, match_id: str) -> int:
        """How many entries the log holds (seqs are 1, 2, 3 ...: its top, sealed or not)."""
        return await self.last_seq(match_id)


def unpack_segment(blob: bytes) -> list[dict[bytes, Any]]:
    """A sealed segment's entries, as the stream fields Redis returned when it was sealed."""
    if not blob.startswith(SEGMENT_MAGIC):
        raise ValueError("not a sealed log segment")
    flat = msgpack.unpackb(zlib.decompress(blob[len(SEGMENT_MAGIC) :]), raw=True, use_list=True)
    return [resp.pairs(fields) for fields in flat]
