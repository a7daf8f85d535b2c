"""A stateful property test of one match served live (issue 15): hypothesis drives both seats
through legal and illegal actions, actions from the seat that does not owe the decision,
stale actions, duplicate submits (same client action id, same action), reconnects, and
simulated crashes (the in-process server is stopped and a new one started on the same
Redis: all server memory gone, the match rebuilt from Redis). After every step:

* the live match state of the server (its ``LiveMatch``) hashes to the same state hash as
  the fold of the stored log with the engine, which is also the log's last recorded hash;
* the log is 1..n and holds exactly the acknowledged actions (each once);
* every refusal appended nothing.

Real Redis, real websockets, the real server in-process (no mocks). ``DUEL_STATEFUL_EXAMPLES``
machines of up to ``DUEL_STATEFUL_STEPS`` steps.
"""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from protocol import errors as E
from protocol.messages import Accepted, CreateMatch, Join, Reconnect, Rejected, Seated, Update
from server import rules
from server.clients.client import DuelClient
from server.process.app import DuelServer
from server.process.config import ServerConfig
from tests.faults.fault_helpers import knob, read_log, report
from tests.faults.fuzz_frames import VERBS

EXAMPLES = knob("DUEL_STATEFUL_EXAMPLES", 10)
STEPS = knob("DUEL_STATEFUL_STEPS", 30)
SECRET = b"stateful-test-secret-0123456789ab"
TOTALS: dict[str, int] = {
    "machines": 0,
    "steps": 0,
    "accepted": 0,
    "refused": 0,
    "duplicates": 0,
    "reconnects": 0,
    "crashes": 0,
    "checks": 0,
}


