"""End to end: real Redis, real websockets, a whole duel, illegal actions,
a restart, and ``duel replay`` reaching the live server's final state."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import msgpack
import redis.asyncio as aioredis
from duel_helpers import (
    choose,
    is_rejected,
    run,
    running_server,
    start_match,
    url_of,
    wait_for_turn,
)

from protocol import errors as E
from protocol.messages import (
    Accepted,
    Act,
    Error,
    Join,
    Reconnect,
    Rejected,
    Seated,
    Spectate,
    Update,
)
from server.clients.client import DuelClient
from server.storage.store import RedisEventStore

DUEL = [sys.executable, "-m", "server.cli"]


def duel_cli(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    return subprocess.run([*DUEL, *args], capture_output=True, text=True, timeout=timeout, env=env)


def test_full_duel_illegal_actions_restart_and_replay(redis_url: str, tmp_path: Path) -> None:
    async def body() -> tuple[str, str, int]:
        redis = aioredis.Redis.from_url(redis_url)
        store = RedisEventStore(redis)
        rnd = random.Random(2024)
        async with running_server(redis_url, tmp_path) as server:
            a, b, match_id, tokens = await start_match(url_of(server))

            async def log_len() -> int:
                return await store.length(match_id)

            # out of turn: seat 1 acts while seat 0 owes the decision
            assert a.owes_decision and not b.owes_decision
            before = await log_len()
            reply = await b.act({"do": "next_phase"})
            assert is_rejected(reply, E.ACTION_NOT_YOUR_PRIORITY), reply
            assert isinstance(reply, Rejected) and reply.seq == before
            # malformed, oversized, unknown type, wrong field type, text frame
            for raw, code in [
                (b"\xc1\x00", E.FRAME_MALFORMED),
                (msgpack.packb({"type": "action", "pad": "x" * 20000}), E.FRAME_TOO_LARGE),
                (msgpack.packb({"type": "fire_everything"}), E.MESSAGE_UNKNOWN_TYPE),
                (
                    msgpack.packb(
                        {"type": "action", "client_action_id": 5, "expected_seq": 1, "action": {"do": "pass"}}
                    ),
                    E.MESSAGE_BAD_FIELD,
                ),
                ("hello", E.FRAME_NOT_BINARY),
            ]:
                await a.send_raw(raw)
                err = await a.expect(Error)
                assert err.code == code, (err, code)
            # an action made against an old seq is stale
            stale = await a.act(a.legal[0], expected_seq=0)
            assert is_rejected(stale, E.ACTION_STALE)
            assert await log_len() == before

            # play, and once: resend an attack by a monster that already attacked
            accepted: list[Accepted] = []
            attacked: tuple[DuelClient, dict[str, object]] | None = None
            second_attack_checked = False
            for _ in range(2000):
                actor = await wait_for_turn([a, b])
                if actor is None:
                    break
                if attacked and attacked[0] is actor and not second_attack_checked:
                    again = attacked[1]
                    if again not in actor.legal:
                        n = await log_len()
                        reply = await actor.act(dict(again))
                        assert is_rejected(reply, E.ACTION_ILLEGAL), reply
                        assert await log_len() == n
                        second_attack_checked = True
                action = choose(actor.legal, rnd)
                reply = await actor.act(action)
                assert isinstance(reply, Accepted), reply
                accepted.append(reply)
                if action.get("do") == "attack" and attacked is None:
                    attacked = (actor, action)
            assert a.finished and b.finished, "the duel did not finish"
            assert second_attack_checked
            assert a.state_hash == b.state_hash
            assert a.view is not None and a.view["winner"] is not None

            # every accepted action is in the stream, in order, exactly once
            log = await store.read(match_id)
            assert [e.seq for e in log] == list(range(1, len(log) + 1))
            by_seq = {e.seq: e for e in log}
            for ack in accepted:
                assert by_seq[ack.seq].client_action_id == ack.client_action_id
            assert len(log) == 1 + len(accepted)
            assert log[-1].state_hash == a.state_hash
            final_hash, last_seq = a.state_hash, a.seq
            await a.close()
            await b.close()

        # a new server process on the same Redis finds the match where it was
        async with running_server(redis_url, tmp_path) as server2:
            c = await DuelClient.connect(url_of(server2), "A2")
            await c.send(Reconnect(token=tokens[0], last_seq=last_seq - 3))
            seated = await c.expect(Seated)
            assert (seated.match_id, seated.seat, seated.started) == (match_id, 0, True)
            while c.seq < last_seq or c.view is None:
                await c.expect(Update)
            assert c.state_hash == final_hash and c.finished
            await c.close()
        await redis.aclose()
        return match_id, final_hash, last_seq

    match_id, final_hash, last_seq = run(body())

    out = duel_cli("replay", match_id, "--redis-url", redis_url)
    assert out.returncode == 0, out.stderr
    text = out.stdout
    assert "=== Turn 1 (A) ===" in text and "attacks" in text
    assert f"State hash: {final_hash}" in text
    assert f"after entry {last_seq}" in text
    assert "Winner: A" in text or "Winner: B" in text or "Winner: draw" in text

    verify = duel_cli("verify", match_id, "--redis-url", redis_url)
    assert verify.returncode == 0, verify.stdout + verify.stderr
    assert f"State hash: {final_hash}" in verify.stdout


def test_bad_requests_change_nothing(redis_url: str, tmp_path: Path) -> None:
    async def body() -> None:
        async with running_server(redis_url, tmp_path) as server:
            url = url_of(server)
            # before hello: only hello is accepted
            raw = await DuelClient.connect(url, "raw", hello=False)
            await raw.send_raw(msgpack.packb({"type": "list_matches"}))
            assert (await raw.expect(Error)).code == E.SESSION_HELLO_REQUIRED
            await raw.send_raw(msgpack.packb({"type": "hello", "versions": [99]}))
            err = await raw.expect(Error)
            assert err.code == E.SESSION_UNSUPPORTED_VERSION and err.fatal
            await raw.ws.wait_closed()
            assert raw.ws.close_code == 4002

            c = await DuelClient.connect(url, "c")
            # acting while bound to no match
            await c.send(Act(client_action_id="x1", expected_seq=0, action={"do": "pass"}))
            assert (await c.expect(Error)).code == E.SESSION_NOT_IN_MATCH
            await c.send(Join(match_id="no-such-match"))
            assert (await c.expect(Error)).code == E.MATCH_NOT_FOUND
            await c.send(Spectate(match_id="no-such-match"))
            assert (await c.expect(Error)).code == E.MATCH_NOT_FOUND
            # a forged token
            await c.send(Reconnect(token="v1.abc.0.forged", last_seq=0))
            err = await c.expect(Error)
            assert err.code == E.SESSION_UNAUTHORIZED and err.fatal
            await c.ws.wait_closed()
            assert c.ws.close_code == 4001

    run(body())
