"""Replay files: one self-contained, compact file per match (docs/replay-format.md).

A file is ``DUELRPL1`` (8 bytes) followed by a zlib-compressed msgpack map
``{header, entries}``. Each entry is the whole stored log entry (action, facts,
state hash, time spent); the header says what made it (format version, rules
version, card data hash), who played, and the result. Entries are chained:
``chain[i] = sha256(chain[i-1] + msgpack(entry i))``, the last link in the
header, so that any damaged or edited byte is found; a server can also sign
the whole header (format 2: every header field, the last link with them; HMAC-SHA256
with its secret), and a server with the same secret refuses a file whose signature
does not hold. A format-1 file's signature covered the last link only: such files are
still read, never reported as signed whole. Reading is bounded (server.history.replay_limits)
and then folds the facts: the facts are what happened, so a replay plays back under
any later rules. When the file was made by the same rules code (``rules_version``),
every recorded state hash must also come out again; under other rules the state may
be represented differently, and ``duel verify`` says where today's rules would decide
otherwise. What the header says of the log (its length, its result, the players the
genesis entry names) must agree with the log.

A match of several duels also has a **match file** (``DUELMTC1``: every duel's own file, in order,
with the match's record; ``build_match``, ``loads_match``, at the end of this module).
"""

from __future__ import annotations

import hashlib
import hmac
import os
import time
import zlib
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import msgpack

from protocol.codec import pack
from protocol.names import shown
from server import rules
from server.history.replay_limits import (
    DEFAULT_LIMITS,
    MAGIC,
    FileReader,
    ReplayFileError,
    ReplayLimits,
    ReplayTooLarge,
)
from server.storage.entry import PLAYERS_KEY, LogEntry

FORMAT = "duel-replay"
VERSION = 2
"""2: the signature covers the whole header (1: the last link of the chain only)."""
WHOLE_SIGNED_SINCE = 2
ENGINE_DIR = Path(__file__).resolve().parents[2] / "engine"

__all__ = ["MAGIC", "ReplayFileError", "ReplayLimits", "ReplayTooLarge"]


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
        "facts": rules.wire_facts(e.facts),
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
        facts=rules.facts_of(list(r["facts"])),
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


def sign_chain(last_link: str, key: bytes) -> str:
    """A format-1 signature: the last link only (the header's other fields are not covered)."""
    return hmac.new(key, f"duel-replay.{last_link}".encode(), hashlib.sha256).hexdigest()


def sign(header: dict[str, Any], key: bytes) -> str:
    """A format-2 signature: every field of the header but the signature itself, the last link
    of the entries' chain with them, packed as stored (key order included)."""
    fields = {k: v for k, v in header.items() if k != "signature"}
    return hmac.new(key, b"duel-replay.2." + pack(fields), hashlib.sha256).hexdigest()


def result_of(state: rules.State | None) -> dict[str, Any]:
    """The header's ``result``, as the folded log gives it (None: no entry folded)."""
    if state is None:
        state = rules.initial()
    return {
        "winner": rules.winner(state),
        "reason": str(getattr(state, "end_reason", "") or ""),
        "finished": rules.finished(state),
        "turns": int(getattr(state, "turn", 0)),
    }


def logged_players(entries: list[LogEntry]) -> tuple[str, str] | None:
    """The players' names the genesis entry records (None for a log that records none)."""
    named = entries[0].action.get(PLAYERS_KEY) if entries else None
    if isinstance(named, list) and len(named) == 2 and all(isinstance(n, str) for n in named):
        return (named[0], named[1])
    return None