class LiveMatchMachine(RuleBasedStateMachine):
    redis_url = ""
    data_dir = Path(".")

    def __init__(self) -> None:
        super().__init__()
        self.loop = asyncio.new_event_loop()
        self.server: DuelServer | None = None
        self.clients: list[DuelClient] = []
        self.tokens: list[str] = []
        self.match_id = ""
        self.acked: dict[tuple[int, str], int] = {}  # (seat, client action id) -> seq
        self.last: list[tuple[str, int, dict[str, Any]] | None] = [None, None]  # per seat: an accepted action
        TOTALS["machines"] += 1

    def run(self, coro: Any) -> Any:
        return self.loop.run_until_complete(asyncio.wait_for(coro, 60))

    async def _start_server(self) -> None:
        cfg = ServerConfig(port=0, data_dir=self.data_dir, poll_interval=0.5, rate_per_second=5000, rate_burst=5000)
        self.server = await DuelServer(cfg, self.redis_url, secret=SECRET).start()

    @property
    def url(self) -> str:
        assert self.server is not None
        return f"ws://127.0.0.1:{self.server.port}"

    async def _settle(self) -> None:
        """Wait until both seats have the update of the match's latest entry.  A seat is told
        ``Seated`` before its server has loaded the match, so the match is looked up only
        once every seat has its first view (sent by the server after attaching it)."""
        assert self.server is not None
        for c in self.clients:
            while c.view is None:
                await c.expect(Update, timeout=10)
        lm = self.server.service.cached(self.match_id)
        assert lm is not None, "a seated match is not live on its server"
        while any(c.seq < lm.seq or c.view is None for c in self.clients):
            waits = [
                asyncio.ensure_future(c.expect(Update, timeout=10))
                for c in self.clients
                if c.seq < lm.seq or c.view is None
            ]
            await asyncio.gather(*waits)
        for c in self.clients:
            c.drain()

    @initialize()
    def start(self) -> None:
        async def go() -> None:
            await self._start_server()
            a = await DuelClient.connect(self.url, "A")
            b = await DuelClient.connect(self.url, "B")
            await a.send(CreateMatch())
            sa = await a.expect(Seated)
            await b.send(Join(match_id=sa.match_id))
            sb = await b.expect(Seated)
            self.clients, self.tokens, self.match_id = [a, b], [sa.token, sb.token], sa.match_id
            await self._settle()

        self.run(go())

    def teardown(self) -> None:
        async def stop() -> None:
            for c in self.clients:
                with contextlib.suppress(Exception):
                    await c.close()
            if self.server is not None:
                await self.server.stop()

        with contextlib.suppress(Exception):
            self.run(stop())
        self.loop.close()

    # ------------------------------------------------------------------ helpers

    def owing(self) -> int | None:
        for seat, c in enumerate(self.clients):
            if c.legal:
                return seat
        return None

    def finished(self) -> bool:
        return self.clients[0].finished

    async def _act(self, seat: int, action: dict[str, Any], **kw: Any) -> Accepted | Rejected:
        reply = await self.clients[seat].act(action, **kw)
        TOTALS["steps"] += 1
        if isinstance(reply, Accepted):
            key = (seat, reply.client_action_id)
            if reply.duplicate:
                TOTALS["duplicates"] += 1
                assert self.acked[key] == reply.seq, "a duplicate was answered with another seq"
            else:
                assert key not in self.acked
                self.acked[key] = reply.seq
                self.last[seat] = (reply.client_action_id, reply.seq, action)
                TOTALS["accepted"] += 1
        else:
            TOTALS["refused"] += 1
        await self._settle()
        return reply

    # ------------------------------------------------------------------ rules

    @precondition(lambda self: not self.finished() and self.owing() is not None)
    @rule(pick=st.integers(0, 10**6))
    def legal_action(self, pick: int) -> None:
        seat = self.owing()
        assert seat is not None
        legal = [a for a in self.clients[seat].legal if a.get("do") != "concede"]
        reply = self.run(self._act(seat, legal[pick % len(legal)]))
        assert isinstance(reply, Accepted) and not reply.duplicate, reply

    @precondition(lambda self: not self.finished())
    @rule(seat=st.sampled_from([0, 1]), verb=st.sampled_from(VERBS), card=st.integers(-(2**40), 2**40))
    def illegal_action(self, seat: int, verb: str, card: int) -> None:
        reply = self.run(self._act(seat, {"do": verb, "card": card, "target": card + 1}))
        assert isinstance(reply, Rejected) and reply.code in (
            E.ACTION_ILLEGAL,
            E.ACTION_MALFORMED,
            E.ACTION_NOT_YOUR_PRIORITY,
        ), reply

    @precondition(lambda self: not self.finished() and self.owing() is not None)
    @rule()
    def the_other_seat_acts(self) -> None:
        seat = self.owing()
        assert seat is not None
        other = 1 - seat
        action = next(a for a in self.clients[seat].legal if a.get("do") != "concede")
        reply = self.run(self._act(other, action))
        assert isinstance(reply, Rejected), reply

    @precondition(lambda self: not self.finished() and self.owing() is not None and self.clients[0].seq > 1)
    @rule()
    def stale_action(self) -> None:
        seat = self.owing()
        assert seat is not None
        c = self.clients[seat]
        action = next(a for a in c.legal if a.get("do") != "concede")
        reply = self.run(self._act(seat, action, expected_seq=c.seq - 1))
        assert isinstance(reply, Rejected) and reply.code == E.ACTION_STALE, reply

    @precondition(lambda self: self.last[0] is not None or self.last[1] is not None)
    @rule(seat=st.sampled_from([0, 1]))
    def duplicate_submit(self, seat: int) -> None:
        if self.last[seat] is None:
            seat = 1 - seat
        last = self.last[seat]
        assert last is not None
        cid, seq, action = last
        reply = self.run(self._act(seat, action, action_id=cid, expected_seq=seq - 1))
        assert isinstance(reply, Accepted) and reply.duplicate and reply.seq == seq, reply

    @rule(seat=st.sampled_from([0, 1]))
    def reconnect(self, seat: int) -> None:
        async def go() -> None:
            old = self.clients[seat]
            await old.close()
            c = await DuelClient.connect(self.url, f"R{seat}")
            await c.send(Reconnect(token=self.tokens[seat], last_seq=old.seq))
            await c.expect(Seated)
            self.clients[seat] = c
            await self._settle()

        self.run(go())
        TOTALS["reconnects"] += 1

    @rule()
    def crash(self) -> None:
        """Drop all server memory: a new server on the same Redis; both seats come back."""

        async def go() -> None:
            assert self.server is not None
            await self.server.stop()
            for c in self.clients:
                with contextlib.suppress(Exception):
                    await c.close()
            await self._start_server()
            seen = [c.seq for c in self.clients]
            self.clients = []
            for seat in (0, 1):
                c = await DuelClient.connect(self.url, f"C{seat}")
                await c.send(Reconnect(token=self.tokens[seat], last_seq=seen[seat]))
                await c.expect(Seated)
                self.clients.append(c)
            await self._settle()

        self.run(go())
        TOTALS["crashes"] += 1

    # ------------------------------------------------------------------ the invariant

    @invariant()
    def live_state_is_the_fold_of_the_log(self) -> None:
        if not self.match_id or self.server is None:
            return
        lm = self.server.service.cached(self.match_id)
        assert lm is not None and lm.state is not None
        log = self.run(read_log(self.redis_url, self.match_id))
        assert [e.seq for e in log] == list(range(1, len(log) + 1))
        state = None
        for entry in log:
            state = rules.fold(entry.facts, state)
        assert state is not None
        folded = rules.state_hash(state)
        assert lm.seq == len(log)
        assert rules.state_hash(lm.state) == folded == log[-1].state_hash == lm.state_hash
        assert all(c.state_hash == folded for c in self.clients)
        logged = {(e.seat, e.client_action_id): e.seq for e in log if e.client_action_id}
        assert logged == self.acked, "the log does not hold exactly the acknowledged actions"
        TOTALS["checks"] += 1


def test_live_state_equals_the_fold_of_the_log(redis_url: str, tmp_path: Path) -> None:
    LiveMatchMachine.redis_url = redis_url
    LiveMatchMachine.data_dir = tmp_path
    test = LiveMatchMachine.TestCase
    test.settings = settings(
        max_examples=EXAMPLES,
        stateful_step_count=STEPS,
        deadline=None,
        suppress_health_check=list(HealthCheck),
        database=None,
        # the same exploration every run: a short run that chose no duplicate submission by
        # chance failed its coverage assertion below (1 run in about 10 of the suite)
        derandomize=True,
    )
    try:
        test().runTest()
    finally:
        report("stateful", examples=EXAMPLES, steps_per_example=STEPS, **TOTALS)
    assert TOTALS["crashes"] > 0 and TOTALS["reconnects"] > 0 and TOTALS["duplicates"] > 0, TOTALS
    assert TOTALS["checks"] > TOTALS["machines"]


pytestmark = pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
