"""Match replay files: every duel of a match of several duels, in order, in one file
(docs/replay-format.md, "A whole match").

A file is ``DUELMTC1`` (8 bytes) followed by one msgpack map ``{header, duels}``: the header is
the match's record (what ``GET /matches/<id>.json`` serves: players, score, result, and per duel
who went first, who chose, its winner and why, the decks' hashes) with each duel's replay chain,
and ``duels`` holds each duel's own replay file (server.history.replay_file), byte for byte, in
the order they were played. Nothing is compressed twice: each duel's file is already compressed.

Reading checks every duel's file as a duel's file is checked (hash chain, signature, facts
folding), and that the header and the duels agree: as many duels as the header lists, each the
duel its row names (its id, its chain, the match and number its genesis records), each won as the
row says, and the score the rows give. A server with the key that signed the file also checks the
header's signature (HMAC-SHA256 of every header field).
"""

from __future__ import annotations

import hashlib
import hmac
import time
from dataclasses import dataclass
from typing import Any

import msgpack

from protocol.codec import pack
from server.history import replay_file
from server.history.replay_file import Replay
from server.history.replay_limits import DEFAULT_LIMITS, FileReader, ReplayFileError, ReplayLimits, ReplayTooLarge

MATCH_MAGIC = b"DUELMTC1"
FORMAT = "duel-match-replay"
VERSION = 1
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


def sign(header: dict[str, Any], key: bytes) -> str:
    fields = {k: v for k, v in header.items() if k != "signature"}
    return hmac.new(key, f"{FORMAT}.{VERSION}.".encode() + pack(fields), hashlib.sha256).hexdigest()


def _winner(value: object) -> object:
    """A duel's winner as the record writes it (a seat, or "draw")."""
    return value if value in (0, 1) else "draw"


def build(record: dict[str, Any], duel_files: list[bytes], key: bytes | None = None) -> bytes:
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
        "format": FORMAT,
        "version": VERSION,
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
        header["signature"] = sign(header, key)
    return MATCH_MAGIC + pack({"header": header, "duels": duel_files})


def loads(data: bytes, key: bytes | None = None, limits: ReplayLimits = DEFAULT_LIMITS) -> MatchReplay:
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
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise ReplayFileError("not a match replay (its header is not one)")
    version = header.get("version", 0)
    if not isinstance(version, int) or version > VERSION:
        raise ReplayFileError(f"match file format {version!r} is newer than this program reads ({VERSION})")
    rows = header.get("duels")
    if not isinstance(rows, list) or len(rows) != count or not all(isinstance(f, bytes) for f in files):
        raise ReplayFileError("the file is damaged: its duels are not those its header lists")
    signed = False
    if key is not None and "signature" in header:
        if not hmac.compare_digest(sign(header, key), str(header["signature"])):
            raise ReplayFileError("the file's signature does not hold: it was altered, or signed by another server")
        signed = True
    pairs = enumerate(zip(rows, files, strict=True), 1)
    duels = [_duel(header, row, number, blob, key, limits) for number, (row, blob) in pairs]
    if not all(d.signed for d in duels):
        signed = False
    score = [sum(1 for r in rows if r.get("winner") == seat) for seat in (0, 1)]
    if header.get("score") != score:
        raise ReplayFileError("the file was altered: its score is not what its duels give")
    return MatchReplay(header, duels, signed)


def _duel(
    header: dict[str, Any], row: Any, number: int, blob: bytes, key: bytes | None, limits: ReplayLimits
) -> Replay:
    """Duel ``number``'s file, read and checked, and checked against its row of the header."""
    try:
        duel = replay_file.loads(blob, key, limits)
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
    if played.get("finished") and _winner(played.get("winner")) != row.get("winner"):
        raise ReplayFileError(f"the file was altered: duel {number}'s winner is not what its log gives")
    return duel
