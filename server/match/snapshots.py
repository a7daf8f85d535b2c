"""Snapshots: a match's folded position every ``EVERY`` entries, kept beside its log.

Loading a long match then folds only the entries after the newest snapshot
(issue 13). A snapshot holds what a server keeps for the live position: the
engine state, the per-viewer alias book (engine.aliases), the clocks and the
time of the entry. It is a cache of the log, never the truth:

* it is written after its entry is in the log, into ``match:{ID}:snap`` (same
  hash tag as the log), field ``<seq>``, by the match's next append, in the same
  command (``RedisEventStore.begin_append``; a snapshot made and never carried,
  because no append followed, is simply not there);
* it is trusted only if its checksum holds and the state it holds hashes to
  the state hash the *log* recorded for that entry; otherwise it is ignored
  (the match is folded from the start) and the problem is logged;
* a match with a spectator delay is folded from the start (its trailing
  position would need a second snapshot; such matches are rare and short).

The state and the alias book are the engine's bytes (``engine.stored`` through
``server.rules``): this module knows nothing of the engine's classes. A snapshot
made by another rules version fails the hash check (or the engine's reader) and is
not used.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

import msgpack

from protocol.codec import pack
from server.match.clocks import Clock, ClockSettings
from server.rules import AliasBook, State, dump_book, dump_state, load_book, load_state

EVERY = 100
"""A snapshot is written after every EVERY-th entry."""

VERSION = 2
"""2: the state and the book are the engine's own bytes (1: a generic encoding of its classes)."""


class SnapshotError(Exception):
    """The snapshot cannot be used; the message says why."""


@dataclass(slots=True)
class Snapshot:
    seq: int
    state_hash: str
    last_ts_ms: int
    state: State
    book: AliasBook
    clock: Clock | None


def dumps(snap: Snapshot) -> bytes:
    """The snapshot's bytes: a checksummed body holding the engine's bytes of the state and
    of the book (without its key), and the clocks."""
    clock = snap.clock
    body: bytes = msgpack.packb(
        {
            "seq": snap.seq,
            "hash": snap.state_hash,
            "ts": snap.last_ts_ms,
            "state": dump_state(snap.state),
            "book": dump_book(snap.book),
            "clock": None
            if clock is None
            else [clock.settings.base_ms, clock.settings.increment_ms, list(clock.remaining)],
        },
        use_bin_type=True,
    )
    return pack({"v": VERSION, "sum": hashlib.sha256(body).hexdigest(), "body": body})


def loads(blob: bytes, alias_key: bytes = b"") -> Snapshot:
    """The snapshot ``blob`` holds, its book keyed with ``alias_key`` (the loading server's:
    the key is derived from its secret and never stored). :class:`SnapshotError` says why a
    blob cannot be used."""
    try:
        outer: Any = msgpack.unpackb(blob, raw=False, strict_map_key=False)
        body = outer["body"]
        if outer.get("v") != VERSION:
            raise SnapshotError(f"snapshot version {outer.get('v')}, this server reads {VERSION}")
        if hashlib.sha256(body).hexdigest() != outer["sum"]:
            raise SnapshotError("checksum does not hold")
        raw: Any = msgpack.unpackb(body, raw=False, strict_map_key=False)
        clock = raw["clock"]
        return Snapshot(
            seq=int(raw["seq"]),
            state_hash=str(raw["hash"]),
            last_ts_ms=int(raw["ts"]),
            state=load_state(raw["state"]),
            book=load_book(raw["book"], alias_key),
            clock=None if clock is None else _clock(clock),
        )
    except SnapshotError:
        raise
    except Exception as exc:  # anything unreadable is simply not a usable snapshot
        raise SnapshotError(f"unreadable ({type(exc).__name__}: {exc})") from None


def _clock(raw: list[Any]) -> Clock:
    base_ms, increment_ms, remaining = raw
    return Clock(ClockSettings(int(base_ms), int(increment_ms)), [int(x) for x in remaining])
