"""Replay files an attacker would send (issue 34): a zip bomb, a long file of do-nothing
entries, files whose header or log was edited; and sending any file over the protocol.

Shared by tests/server (small, with the server's limits set low) and tests/faults (the sizes
the issue measured)."""

from __future__ import annotations

import asyncio
import base64
import dataclasses
import struct
import time
import zlib
from collections.abc import Callable
from typing import Any

import msgpack

from protocol.codec import pack
from protocol.entry import LogEntry
from protocol.messages import Error, ReplayLoaded, UploadReplay
from server import replay_file, rules
from server.client import DuelClient

PART = 4000


def nil_bomb(decompressed: int, per_entry: int = 800 * 1024) -> bytes:
    """A replay file of well-formed entries, each carrying arrays of nils in its action
    (``per_entry`` bytes of them): about 1 KB compressed per MB decompressed, each nil byte a
    list slot of 8 bytes in Python (the issue's 100 KB file took a server to 977 MB). Every
    entry is a map with the fields an entry has, so it gets past any check of one entry's
    shape: only the decompressed size limit (or the entry count) stops it."""
    width = 4000
    row = b"\xdd" + struct.pack(">I", width) + b"\xc0" * width
    rows = max(1, per_entry // len(row))
    pad = b"\xdd" + struct.pack(">I", rows) + row * rows
    rest = b"\xa4seat\x00\xa6action\x82\xa2do\xa4pass\xa3pad" + pad + b"\xa5facts\x90\xaastate_hash\xa0"
    entries = max(1, decompressed // len(rest))
    header = pack({"format": replay_file.FORMAT, "version": 2, "entries": entries, "chain": ""})
    z = zlib.compressobj(9)
    top = b"\x82\xa6header" + header + b"\xa7entries\xdd" + struct.pack(">I", entries)
    out = [replay_file.MAGIC, z.compress(top)]
    for i in range(1, entries + 1):
        out.append(z.compress(b"\x85\xa3seq\xce" + struct.pack(">I", i) + rest))
    out.append(z.flush())
    return b"".join(out)


def long_log(entries: int, seed: int = 3) -> list[LogEntry]:
    """A genesis entry, then ``entries - 1`` entries whose facts are empty: each folds to the
    same state and state hash, so the file is whole and consistent (its chain, folds and
    hashes hold) though no duel ever went like this (``duel verify`` and import refuse it)."""
    decks = (rules.demo_deck(0), rules.demo_deck(1))
    facts = rules.genesis(seed, decks)
    h = rules.state_hash(rules.fold(facts, None))
    log = [LogEntry(1, None, {"do": "start", "seed": seed, "decks": [decks[0], decks[1]]}, facts, h, ts_ms=1)]
    log.extend(LogEntry(i, 0, {"do": "pass"}, [], h, ts_ms=i) for i in range(2, entries + 1))
    return log


def long_file(entries: int) -> bytes:
    return replay_file.dumps(replay_file.build("long", long_log(entries)))


def rewrite(data: bytes, change: Callable[[dict[str, Any]], None]) -> bytes:
    """The file with its decoded contents changed by ``change`` (nothing recomputed)."""
    raw = msgpack.unpackb(zlib.decompress(data[8:]), raw=False, strict_map_key=False)
    change(raw)
    return replay_file.MAGIC + zlib.compress(pack(raw))


def with_log(replay: replay_file.Replay, log: list[LogEntry], key: bytes | None = None) -> bytes:
    """A file of ``log`` under ``replay``'s header, rebuilt as a forger would (chain, result),
    and signed with ``key`` if given."""
    return replay_file.dumps(replay_file.build(replay.match_id, log, players=replay.players, key=key))


def rehashed(log: list[LogEntry]) -> list[LogEntry]:
    """The log with every state hash recomputed from its facts, as a forger would."""
    state = None
    out = []
    for e in log:
        state = rules.fold(e.facts, state)
        out.append(dataclasses.replace(e, state_hash=rules.state_hash(state)))
    return out


def edited_fact(log: list[LogEntry]) -> list[LogEntry]:
    """The log with the first Life Points change after genesis 1000 smaller, its state hashes
    recomputed: the facts fold and every hash holds; only re-deciding the action finds it."""
    out = list(log)
    for i, e in enumerate(out):
        if i > 0 and any(f["t"] == "lp" for f in e.facts):
            facts = [
                dataclasses.replace(f, delta=f.delta + 1000, lp=f.lp + 1000) if f["t"] == "lp" else f for f in e.facts
            ]
            out[i] = dataclasses.replace(e, facts=facts)
            return rehashed(out)
    raise AssertionError("no Life Points change in the log")


def v1_signed(replay: replay_file.Replay, key: bytes) -> bytes:
    """``replay`` as a format-1 file, signed the format-1 way (the last link only)."""
    header = {**replay.header, "version": 1}
    header.pop("signature", None)
    header["signature"] = replay_file.sign_chain(str(header["chain"]), key)
    return replay_file.dumps(replay_file.Replay(header, replay.entries))


async def upload(c: DuelClient, upload_id: str, data: bytes, timeout: float = 60.0) -> ReplayLoaded | Error:
    """Send a file in parts; the server's answer (``replay_loaded`` or an error)."""
    text = base64.b64encode(data).decode()
    parts = [text[i : i + PART] for i in range(0, len(text), PART)] or [""]
    for i, part in enumerate(parts):
        await c.send(UploadReplay(upload_id, i, len(parts), part))
    return await answer(c, upload_id, timeout)


async def answer(c: DuelClient, upload_id: str, timeout: float = 60.0) -> ReplayLoaded | Error:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        msg = await c.recv(max(0.01, deadline - loop.time()))
        if isinstance(msg, Error) or (isinstance(msg, ReplayLoaded) and msg.upload_id == upload_id):
            return msg


def now() -> float:
    return time.perf_counter()
