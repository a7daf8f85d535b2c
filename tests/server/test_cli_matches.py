"""A match of several duels from the terminal (issue 39): `duel play --vs-bot --best-of 3` against
the server's bot (which sides nothing, keeps its deck and goes first when it chooses), the loser's
choice and a duel conceded typed at the terminal; `duel bot` plays a best of three to its end. A
real server process, real pseudo-terminals."""

from __future__ import annotations

import asyncio
import re
import subprocess
import sys
from collections.abc import Iterator

import pytest
from match_helpers import duel_started, until
from proc_helpers import ServeProcess
from term_helpers import REPO, Terminal

from protocol.messages import Accepted, CreateMatch, Seated
from server.clients.client import DuelClient

PROMPT = r"type a number \(h: help.*\n"
END = r"rematch\? .*\n"


@pytest.fixture(scope="module")
def server(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServeProcess]:
    with ServeProcess(tmp_path_factory.mktemp("serve"), "--redis-url", redis_url, "--bot-think", "0") as srv:
        yield srv


def concede_duel(t: Terminal) -> None:
    t.expect(PROMPT, 60)
    t.send("cd")
    t.expect("concede this duel \\(the match goes on\\)\\? type yes to confirm")
    t.send("yes")


def test_a_best_of_three_against_the_servers_bot_in_the_terminal(server: ServeProcess) -> None:
    args = ("play", "--vs-bot", "--auto-pass", "--best-of", "3", "--name", "Tester", "--url", server.url)
    with Terminal(*args) as t:
        t.expect(r"duel 1 of a best of 3")
        concede_duel(t)
        t.expect(r'duel 1 is over \(won by B "Bot"\) · A "Tester" 0 - 1 B "Bot" \(best of 3\)')
        t.expect(r"siding for duel 2 \(\d+ s; the opponent sees only your counts\)")
        t.expect("you lost: type first or second")
        t.send("s 1 1")
        t.expect("type s N M with N 1 to 40 and M 1 to 0")  # no Side Deck: nothing to swap
        t.send("second")
        t.send("d")
        t.expect(r'duel 2 begins: B "Bot" goes first · A "Tester" 0 - 1 B "Bot"')
        concede_duel(t)
        t.expect(r'MATCH OVER: B "Bot" wins \(score\) · A "Tester" 0 - 2 B "Bot" \(best of 3\)')
        out = t.expect(r"replay its duels: duel replay (\S+) · duel replay (\S+)")
        assert out.group(2) == out.group(1) + "-2"
        t.expect(END)
        t.send("n")
        assert t.wait(20) == 0
        assert "Traceback" not in t.output() and "refused" not in t.output()


def test_duel_bot_plays_a_best_of_three_to_its_end(server: ServeProcess) -> None:
    """`duel bot --join` in a best of three: it keeps its deck between duels (it is done siding at
    once) and prints the match's result; its opponent, a protocol client, gives up two duels."""

    async def body() -> str:
        a = await DuelClient.connect(server.url, "A")
        await a.send(CreateMatch(name="Ann", best_of=3))
        seated = await a.expect(Seated)
        bot = subprocess.Popen(
            [sys.executable, "-m", "server.cli", "bot", "--url", server.url, "--join", seated.match_id, "--quiet"],
            cwd=REPO,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        try:
            await until(a, lambda c: c.view is not None)
            await concede_duel_now(a)
            await until(a, lambda c: c.match is not None and c.match.phase == "siding")
            await until(a, lambda c: c.match is not None and c.match.ready[1])  # the bot is done at once
            assert a.match is not None and a.match.chooser == 0
            await a.choose_first(True)
            await a.keep_deck()
            await until(a, duel_started(2))
            await concede_duel_now(a)
            await until(a, lambda c: c.finished)
            # the bot kept its deck: its deck's hash is the same in both duels (A's too: A kept it)
            m = a.match
            assert m is not None and len(m.duels) == 2
            hashes = [d["deck_hashes"] for d in m.duels]
            assert hashes[0][1] == hashes[1][1] and hashes[0][0] == hashes[1][0]
            out, err = await asyncio.to_thread(bot.communicate, timeout=60)
            assert bot.returncode == 0 and not err.strip(), (out, err)
        finally:
            if bot.poll() is None:
                bot.kill()
                bot.wait()
        await a.close()
        return out

    out = asyncio.run(body())
    assert re.search(r"^result: match 1 \(score\), 0-2 — the bot played B in match \S+", out, re.M), out


async def concede_duel_now(c: DuelClient) -> None:
    reply = await c.concede_duel()
    assert isinstance(reply, Accepted), reply
