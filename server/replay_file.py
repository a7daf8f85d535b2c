"""Replay files: one self-contained, compact file per match (docs/replay-format.md).

A file is ``DUELRPL1`` (8 bytes) followed by a zlib-compressed msgpack map
``{header, entries}``. Each entry is the whole stored log entry (action, facts,
state hash, time spent); the header says what made it (format version, rules
version, card data hash), who played, and the result. Entries are chained:
``chain[i] = sha256(chain[i-1] + msgpack(entry i))``, the last link in the
header, so that any damaged or edited byte is found; a server can also sign
the last link (HMAC-SHA256 with its secret), and a server with the same secret
refuses a file whose signature does not hold. Reading then folds the facts: the
facts are what happened, so a replay plays back under any later rules. When
the file was made by the same rules code (``rules_version``), every recorded
state hash must also come out again; under other rules the state may be
represented differently, and ``duel verify`` says where today's rules would
decide otherwise.
"""

from __future__ import annotations

import hashlib
import hmac
import time
import zlib
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import msgpack

from engine.facts import facts_of, wire_facts
from protocol.codec import pack
from protocol.entry import LogEntry
from server import rules

MAGIC = b"DUELRPL1"
FORMAT = "duel-replay"
VERSION = 1
ENGINE_DIR = Path(__file__).resolve().parents[1] / "engine"


class ReplayFileError(Exception):
    """The file is not a replay file, is damaged, or was altered; the message says which."""


@cache
def rules_version() -> str:
    """A content hash of the rules engine (every ``engine/**/*.py``): two servers with the same
    rules code give the same value."""
    h = hashlib.sha256()
    for path in sorted(ENGINE_DIR.rglob("*.py")):
        h.update(str(path.relative_to(ENGINE_DIR)).encode())
        h.update(path.read_bytes())
    return h.hexdigest()[:16]


@cache
def cards_hash() -> str:
    return hashlib.sha256((ENGINE_DIR / "data" / "cards.json").read_bytes()).hexdigest()[:16]


def record(e: LogEntry) -> dict[str, Any]:
    return {
        "seq": e.seq,
        "seat": e.seat,
        "action": e.action,
        "facts": wire_facts(e.facts),
        "state_hash": e.state_hash,
        "time_ms": e.time_ms,
        "cid": e.client_action_id,
        "ts_ms": e.ts_ms,
        "sv": e.sv,
    }


def entry_of(r: dict[str, Any]) -> LogEntry:
    return LogEntry(
        seq=int(r["seq"]),
        seat=None if r.get("seat") is None else int(r["seat"]),
        action=dict(r["action"]),
        facts=facts_of(list(r["facts"])),
        state_hash=str(r["state_hash"]),
        time_ms=int(r.get("time_ms", 0)),
        client_action_id=str(r.get("cid", "")),
        ts_ms=int(r.get("ts_ms", 0)),
        sv=int(r.get("sv", 1)),
    )


def chain(records: list[dict[str, Any]]) -> str:
    link = b""
    for r in records:
        link = hashlib.sha256(link + pack(r)).digest()
    return link.hex()


def sign(last_link: str, key: bytes) -> str:
    return hmac.new(key, f"duel-replay.{last_link}".encode(), hashlib.sha256).hexdigest()


@dataclass(frozen=True, slots=True)
class Replay:
    header: dict[str, Any]
    entries: list[LogEntry]

    @property
    def match_id(self) -> str:
        return str(self.header["match_id"])