@dataclass(frozen=True, slots=True)
class Replay:
    """A replay file read and checked. ``signed``: the whole file is signed, and the signature
    was checked with the key given and holds (never for a format-1 file, nor without a key).
    ``result``: as the log folds (the header must agree)."""

    header: dict[str, Any]
    entries: list[LogEntry]
    signed: bool = False
    result: dict[str, Any] | None = None

    @property
    def match_id(self) -> str:
        return str(self.header["match_id"])

    @property
    def same_rules(self) -> bool:
        return bool(self.header.get("rules_version") == rules_version())

    @property
    def players(self) -> tuple[str, str]:
        """The names the log records, else the header's (checked only when ``signed``), as they
        may be shown (``protocol.names.shown``: a file from outside may hold any characters)."""
        named = logged_players(self.entries)
        if named is None:
            given = self.header.get("players")
            named = (str(given[0]), str(given[1])) if isinstance(given, list) and len(given) == 2 else ("", "")
        return (shown(named[0]), shown(named[1]))


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
    result = result_of(state)
    header: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "rules_version": rules_version(),
        "cards_hash": cards_hash(),
        "match_id": match_id,
        "players": list(logged_players(entries) or players),
        "result": result,
        "created_ms": created_ms,
        "exported_ms": int(time.time() * 1000),
        "entries": len(records),
        "chain": last,
    }
    if key is not None:
        header["signature"] = sign(header, key)
    return Replay(header, entries, key is not None, result)


def dumps(replay: Replay) -> bytes:
    body = pack({"header": replay.header, "entries": [record(e) for e in replay.entries]})
    return MAGIC + zlib.compress(body, 9)


def loads(data: bytes, key: bytes | None = None, limits: ReplayLimits = DEFAULT_LIMITS) -> Replay:
    """Read and check a replay file's bytes within ``limits``; ReplayFileError names what is
    wrong (ReplayTooLarge: a limit). Checked: the layout, the hash chain, the signature (with
    ``key``, when the file has one), the facts folding (to the recorded state hashes under
    the same rules), and that the header's length, result and players agree with the log."""
    reader = FileReader(data, limits)
    header = reader.header
    if header.get("format") != FORMAT:
        raise ReplayFileError(f"not a duel replay (format {header.get('format')!r})")
    version = header.get("version", 0)
    if not isinstance(version, int) or version > VERSION:
        raise ReplayFileError(f"replay format {version!r} is newer than this program reads ({VERSION})")
    for field in ("match_id", "rules_version", "chain"):
        if not isinstance(header.get(field), str):
            raise ReplayFileError(f"the file is damaged: its header has no {field}")
    if reader.count != header.get("entries"):
        raise ReplayFileError(f"the file is damaged: {reader.count} entries, the header says {header.get('entries')}")
    link = b""
    entries: list[LogEntry] = []
    for r in reader.records():
        link = hashlib.sha256(link + pack(r)).digest()
        try:
            entries.append(entry_of(r))
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise ReplayFileError(f"the file is damaged: a malformed entry ({exc})") from None
    if not entries or link.hex() != header.get("chain"):
        raise ReplayFileError("the file is damaged or was altered: its entries do not match their hash chain")
    signed = False
    if key is not None and "signature" in header:
        whole = version >= WHOLE_SIGNED_SINCE
        expected = sign(header, key) if whole else sign_chain(str(header["chain"]), key)
        if not hmac.compare_digest(expected, str(header["signature"])):
            raise ReplayFileError("the file's signature does not hold: it was altered, or signed by another server")
        signed = whole
    state = check_fold(entries, hashes=header.get("rules_version") == rules_version())
    result = result_of(state)
    if header.get("result") != result:
        raise ReplayFileError("the file was altered: its header's result is not what its log gives")
    named = logged_players(entries)
    if named is not None and header.get("players") != list(named):
        raise ReplayFileError("the file was altered: its header's players are not those its log records")
    return Replay(header, entries, signed, result)


def check_fold(entries: list[LogEntry], *, hashes: bool = True) -> rules.State | None:
    """The recorded facts fold (to the recorded state hashes, entry by entry, if ``hashes``);
    the final state."""
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
    return state


def write(path: Path, replay: Replay) -> int:
    data = dumps(replay)
    path.write_bytes(data)
    return len(data)


def read(path: Path, key: bytes | None = None, limits: ReplayLimits = DEFAULT_LIMITS) -> Replay:
    """A replay file from disk: its size checked before a byte of it is read."""
    try:
        with path.open("rb") as f:
            size = os.fstat(f.fileno()).st_size
            if size > limits.max_bytes:
                raise ReplayTooLarge(f"the file is {size} bytes; at most {limits.max_bytes} are read here")
            data = f.read(limits.max_bytes + 1)
    except OSError as exc:
        raise ReplayFileError(f"cannot read {path}: {exc.strerror or exc}") from None
    return loads(data, key, limits)


