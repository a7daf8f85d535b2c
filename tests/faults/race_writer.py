"""A racing writer process (tests/faults/test_fault_racing_writers.py): it follows a match's
log, and for whichever seat owes a decision appends a legal action at the next seq, as fast
as it can, through the same append script the server uses, until the duel is over.

    python -m tests.faults.race_writer REDIS_URL MATCH_ID INDEX SEED

Prints one JSON line: the seqs it appended (with their client action ids) and how many
appends lost the race (``conflict``).
"""

from __future__ import annotations

import asyncio
import json
import random
import sys

import redis.asyncio as aioredis

from server import rules
from server.match.live import owing_seat_of
from server.storage.entry import LogEntry
from server.storage.store import RedisEventStore, action_key, fingerprint


async def race(redis_url: str, match_id: str, index: int, seed: int) -> dict[str, object]:
    client = aioredis.Redis.from_url(redis_url)
    await client.ping()
    print("ready", flush=True)  # the test lets the players start only now: the races must happen
    store = RedisEventStore(client)
    rnd = random.Random(seed)
    state: rules.State | None = None
    seq = 0
    won: list[tuple[int, str]] = []
    lost = 0
    count = 0
    try:
        while True:
            for entry in await store.read(match_id, after=seq):
                state = rules.fold(entry.facts, state)
                seq = entry.seq
            if state is None:
                await asyncio.sleep(0.01)
                continue
            seat = owing_seat_of(state)
            if seat is None or rules.finished(state):
                break
            legal = [a for a in rules.legal_actions(state, seat) if a.get("do") != "concede"]
            preferred = [a for a in legal if a.get("do") in ("attack", "summon", "enter_battle_phase")]
            action = rnd.choice(preferred or legal)
            facts = rules.decide(state, seat, action)
            after = rules.fold(facts, state)
            count += 1
            cid = f"w{index}-{count}"
            entry = LogEntry(
                seq=seq + 1,
                seat=seat,
                action=action,
                facts=facts,
                state_hash=rules.state_hash(after),
                client_action_id=cid,
            )
            result = await store.append(match_id, entry, action_key(seat, cid), fingerprint(action))
            if result.status == "ok":
                won.append((result.seq, cid))
                state, seq = after, result.seq
            else:
                lost += 1
    finally:
        await client.aclose()
    return {"index": index, "won": won, "conflicts": lost}


def main() -> None:
    print(json.dumps(asyncio.run(race(sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])))), flush=True)


if __name__ == "__main__":
    main()