def build(
    match_id: str,
    entries: list[LogEntry],
    *,
    players: tuple[str, str] = ("", ""),
    created_ms: int = 0,
    key: bytes | None = None,
) -> Replay:
    """A replay of ``entries`` (the whole log, from seq 1)."""
    if not entries or entries[0].seq != 1:
        raise ReplayFileError("a replay needs the whole log, from entry 1")
    state = rules.initial()
    for e in entries:
        state = rules.fold(e.facts, state)
    records = [record(e) for e in entries]
    last = chain(records)
    header: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "rules_version": rules_version(),
        "cards_hash": cards_hash(),
        "match_id": match_id,
        "players": list(players),
        "result": {
            "winner": rules.winner(state),
            "reason": str(getattr(state, "end_reason", "") or ""),
            "finished": rules.finished(state),
            "turns": int(getattr(state, "turn", 0)),
        },
        "created_ms": created_ms,
        "exported_ms": int(time.time() * 1000),
        "entries": len(records),
        "chain": last,
    }
    if key is not None:
        header["signature"] = sign(last, key)
    return Replay(header, entries)


def dumps(replay: Replay) -> bytes:
    body = pack({"header": replay.header, "entries": [record(e) for e in replay.entries]})
    return MAGIC + zlib.compress(body, 9)


def loads(data: bytes, key: bytes | None = None) -> Replay:
    """Read and check a replay file's bytes; ReplayFileError names what is wrong."""
    if not data.startswith(MAGIC):
        raise ReplayFileError("not a duel replay file (it does not start with DUELRPL1)")
    try:
        raw: Any = msgpack.unpackb(zlib.decompress(data[len(MAGIC) :]), raw=False, strict_map_key=False)
    except (zlib.error, ValueError, msgpack.UnpackException) as exc:
        raise ReplayFileError(f"the file is damaged: it cannot be decompressed or decoded ({exc})") from None
    if not isinstance(raw, dict) or not isinstance(raw.get("header"), dict) or not isinstance(raw.get("entries"), list):
        raise ReplayFileError("the file is damaged: no header or no entries")
    header, records = raw["header"], raw["entries"]
    if header.get("format") != FORMAT:
        raise ReplayFileError(f"not a duel replay (format {header.get('format')!r})")
    if int(header.get("version", 0)) > VERSION:
        raise ReplayFileError(f"replay format {header['version']} is newer than this program reads ({VERSION})")
    if len(records) != header.get("entries"):
        raise ReplayFileError(f"the file is damaged: {len(records)} entries, the header says {header.get('entries')}")
    if chain(records) != header.get("chain"):
        raise ReplayFileError("the file is damaged or was altered: its entries do not match their hash chain")
    if (
        key is not None
        and "signature" in header
        and not hmac.compare_digest(sign(str(header["chain"]), key), str(header["signature"]))
    ):
        raise ReplayFileError("the file's signature does not hold: it was altered, or signed by another server")
    try:
        entries = [entry_of(r) for r in records]
    except (KeyError, TypeError, ValueError) as exc:
        raise ReplayFileError(f"the file is damaged: a malformed entry ({exc})") from None
    check_fold(entries, hashes=header.get("rules_version") == rules_version())
    return Replay(header, entries)


def check_fold(entries: list[LogEntry], *, hashes: bool = True) -> None:
    """The recorded facts fold (to the recorded state hashes, entry by entry, if ``hashes``)."""
    state = None
    for i, e in enumerate(entries, start=1):
        if e.seq != i:
            raise ReplayFileError(f"the file is damaged: entry {i} has seq {e.seq}")
        try:
            state = rules.fold(e.facts, state)
        except Exception as exc:  # facts this engine cannot even apply
            raise ReplayFileError(f"entry {e.seq}: its facts cannot be applied ({type(exc).__name__}: {exc})") from None
        if hashes and rules.state_hash(state) != e.state_hash:
            raise ReplayFileError(f"entry {e.seq}: its facts do not give the recorded state hash")


def write(path: Path, replay: Replay) -> int:
    data = dumps(replay)
    path.write_bytes(data)
    return len(data)


def read(path: Path, key: bytes | None = None) -> Replay:
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise ReplayFileError(f"cannot read {path}: {exc.strerror or exc}") from None
    return loads(data, key)