# ---------------------------------------------------------------------- a whole match in one file
#
# Match replay files: every duel of a match of several duels, in order, in one file
# (docs/replay-format.md, "A whole match").
#
# A file is ``DUELMTC1`` (8 bytes) followed by one msgpack map ``{header, duels}``: the header is
# the match's record (what ``GET /matches/<id>.json`` serves: players, score, result, and per duel
# who went first, who chose, its winner and why, the decks' hashes) with each duel's replay chain,
# and ``duels`` holds each duel's own replay file (above), byte for byte, in
# the order they were played. Nothing is compressed twice: each duel's file is already compressed.
#
# Reading checks every duel's file as a duel's file is checked (hash chain, signature, facts
# folding), and that the header and the duels agree: as many duels as the header lists, each the
# duel its row names (its id, its chain, the match and number its genesis records), each won as the
# row says, and the score the rows give. A server with the key that signed the file also checks the
# header's signature (HMAC-SHA256 of every header field).

MATCH_MAGIC = b"DUELMTC1"
MATCH_FORMAT = "duel-match-replay"
MATCH_VERSION = 1
MAX_DUELS = 5
"""A match is best of 1, 3 or 5."""
HEADER_SLACK = 256 * 1024
"""Bytes a match file may hold beyond its duels' files (its header, the framing)."""

DUEL_ROW_KEYS = ("duel", "duel_id", "first", "chooser", "winner", "reason", "conceded", "deck_hashes")


@dataclass(frozen=True, slots=True)
class MatchReplay:
    """A match replay file read and checked: its header, and each duel's replay in order.
    ``signed``: the header's signature was checked with the key given and holds (and so did
    every duel's)."""

    header: dict[str, Any]
    duels: list[Replay]
    signed: bool = False

    @property
    def match_id(self) -> str:
        return str(self.header["match_id"])

    @property
    def rows(self) -> list[dict[str, Any]]:
        return list(self.header["duels"])


def is_match_file(data: bytes) -> bool:
    return data.startswith(MATCH_MAGIC)


def sign_match(header: dict[str, Any], key: bytes) -> str:
    fields = {k: v for k, v in header.items() if k != "signature"}
    return hmac.new(key, f"{MATCH_FORMAT}.{MATCH_VERSION}.".encode() + pack(fields), hashlib.sha256).hexdigest()


def _winner_word(value: object) -> object:
    """A duel's winner as the record writes it (a seat, or "draw")."""
    return value if value in (0, 1) else "draw"


def build_match(record: dict[str, Any], duel_files: list[bytes], key: bytes | None = None) -> bytes:
    """The match file of a finished match: ``record`` as ``MatchPlay.record_json`` gives it (its
    ``duels`` in order), ``duel_files`` each duel's replay file, in the same order."""
    rows = list(record["duels"])
    if len(rows) != len(duel_files) or not rows:
        raise ReplayFileError("a match file needs every duel of the match, in order")
    out_rows = []
    for row, data in zip(rows, duel_files, strict=True):
        duel_header = FileReader(data).header  # the header only: nothing is folded here
        kept = {k: row[k] for k in DUEL_ROW_KEYS if k in row}
        kept["chain"] = str(duel_header["chain"])
        out_rows.append(kept)
    header: dict[str, Any] = {
        "format": MATCH_FORMAT,
        "version": MATCH_VERSION,
        "match_id": str(record["match_id"]),
        "best_of": int(record["best_of"]),
        "game_format": str(record.get("format", "current")),
        "players": list(record.get("players", ["", ""])),
        "score": list(record["score"]),
        "result": record["result"],
        "clock_scope": str(record.get("clock_scope", "duel")),
        "duels": out_rows,
        "exported_ms": int(time.time() * 1000),
    }
    if key is not None:
        header["signature"] = sign_match(header, key)
    return MATCH_MAGIC + pack({"header": header, "duels": duel_files})


