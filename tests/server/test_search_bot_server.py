"""The search bot over real websockets against a real ``duel serve`` process: the server's own
bot opponent with ``--bot-policy search-quick`` (its searches in the server's worker pool) and
``duel bot --policy search-quick`` joining a match, each played to a result by a greedy client."""

from __future__ import annotations

import asyncio
import random
import subprocess
import sys
from collections.abc import Iterator

import pytest
from proc_helpers import ServeProcess
from term_helpers import REPO

from protocol.messages import CreateMatch, Seated, Update
from server.clients.bot import greedy
from server.clients.client import DuelClient


@pytest.fixture(scope="module")
def server(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServeProcess]:
    with ServeProcess(
        tmp_path_factory.mktemp("serve"),
        "--redis-url",
        redis_url,
        "--bot-think",
        "0",
        "--bot-policy",
        "search-quick",
        "--search-workers",
        "1",
    ) as srv:
        yield srv


async def play_out(me: DuelClient, seed: int) -> None:
    """Play greedy until the duel ends."""
    rnd = random.Random(seed)
    while me.view is None:
        await me.expect(Update, timeout=30)
    while not me.finished:
        if me.legal:
            await me.act(greedy(me.view, me.legal, rnd), timeout=30)
        else:
            me.changed.clear()
            await asyncio.wait_for(me.changed.wait(), 30)


def test_the_servers_own_bot_searches_and_plays_to_a_result(server: ServeProcess) -> None:
    async def body() -> None:
        me = await DuelClient.connect(server.url, "me")
        await me.send(CreateMatch(opponent="bot", name="Me"))
        await me.expect(Seated)
        await play_out(me, 1)
        assert me.view is not None and me.view["winner"] in (0, 1, "draw")
        bot_actions = [m for m in me.inbox if isinstance(m, Update) and any(f.get("seat") == 1 for f in m.facts)]
        assert bot_actions  # the bot acted
        await me.close()

    asyncio.run(body())


def test_duel_bot_with_the_search_policy_joins_and_plays_to_a_result(server: ServeProcess) -> None:
    async def body() -> tuple[str, str, int]:
        me = await DuelClient.connect(server.url, "me")
        await me.send(CreateMatch(name="Me"))
        seated = await me.expect(Seated)
        command = ["bot", "--url", server.url, "--join", seated.match_id, "--quiet", "--policy", "search-quick"]
        bot = subprocess.Popen(
            [sys.executable, "-m", "server.cli", *command, "--seed", "3"],
            cwd=REPO,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        try:
            await play_out(me, 2)
            out, err = await asyncio.to_thread(bot.communicate, timeout=120)
            return out, err, bot.returncode
        finally:
            if bot.poll() is None:
                bot.kill()
                bot.wait()
            await me.close()

    out, err, code = asyncio.run(body())
    assert code == 0 and not err.strip(), (out, err)
    assert out.startswith("result: "), out
