"""Lost replies on appends and on every lobby write, at random, under real play (issue 15).

tests/server/test_server_lobby.py loses one reply to each of create, join and quick match,
once, on a quiet server. Here ``LossyProxy`` (a TCP proxy between the server and a real
Redis that forwards a command, lets Redis run it and cuts the connection instead of passing
the answer on) loses answers at random all through a busy run: to the append script and to
every lobby script (create, join, hold, release, finish, quick-match pairing, alive, leave,
requeue); each of the scripts a run
surely uses loses at least one answer. Meanwhile: duels created and joined by
request id, quick-match players paired concurrently, quick-match players who leave while
waiting (the leave script), all played to the end by the bot.

Asserted: no action applied twice, no acknowledged action lost, every log verifies; an
action's ``accepted`` comes before the update of its entry on its connection (issue 34: 3 of
344 lost append replies answered after the update); every
request id got exactly one seat, every match two distinct players; no player stranded
(every connected quick-match player was paired and its duel started and finished); no one
was ever paired with a player who had left; the quick-match queue and its records are empty
at the end.
"""

from __future__ import annotations

import asyncio
import random
import secrets
from collections import Counter
from pathlib import Path

import redis.asyncio as aioredis

from protocol.messages import QuickMatch, Seated, Update
from server.clients.client import DuelClient
from server.lobby.quick import ALIVE_LUA, LEAVE_LUA, PAIR_LUA, REQUEUE_LUA
from server.match.directory import CREATE_LUA, FINISH_LUA, HOLD_LUA, JOIN_LUA, RELEASE_LUA
from server.storage import keys
from server.storage.embedded_redis import EmbeddedRedis
from server.storage.store import APPEND_LUA, SEAL_LUA
from tests.faults.fault_helpers import (
    NETWORK_ERRORS,
    Player,
    audit,
    knob,
    report,
    start_duel,
)
from tests.server.duel_helpers import running_server, url_of
from tests.server.redis_proxy import LossyProxy, script_sha

SCRIPTS = {
    "append": APPEND_LUA,
    "create": CREATE_LUA,
    "join": JOIN_LUA,
    "hold": HOLD_LUA,
    "release": RELEASE_LUA,
    "finish": FINISH_LUA,
    "pair": PAIR_LUA,
    "alive": ALIVE_LUA,
    "leave": LEAVE_LUA,
    "requeue": REQUEUE_LUA,
    "seal": SEAL_LUA,
}
PATTERNS = {
    pattern: name
    for name, source in SCRIPTS.items()
    for pattern in (script_sha(source), source.encode())  # EVALSHA, or SCRIPT LOAD the first time
}
DUELS = knob("DUEL_FAULT_LOST_DUELS", 2)  # created and joined by request id
QUICK_PAIRS = knob("DUEL_FAULT_QUICK_PAIRS", 2)
LEAVERS = knob("DUEL_FAULT_LEAVERS", 2)


async def quick_seat(url: str, name: str, errors: Counter[str]) -> tuple[Seated, DuelClient]:
    """quick_match with a request id, retried (same id) until seated."""
    request = QuickMatch(request_id=secrets.token_urlsafe(18), name=name)
    for _ in range(30):
        c = await DuelClient.connect(url, name)
        try:
            await c.send(request)
            while True:
                msg = await c.recv(timeout=15)
                if isinstance(msg, Seated):
                    return msg, c
                if msg.type == "error":
                    errors[getattr(msg, "code", "error")] += 1
                    break
        except NETWORK_ERRORS as exc:
            errors[type(exc).__name__] += 1
        await c.close()
        await asyncio.sleep(0.1)
    raise AssertionError(f"{name} was never seated: {dict(errors)}")


