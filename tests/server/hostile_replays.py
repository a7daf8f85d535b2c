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
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import msgpack

from engine.facts import facts_of, wire_facts
from protocol.codec import pack
from protocol.messages import Accepted, Error, ReplayLoaded, UploadReplay
from server import rules
from server.clients.client import DuelClient
from server.history import replay_file
from server.storage.entry import LogEntry
from tests.server.duel_helpers import quietly, start_match, wait_for_turn

PART = 4000
LIVENESS_S = 0.5
"""The longest an honest duel's action may wait for its answer while a hostile file is read: a
liveness bound, not a benchmark. Read on the event loop, a hostile file held every duel for
whole seconds; read off it, an action waits ~1 ms, but `make test` runs two pytest processes on
2 cores and one action in a fresh-clone run waited 0.143 s (over the 0.1 s this bound was)."""
THINK_S = 0.01
"""Between two honest actions: a player's pace (and the duel outlasts the upload)."""
T = TypeVar("T")


def header_of(entries: int) -> dict[str, Any]:
    """A header a reader takes, before it reads the entries (it claims ``entries`` of them)."""
    return {
        "format": replay_file.FORMAT,
        "version": 2,
        "rules_version": "",
        "match_id": "m",
        "entries": entries,
        "chain": "",
    }


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
    header = pack(header_of(entries))
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
            # through the wire form: compiled, the engine's facts are not dataclasses
            wire = [
                {**f, "delta": f["delta"] + 1000, "lp": f["lp"] + 1000} if f["t"] == "lp" else f
                for f in wire_facts(e.facts)
            ]
            out[i] = dataclasses.replace(e, facts=facts_of(wire))
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


async def honest_latencies(clients: list[DuelClient], busy: asyncio.Future[object], took: list[float]) -> None:
    """Play the duel quietly, THINK_S between actions, until ``busy`` is done or the duel ends:
    each action's answer time in ``took`` (the engine's own work is part of it: a few ms)."""
    while not busy.done():
        actor = await wait_for_turn(clients)
        if actor is None:
            return
        t0 = now()
        reply = await actor.act(quietly(actor.legal))
        took.append(now() - t0)
        assert isinstance(reply, Accepted), reply
        await asyncio.sleep(THINK_S)


async def while_dueling(server_url: str, work: Callable[[], Awaitable[T]]) -> tuple[T, list[float]]:
    """``work`` (an upload) while honest duels are played on the same server (one after the
    other, as long as it lasts): its result, and the answer time of every action meanwhile (at
    least 3 of them)."""
    took: list[float] = []
    busy: asyncio.Future[T] | None = None
    t0 = now()
    try:
        while busy is None or not busy.done():
            a, b, _, _ = await start_match(server_url)
            if busy is None:
                t0 = now()
                busy = asyncio.ensure_future(work())
            try:
                await honest_latencies([a, b], busy, took)
            finally:
                for c in (a, b):
                    await c.close()
    finally:
        got = await busy if busy is not None else None
    assert got is not None
    assert len(took) >= 3, f"only {len(took)} actions while the upload was read"
    print(
        f"an upload took {now() - t0:.2f} s; {len(took)} actions answered meanwhile, the slowest in {max(took):.3f} s"
    )
    return got, took