def loads_match(data: bytes, key: bytes | None = None, limits: ReplayLimits = DEFAULT_LIMITS) -> MatchReplay:
    """Read and check a match file's bytes within ``limits`` (each duel's file within them, the
    whole within ``MAX_DUELS`` of them); ReplayFileError names what is wrong."""
    most = MAX_DUELS * limits.max_bytes + HEADER_SLACK
    if len(data) > most:
        raise ReplayTooLarge(f"the file is {len(data)} bytes; a match file of at most {most} is read here")
    if not is_match_file(data):
        raise ReplayFileError("not a match replay file (it does not start with DUELMTC1)")
    unpacker = msgpack.Unpacker(
        raw=False,
        strict_map_key=False,
        max_buffer_size=len(data),
        max_str_len=limits.max_string,
        max_bin_len=limits.max_bytes,
        max_array_len=limits.max_items,
        max_map_len=limits.max_items,
        max_ext_len=0,
    )
    unpacker.feed(data[len(MATCH_MAGIC) :])
    try:
        if unpacker.read_map_header() != 2 or unpacker.unpack() != "header":
            raise ReplayFileError("the file is damaged: it does not begin with its header")
        header = unpacker.unpack()
        if unpacker.unpack() != "duels":
            raise ReplayFileError("the file is damaged: no duels after the header")
        count = unpacker.read_array_header()
        if count > MAX_DUELS:
            raise ReplayTooLarge(f"the file has {count} duels; a match has at most {MAX_DUELS}")
        files = [unpacker.unpack() for _ in range(count)]
    except ReplayFileError:
        raise
    except (ValueError, msgpack.UnpackException, msgpack.OutOfData) as exc:
        if "exceeds max_" in str(exc):
            raise ReplayTooLarge(f"the file holds an array, map or string beyond the limits here ({exc})") from None
        raise ReplayFileError(f"the file is damaged: it cannot be decoded ({exc or type(exc).__name__})") from None
    if unpacker.tell() != len(data) - len(MATCH_MAGIC):
        raise ReplayFileError("the file is damaged: bytes follow its duels")
    if not isinstance(header, dict) or header.get("format") != MATCH_FORMAT:
        raise ReplayFileError("not a match replay (its header is not one)")
    version = header.get("version", 0)
    if not isinstance(version, int) or version > MATCH_VERSION:
        raise ReplayFileError(f"match file format {version!r} is newer than this program reads ({MATCH_VERSION})")
    rows = header.get("duels")
    if not isinstance(rows, list) or len(rows) != count or not all(isinstance(f, bytes) for f in files):
        raise ReplayFileError("the file is damaged: its duels are not those its header lists")
    signed = False
    if key is not None and "signature" in header:
        if not hmac.compare_digest(sign_match(header, key), str(header["signature"])):
            raise ReplayFileError("the file's signature does not hold: it was altered, or signed by another server")
        signed = True
    pairs = enumerate(zip(rows, files, strict=True), 1)
    duels = [_match_duel(header, row, number, blob, key, limits) for number, (row, blob) in pairs]
    if not all(d.signed for d in duels):
        signed = False
    score = [sum(1 for r in rows if r.get("winner") == seat) for seat in (0, 1)]
    if header.get("score") != score:
        raise ReplayFileError("the file was altered: its score is not what its duels give")
    return MatchReplay(header, duels, signed)


def _match_duel(
    header: dict[str, Any], row: Any, number: int, blob: bytes, key: bytes | None, limits: ReplayLimits
) -> Replay:
    """Duel ``number``'s file, read and checked, and checked against its row of the header."""
    try:
        duel = loads(blob, key, limits)
    except ReplayFileError as exc:
        raise type(exc)(f"duel {number}: {exc}") from None
    if not isinstance(row, dict) or row.get("duel") != number:
        raise ReplayFileError(f"the file is damaged: duel {number} is out of order")
    if duel.match_id != row.get("duel_id") or duel.header.get("chain") != row.get("chain"):
        raise ReplayFileError(f"the file was altered: duel {number} is not the duel its header names")
    match = duel.entries[0].action.get("match") if duel.entries else None
    if not isinstance(match, dict) or match.get("id") != header.get("match_id") or match.get("duel") != number:
        raise ReplayFileError(f"the file was altered: duel {number} was not played in match {header.get('match_id')}")
    played = duel.result or {}
    if played.get("finished") and _winner_word(played.get("winner")) != row.get("winner"):
        raise ReplayFileError(f"the file was altered: duel {number}'s winner is not what its log gives")
    return duel
