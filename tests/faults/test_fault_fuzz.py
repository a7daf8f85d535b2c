"""Fuzzing the live server while an honest duel goes on (issue 15).

One real server process (``tests/faults/serve_config.py``: the server with its violation
limit and rate limits lifted, so that a fuzzing connection is not closed after 20 errors;
that close is tested in tests/server) on its own real Redis. Two hostile connections hold
both seats of a match of their own; other connections hold no seat. Meanwhile bot duels are
played on the same server, one after the other, to the end.

* a hypothesis pass (``DUEL_FUZZ_EXAMPLES`` frames): arbitrary bytes and well-formed but
  wrong messages (tests/faults/fuzz_frames.py), each sent and its answer read;
* a plain generator pass (``DUEL_FUZZ_INPUTS`` frames, ``make fuzz``: 1,000,000) over
  ``DUEL_FUZZ_CONNECTIONS`` connections, frames sent in batches, every answer counted.

Asserted: every bad frame gets exactly one answer, an ``error`` (or, for a seated
connection's action, ``rejected``) whose code is documented and is a right one for that
frame; no ``server/internal``; the server process is alive and logged no failed request;
no entry appended from bad input (the hostile match stays at its genesis, no match was
created); the honest duels all finished with clean, verifiable logs.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import threading
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import msgpack
import pytest
import redis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from websockets.sync.client import ClientConnection, connect

from protocol import errors as E
from server.process import child
from server.storage import keys
from server.storage.embedded_redis import EmbeddedRedis
from tests.faults.fault_helpers import (
    ConfigServeProcess,
    Player,
    audit,
    knob,
    read_log,
    report,
    start_duel,
)
from tests.faults.fuzz_frames import DOCUMENTED, Frame, bad_actions, bad_frames, random_frame

EXAMPLES = knob("DUEL_FUZZ_EXAMPLES", 200)
INPUTS = knob("DUEL_FUZZ_INPUTS", 4000)
CONNECTIONS = knob("DUEL_FUZZ_CONNECTIONS", 4)
BATCH = 100  # frames in flight per connection (the server queues at most 256 answers)
REPLIES = (
    "error",
    "rejected",
    "accepted",
    "match_list",
    "cards",
    "seated",
    "spectating",
    "welcome",
    "replay",
    "replay_loaded",
)
LIFTED = {
    "rate_per_second": 10**7,
    "rate_burst": 10**7,
    "address_rate": 10**7,
    "max_violations": 10**12,
    "ping_interval": None,
}


@dataclass
class Fuzzed:
    """The live target: the server, its Redis, the hostile match, the honest duels."""

    server: child.ServeProcess
    redis_url: str
    hostile_match: str
    hostile: list[ClientConnection]
    codes: Counter[str] = field(default_factory=Counter)
    kinds: Counter[str] = field(default_factory=Counter)
    wrong: list[str] = field(default_factory=list)
    players: list[Player] = field(default_factory=list)
    duels_finished: int = 0
    inputs: int = 0
    stop: threading.Event = field(default_factory=threading.Event)
    honest_done: threading.Event = field(default_factory=threading.Event)  # the honest duels' loop ended


def hello(url: str) -> ClientConnection:
    # no keepalive pings from this client: websockets draws a ping's payload from the global
    # ``random``, and its keepalive thread doing so while Hypothesis generates an example made
    # Hypothesis warn that a strategy used the global random (the server pings clients anyway)
    ws = connect(url, max_size=8 * 1024 * 1024, compression=None, open_timeout=10, ping_interval=None).__enter__()
    ws.send(msgpack.packb({"type": "hello", "versions": [1]}))
    assert msgpack.unpackb(ws.recv(timeout=10))["type"] == "welcome"
    return ws


def answer(ws: ClientConnection, timeout: float = 10.0) -> dict[str, Any]:
    """The next answer to a request (updates and presence notices are not answers)."""
    while True:
        data = ws.recv(timeout=timeout)
        assert isinstance(data, bytes)
        msg: dict[str, Any] = msgpack.unpackb(data, strict_map_key=False)
        if msg["type"] in REPLIES:
            return msg


def judge(target: Fuzzed, frame: Frame, msg: dict[str, Any]) -> None:
    kind, _, expected = frame
    target.inputs += 1
    target.kinds[kind] += 1
    code = str(msg.get("code", msg["type"]))
    target.codes[code] += 1
    if code not in DOCUMENTED or code not in expected or msg["type"] not in ("error", "rejected"):
        target.wrong.append(f"{kind}: {frame[1]!r:.120} -> {msg}")


def honest_duels(target: Fuzzed) -> None:
    """Bot duels on the fuzzed server, one after another, until the fuzzing stops."""
    url = target.server.url

    async def run() -> None:
        errors: Counter[str] = Counter()
        n = 0
        while not target.stop.is_set() or n == 0:
            a, b = await start_duel(lambda: url, n, errors, seed=20)
            target.players.extend((a, b))
            await asyncio.gather(a.play(timeout=200), b.play(timeout=200))
            target.duels_finished += 1
            await a.close()
            await b.close()
            n += 1

    try:
        asyncio.run(run())
    finally:
        target.honest_done.set()


@pytest.fixture(scope="module")
def fuzzed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Fuzzed]:
    data = tmp_path_factory.mktemp("fz")
    embedded = EmbeddedRedis(data / "r").start()
    server = ConfigServeProcess(data / "srv", embedded.url, **LIFTED).start()
    a, b = hello(server.url), hello(server.url)
    a.send(msgpack.packb({"type": "create_match"}))
    match_id = answer(a)["match_id"]
    b.send(msgpack.packb({"type": "join", "match_id": match_id}))
    assert answer(b)["type"] == "seated"
    target = Fuzzed(server, embedded.url, match_id, [a, b])
    duels = threading.Thread(target=honest_duels, args=(target,), daemon=True)
    duels.start()
    try:
        yield target
        target.stop.set()
        duels.join(timeout=300)
        assert not duels.is_alive(), "the honest duel did not finish"
    finally:
        for ws in (a, b):
            with contextlib.suppress(Exception):
                ws.close()
        server.stop()
        embedded.stop()


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), database=None)
@given(frame=bad_frames())
def test_hypothesis_bad_frames_get_a_clear_error(fuzzed: Fuzzed, frame: Frame) -> None:
    ws = getattr(test_hypothesis_bad_frames_get_a_clear_error, "ws", None)
    if ws is None:
        ws = hello(fuzzed.server.url)
        test_hypothesis_bad_frames_get_a_clear_error.ws = ws  # type: ignore[attr-defined]
    ws.send(frame[1])
    judge(fuzzed, frame, answer(ws))
    assert not fuzzed.wrong, fuzzed.wrong[-1]


@settings(max_examples=EXAMPLES // 2, deadline=None, suppress_health_check=list(HealthCheck), database=None)
@given(frame=bad_actions(), seat=st.sampled_from([0, 1]))
def test_hypothesis_wrong_actions_from_both_seats_are_rejected(fuzzed: Fuzzed, frame: Frame, seat: int) -> None:
    ws = fuzzed.hostile[seat]
    ws.send(frame[1])
    judge(fuzzed, frame, answer(ws))
    assert not fuzzed.wrong, fuzzed.wrong[-1]


async def _generator_pass(target: Fuzzed, total: int) -> float:
    """``total`` plain generated frames over several connections; the seconds it took."""
    from websockets.asyncio.client import connect as aconnect

    per = max(1, total // CONNECTIONS)
    t0 = time.perf_counter()
    progress = {"sent": 0}

    async def conn(i: int) -> None:
        rnd = random.Random(1000 + i)
        ws = await aconnect(target.server.url, max_size=8 * 1024 * 1024, compression=None)
        await ws.send(msgpack.packb({"type": "hello", "versions": [1]}))
        assert msgpack.unpackb(await ws.recv())["type"] == "welcome"
        done = 0
        while done < per:
            frames = [random_frame(rnd) for _ in range(min(BATCH, per - done))]
            for f in frames:
                await ws.send(f[1])
            for f in frames:
                while True:
                    msg = msgpack.unpackb(await asyncio.wait_for(ws.recv(), 30), strict_map_key=False)
                    if msg["type"] in REPLIES:
                        break
                judge(target, f, msg)
            done += len(frames)
            progress["sent"] += len(frames)
        await ws.close()

    async def ticker() -> None:
        while True:
            await asyncio.sleep(10)
            rate = progress["sent"] / (time.perf_counter() - t0)
            print(f"fuzz: {progress['sent']:,} of {per * CONNECTIONS:,} frames, {rate:,.0f}/s", flush=True)

    tick = asyncio.create_task(ticker())
    await asyncio.gather(*(conn(i) for i in range(CONNECTIONS)))
    tick.cancel()
    return time.perf_counter() - t0


def test_generated_frames_at_speed_then_nothing_was_appended(fuzzed: Fuzzed) -> None:
    before = fuzzed.inputs
    seconds = asyncio.run(_generator_pass(fuzzed, INPUTS))
    sent = fuzzed.inputs - before
    # the hostile seats' last words: one more wrong action each, answered as such
    for ws in fuzzed.hostile:
        ws.send(
            msgpack.packb(
                {
                    "type": "action",
                    "client_action_id": "last",
                    "expected_seq": 1,
                    "action": {"do": "attack", "with": 1, "target": 2},
                }
            )
        )
        msg = answer(ws)
        assert msg["type"] == "rejected" and msg["code"] in (E.ACTION_ILLEGAL, E.ACTION_NOT_YOUR_PRIORITY), msg
    fuzzed.stop.set()
    # the honest loop may be starting one more duel when told to stop: wait until it has
    # ended, so that every match it created is among ``honest`` below
    assert fuzzed.honest_done.wait(200), "the honest duels did not finish"
    assert fuzzed.duels_finished >= 1 and all(p.finished for p in fuzzed.players)
    server_log = (fuzzed.server.workdir / "server.log").read_text()
    hostile_log = asyncio.run(read_log(fuzzed.redis_url, fuzzed.hostile_match))
    honest = sorted({p.match_id for p in fuzzed.players})
    result = asyncio.run(audit(fuzzed.redis_url, honest, [a for p in fuzzed.players for a in p.acks]))
    direct = redis.Redis.from_url(fuzzed.redis_url)
    matches = direct.zcard(keys.LOBBY_MATCHES) + direct.zcard(keys.LOBBY_FINISHED)
    alive = fuzzed.server.proc is not None and fuzzed.server.proc.poll() is None
    report(
        "fuzz",
        inputs=fuzzed.inputs,
        generator_inputs=sent,
        generator_inputs_per_s=round(sent / seconds),
        connections=CONNECTIONS,
        by_kind=dict(fuzzed.kinds),
        answers_by_code=dict(fuzzed.codes),
        wrong_answers=len(fuzzed.wrong),
        server_internal=fuzzed.codes[E.SERVER_INTERNAL],
        server_alive=alive,
        failed_requests_logged=server_log.count("request_failed"),
        appends_from_bad_input=len(hostile_log) - 1,
        matches_created=matches,
        honest_duels_finished=fuzzed.duels_finished,
        **result.figures(),
    )
    assert not fuzzed.wrong, fuzzed.wrong[:3]
    assert sent >= INPUTS - CONNECTIONS
    assert alive and fuzzed.codes[E.SERVER_INTERNAL] == 0 and "request_failed" not in server_log
    assert len(hostile_log) == 1, "an entry was appended from bad input"
    assert matches == 1 + len(honest), "a match was created from bad input"
    result.assert_clean()