def test_lost_replies_on_appends_and_every_lobby_write(tmp_path: Path) -> None:
    embedded = EmbeddedRedis(tmp_path / "r").start()  # its own Redis: the quick-match queue is global
    errors: Counter[str] = Counter()
    figures: dict[str, object] = {}

    async def body() -> None:
        proxy = await LossyProxy(embedded.url).start()
        rnd = random.Random(17)
        chaos_on = True

        def arm(*names: str) -> None:
            """Lose the next reply to each script of ``names`` (once each: a retry succeeds)."""
            for name in names:
                for pattern in (script_sha(SCRIPTS[name]), SCRIPTS[name].encode()):
                    proxy.drops[pattern] = 1

        def disarm(*names: str) -> None:
            for name in names:
                for pattern in (script_sha(SCRIPTS[name]), SCRIPTS[name].encode()):
                    proxy.drops.pop(pattern, None)

        async def chaos() -> None:
            """All through play: lose a reply to a random script, now and then (a loss not
            taken within half a second is called off: that script is not running now)."""
            names = ["append"] * 6 + ["alive", "requeue"]
            while chaos_on:
                before = len(proxy.dropped)
                name = rnd.choice(names)
                arm(name)
                for _ in range(25):
                    if len(proxy.dropped) > before or not chaos_on:
                        break
                    await asyncio.sleep(0.02)
                disarm(name)
                await asyncio.sleep(0.05 * rnd.random())

        try:
            direct = aioredis.Redis.from_url(embedded.url)
            # each duel's log sealed as soon as it ends, so that a seal's reply can be lost too
            async with running_server(proxy.url, tmp_path, address_rate=100_000, seal_after=0.0) as server:
                url = url_of(server)
                # quick-match players who leave while waiting (their pairing's and their
                # leave's replies lost): never paired afterwards
                left: set[str] = set()
                for i in range(LEAVERS):
                    arm("pair")
                    seated, c = await quick_seat(url, f"L{i}", errors)
                    assert seated.seat == 0 and not seated.started
                    left.add(seated.match_id)
                    arm("leave")
                    await c.close()
                    # the server has handled the departure once the leave script ran (its
                    # waiter record is gone): only then is "never paired" promised
                    for _ in range(250):
                        if not await direct.hexists(keys.QUICK_WAITER, seated.match_id):
                            break
                        await asyncio.sleep(0.02)
                    assert not await direct.hexists(keys.QUICK_WAITER, seated.match_id)
                # quick-match players arriving together (pairing replies lost), and duels by
                # create + join (their replies lost)
                arm("pair")
                quick = await asyncio.gather(*(quick_seat(url, f"Q{i}", errors) for i in range(2 * QUICK_PAIRS)))
                duels = []
                for n in range(DUELS):
                    arm("create", "join", "hold")
                    duels.append(await start_duel(lambda: url, n, errors, seed=17))
                disarm("create", "join", "hold")
                arm("finish", "seal")  # the first duel to end loses both
                chaos_task = asyncio.create_task(chaos())
                stranded = 0
                players: list[Player] = []
                for i, (seated, c) in enumerate(quick):
                    try:
                        while c.view is None:
                            msg = await c.recv(timeout=30)
                            assert not isinstance(msg, Update) or msg.seq >= 1
                    except (*NETWORK_ERRORS,):
                        stranded += 1
                        continue
                    players.append(Player(lambda: url, seated, random.Random(i), f"q{i}", client=c))
                for a, b in duels:
                    players.extend((a, b))
                await asyncio.gather(*(p.play(timeout=120) for p in players))
                chaos_on = False
                await chaos_task
                arm("release")  # the first seat to go loses it
                for p in players:
                    await p.close()
                await asyncio.sleep(0.3)
                queue_left = await direct.zcard(keys.QUICK_QUEUE)
                records_left = await direct.hlen(keys.QUICK_WAITER) + await direct.hlen(keys.QUICK_JOINER)
                await direct.aclose()
        finally:
            await proxy.stop()

        seats = Counter((p.match_id, p.seat) for p in players)
        per_match = Counter(p.match_id for p in players)
        paired_with_leaver = sorted({p.match_id for p in players} & left)
        result = await audit(embedded.url, sorted(per_match), [a for p in players for a in p.acks])
        figures.update(
            replies_lost=len(proxy.dropped),
            replies_lost_by_script=dict(Counter(PATTERNS[p] for p in proxy.dropped)),
            duels_finished=sum(1 for p in players if p.finished) // 2,
            duels=len(per_match),
            stranded_players=stranded,
            seats_given_twice=sum(1 for n in seats.values() if n > 1),
            matches_without_two_players=sum(1 for n in per_match.values() if n != 2),
            paired_with_a_player_who_left=len(paired_with_leaver),
            quick_queue_left=queue_left,
            quick_records_left=records_left,
            client_errors=dict(errors + sum((p.errors for p in players), Counter())),
            update_before_accepted=sum(p.update_first for p in players),
            **result.figures(),
        )
        report("lost_replies", **figures)
        lost = Counter(PATTERNS[p] for p in proxy.dropped)
        for name in ("append", "create", "join", "hold", "release", "finish", "pair", "leave", "seal"):
            assert lost[name] > 0, f"no reply to {name} was lost: {dict(lost)}"
        assert stranded == 0
        assert figures["update_before_accepted"] == 0
        assert all(n == 1 for n in seats.values()), seats
        assert all(n == 2 for n in per_match.values()), per_match
        assert len(per_match) >= QUICK_PAIRS + DUELS
        assert not paired_with_leaver
        assert all(p.finished for p in players)
        assert queue_left == 0 and records_left == 0
        assert result.sealed == result.matches, "a seal whose reply was lost is sealed all the same"
        result.assert_clean()

    try:
        asyncio.run(body())
    finally:
        embedded.stop()
