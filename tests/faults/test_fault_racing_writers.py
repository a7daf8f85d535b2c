"""Racing writers on one match from several processes (issue 15).

tests/server/test_server_store.py races writer *tasks* in one process at the store. Here the
racers are processes: ``DUEL_FAULT_WRITERS`` writer processes (tests/faults/race_writer.py)
each follow the log and append a legal action for whichever seat owes one, as fast as they
can, through the server's append script; and two ``duel serve`` processes hold the seats
(seat 0's player on one, seat 1's on the other) and play with the bot, so the servers race
the writers and each other. ``DUEL_FAULT_RACES`` matches in a row.

Asserted: no fork (one entry per seq, the log is 1..n), every append a writer was told
``ok`` is at its seq with its action id, every action a player was told ``accepted`` too,
nothing else is in the log, the races really happened (conflicts > 0), every log verifies,
and both players end on the log's final state hash.
"""

from __future__ import annotations

import asyncio
import json
import sys
from collections import Counter
from pathlib import Path

from tests.faults.fault_helpers import (
    Ack,
    ServeProcess,
    audit,
    knob,
    read_log,
    report,
    start_duel,
)

WRITERS = knob("DUEL_FAULT_WRITERS", 3)
RACES = knob("DUEL_FAULT_RACES", 1)
EXTRA_RACES = 4
"""Matches played beyond ``RACES`` while the writers have not collided yet."""


async def start_writer(redis_url: str, match_id: str, index: int) -> asyncio.subprocess.Process:
    """A writer process, once it is ready to race (it has imported the engine and reached
    Redis): a duel between two bots is over in well under the second a process takes to start."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "tests.faults.race_writer",
        redis_url,
        match_id,
        str(index),
        str(index * 7919),
        stdout=asyncio.subprocess.PIPE,
    )
    assert proc.stdout is not None
    first = await asyncio.wait_for(proc.stdout.readline(), 60)
    assert first.strip() == b"ready", f"writer {index} did not start: {first!r}"
    return proc


async def writer_result(proc: asyncio.subprocess.Process, index: int) -> dict[str, object]:
    out, _ = await proc.communicate()
    assert proc.returncode == 0, f"writer {index} failed"
    result: dict[str, object] = json.loads(out.decode().strip().splitlines()[-1])
    return result


def test_racing_writer_processes_never_fork_a_match(redis_url: str, tmp_path: Path) -> None:
    p1 = ServeProcess(tmp_path / "p1", "--redis-url", redis_url, "--rate-limit", "2000").start()
    p2 = ServeProcess(tmp_path / "p2", "--redis-url", redis_url, "--rate-limit", "2000").start()
    totals: Counter[str] = Counter()
    errors: Counter[str] = Counter()

    async def one(n: int) -> None:
        a, b = await start_duel(lambda: p1.url, n, errors, seed=19)
        b.url = lambda: p2.url  # seat 1 plays on the other process (after any reconnect too)
        await b.close()
        procs = await asyncio.gather(*(start_writer(redis_url, a.match_id, i) for i in range(WRITERS)))
        results = await asyncio.gather(
            *(writer_result(proc, i) for i, proc in enumerate(procs)),
            a.play(timeout=120),
            b.play(timeout=120),
        )
        writers = [r for r in results if isinstance(r, dict)]
        acks: list[Ack] = list(a.acks) + list(b.acks)
        for w in writers:
            won = w["won"]
            assert isinstance(won, list)
            acks.extend(Ack(a.match_id, -1, seq, cid) for seq, cid in won)
            totals["writer_appends"] += len(won)
            conflicts = w["conflicts"]
            assert isinstance(conflicts, int)
            totals["writer_conflicts"] += conflicts
        totals["player_acks"] += len(a.acks) + len(b.acks)
        totals["player_rejections"] += sum((a.rejected + b.rejected).values())
        log = await read_log(redis_url, a.match_id)
        by_cid = {e.client_action_id: e for e in log}
        # writers' acks name no seat (they act for both): check them by id and seq here
        for ack in [x for x in acks if x.seat == -1]:
            assert ack.cid in by_cid and by_cid[ack.cid].seq == ack.seq, ack
        result = await audit(redis_url, [a.match_id], [x for x in acks if x.seat != -1])
        result.assert_clean()
        totals["entries"] += len(log)
        totals["forks"] += len(log) - len({e.seq for e in log})
        # the log holds the genesis, the writers' appends and the players' acks, nothing else
        distinct_player_acks = {(x.seat, x.cid) for x in a.acks + b.acks}
        assert len(log) == 1 + len([x for x in acks if x.seat == -1]) + len(distinct_player_acks)
        assert a.finished and b.finished
        assert a.state_hash == b.state_hash == log[-1].state_hash
        totals["matches"] += 1
        await a.close()
        await b.close()

    async def body() -> None:
        for n in range(RACES):
            await one(n)
        # whether the writers' appends collide is up to the scheduler: on a busy machine they
        # can take turns through a whole short duel. Race again (a few times at most) until
        # they have collided, so that "never forks" is shown under real races
        while totals["writer_conflicts"] == 0 and totals["matches"] < RACES + EXTRA_RACES:
            await one(totals["matches"])

    try:
        asyncio.run(body())
    finally:
        p1.stop()
        p2.stop()
    report("racing_writers", writers=WRITERS, server_processes=2, client_errors=dict(errors), **totals)
    assert totals["forks"] == 0
    assert totals["writer_conflicts"] > 0, "the writers never raced"
    assert RACES <= totals["matches"] <= RACES + EXTRA_RACES
