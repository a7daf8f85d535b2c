"""The terminal clients, driven through a pseudo-terminal against a real ``duel serve`` process
(real Redis, real websockets): ``duel play`` as a person types it, ``duel bot`` against ``duel
bot``, and the command-line failures a newcomer runs into, each one line and a non-zero exit.
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from proc_helpers import ServeProcess
from term_helpers import REPO, Terminal, run_to_end

from engine import CARDS
from engine.decks import DECKS_BY_NAME
from protocol.messages import CreateMatch, Join, Seated, Update
from server.clients.client import DuelClient

PROMPT = r"type a number \(h: help.*\n"
END = r"rematch\? .*\n"


@pytest.fixture(scope="module")
def server(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServeProcess]:
    """One `duel serve` for the module: its bot answers at once (--bot-think 0)."""
    with ServeProcess(tmp_path_factory.mktemp("serve"), "--redis-url", redis_url, "--bot-think", "0") as srv:
        yield srv


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def one_error_line(rc: int, out: str) -> str:
    lines = [line for line in out.splitlines() if line.strip()]
    assert rc != 0, out
    assert "Traceback" not in out and "Exception" not in out, out
    assert len(lines) == 1 and lines[0].startswith("error: "), out
    return lines[0]


# ------------------------------------------------------------------ menus, as a player reads them

PREFERENCE = (
    "Attack ",
    "Normal Summon",
    "Tribute Summon",
    "Enter the Battle Phase",
    "Go to the Standby Phase",
    "Go to Main Phase 1",
    "End the Battle Phase",
    "End the turn",
    "Finish the turn",
    "Pass",
)


def last_menu(t: Terminal) -> list[tuple[int, str]]:
    """The numbered entries of the menu on screen (after the last question)."""
    text = t.output()[: t.mark]
    lines = text[: text.rfind("type a number (h: help")].splitlines()
    menu: list[tuple[int, str]] = []
    for line in reversed(lines):
        m = re.match(r"^\s+(\d+)\. (.*)$", line)
        if m is None:
            break
        menu.insert(0, (int(m.group(1)), m.group(2)))
    return menu


def pick(menu: list[tuple[int, str]]) -> int:
    """What a keen beginner types: attack, summon, go to battle, else move on."""
    for prefix in PREFERENCE:
        for n, label in menu:
            if label.startswith(prefix):
                return n
    return menu[0][0]


def entry_of(t: Terminal) -> int:
    """The entry (seq) the last menu was made against."""
    found = re.findall(r"· entry (\d+)", t.output()[: t.mark])
    return int(found[-1]) if found else 0


# ------------------------------------------------------------------ failures


def test_every_failure_is_one_line_and_a_non_zero_exit(server: ServeProcess, redis_url: str) -> None:
    async def full_match() -> str:
        a = await DuelClient.connect(server.url, "A")
        b = await DuelClient.connect(server.url, "B")
        await a.send(CreateMatch())
        seated = await a.expect(Seated)
        await b.send(Join(match_id=seated.match_id))
        await b.expect(Seated)
        await a.close()
        await b.close()
        return seated.match_id

    full = asyncio.run(full_match())
    nowhere = f"ws://127.0.0.1:{free_port()}"
    cases = {
        "no server": (["play", "--vs-bot", "--url", nowhere], "no duel server at"),
        "http url": (["play", "--vs-bot", "--url", server.url.replace("ws://", "http://")], "must start with ws://"),
        "not a url": (["play", "--quick", "--url", "localhost"], "bad --url"),
        "unknown host": (["play", "--quick", "--url", "ws://no-such-host.invalid:8765"], "cannot find the host"),
        "unknown match": (["play", "--join", "NoSuchMatch42", "--url", server.url], "there is no match NoSuchMatch42"),
        "full match": (["play", "--join", full, "--url", server.url], f"match {full} is full"),
        "bad token": (["play", "--reconnect", "v1.abc.0.forged", "--url", server.url], "refused the token"),
        "unknown deck": (["play", "--vs-bot", "--deck", "no-such-deck", "--url", server.url], "no demo deck called"),
        "spectate unknown": (["play", "--spectate", "NoSuchMatch42", "--url", server.url], "there is no match"),
        "bot, unknown match": (["bot", "--join", "NoSuchMatch42", "--url", server.url], "there is no match"),
        "bot, no server": (["bot", "--quick", "--url", nowhere], "no duel server at"),
        "bot, bad token": (["bot", "--reconnect", "v1.abc.1.forged", "--url", server.url], "refused the token"),
    }
    terms = {name: Terminal(*args) for name, (args, _) in cases.items()}
    try:
        for name, (_, expected) in cases.items():
            t = terms[name]
            rc = t.wait(30)
            line = one_error_line(rc, t.output())
            assert expected in line, (name, line)
    finally:
        for t in terms.values():
            t.close()


def test_a_restarted_server_is_rejoined_and_a_lost_one_is_one_line(redis_url: str, tmp_path: Path) -> None:
    """The server restarts (drains, comes back on the same port): the client takes its seat back
    by itself and plays on. The server dies for good: one line with the command to resume."""
    port = str(free_port())
    args = ("--redis-url", redis_url, "--port", port)
    with (
        ServeProcess(tmp_path / "serve", *args) as srv,
        Terminal("play", "--create", "--url", srv.url, "--give-up-after", "4") as t,
    ):
        m = t.expect(r"they type: duel play --join (\S+)")
        restarted: ServeProcess | None = None
        bot = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "server.cli",
                "bot",
                "--join",
                m.group(1),
                "--url",
                srv.url,
                "--give-up-after",
                "20",
            ],
            cwd=REPO,
            stdout=(tmp_path / "bot.out").open("w"),
            stderr=subprocess.STDOUT,
        )
        try:
            t.expect(PROMPT)
            token = re.search(r"duel play --reconnect (\S+)", t.output())
            assert token is not None
            before = entry_of(t)
            srv.stop(signal.SIGTERM)
            t.expect("the server is going away")
            t.expect("connection lost; reconnecting")
            srv = restarted = ServeProcess(tmp_path / "serve2", *args).start()
            t.expect("-- reconnected")
            t.expect(PROMPT)
            assert entry_of(t) == before
            for _ in range(3):  # the bot is back too: the duel goes on
                t.send(str(pick(last_menu(t))))
                t.expect(PROMPT)
            assert entry_of(t) > before + 3 and "refused" not in t.output()
            assert "-- reconnected" in (tmp_path / "bot.out").read_text()
            srv.stop(signal.SIGKILL)
            t.expect("connection lost")
            rc = t.wait(30)
            after = t.output()[t.mark :]
            assert rc == 1 and "Traceback" not in t.output()
            errors = [line for line in after.splitlines() if line.startswith("error:")]
            assert len(errors) == 1 and f"--reconnect {token.group(1)}" in errors[0], after
            assert after.strip().splitlines()[-1] == errors[0]
        finally:
            bot.kill()
            bot.wait()
            if restarted is not None:
                restarted.__exit__()


def test_the_help_documents_the_url_and_its_default() -> None:
    rc, out = run_to_end("play", "--help")
    assert rc == 0 and "--url URL" in out and "default: ws://127.0.0.1:8765" in " ".join(out.split())
    assert "--auto-pass" in out and "--vs-bot" in out and "--spectate" in out and "--list" in out
    rc, out = run_to_end("bot", "--help")
    policies = "--policy {curious,greedy,random,search,search-quick,search-strong}"
    assert rc == 0 and policies in out and "--think SECONDS" in out and "--deck NAME" in out


def test_serve_on_a_busy_port_is_one_line(redis_url: str, tmp_path: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        rc, out = run_to_end("serve", "--port", str(port), "--redis-url", redis_url, cwd=tmp_path)
    assert "already in use" in one_error_line(rc, out)


# ------------------------------------------------------------------ playing


def test_a_duel_against_the_servers_bot_typed_in_the_terminal(server: ServeProcess) -> None:
    """`duel play --vs-bot`: the story, the board with stats and both Graveyards, the plain-words
    question, a menu without duplicates, help, card text, the waiting line, and the end."""
    with Terminal("play", "--vs-bot", "--auto-pass", "--name", "Tester", "--clock", "5", "--url", server.url) as t:
        t.expect(PROMPT)
        out = t.output()
        match_id = re.search(r"match (\S+): you are A", out)
        assert match_id is not None and "the server's bot takes seat B" in out
        assert "Duel starts" in out and "hand (5):" in out and re.search(r"Lv\d, ATK \d+ / DEF \d+", out)
        assert re.search(r'A "Tester" \(you\): LP 8000 · hand 5 · deck 35 · clock [45]:\d\d', out)
        t.send("t")
        t.expect(r'clocks: A "Tester" [45]:\d\d \(running\) · B "Bot" 5:00')
        t.send("h")
        t.expect(r"\? N\s+the text of the card")
        t.send("? Honest")
        honest = next(c for c in CARDS.values() if c.name == "Honest")
        t.expect(re.escape(honest.text.split(":")[0]))
        moves = 0
        asked_card = False
        while True:
            if moves:
                m = t.expect(f"({PROMPT})|({END})", 60)
                if m.group(2):
                    break
            menu = last_menu(t)
            labels = [label for _, label in menu]
            assert len(set(labels)) == len(labels), labels
            if not asked_card:
                summon = next(((n, lbl) for n, lbl in menu if lbl.startswith("Normal Summon ")), None)
                if summon is not None:
                    name = re.sub(r" \[.*\]$", "", summon[1][len("Normal Summon ") :])
                    t.send(f"? {summon[0]}")
                    card = next(c for c in CARDS.values() if c.name == name)
                    t.expect(re.escape(f"{card.name} (") + r".*ATK " + str(card.atk))
                    asked_card = True
            t.send(str(pick(menu)))
            moves += 1
            assert moves < 300
        out = t.output()
        assert asked_card, out[-6000:]
        assert re.search(r'waiting for B "Bot": ', out)
        assert 'B "Bot" (opponent, connected)' in out
        assert out.count("graveyard (") >= 2 and out.count("banished (") >= 2
        assert re.search(r"RESULT: you (win|lose) \(", out)
        assert f"duel replay {match_id.group(1)}" in out
        assert "refused" not in out
        t.send("y")  # the rematch: a new duel against the bot
        again = t.expect(r"match (\S+): you are A")
        assert again.group(1) != match_id.group(1)
        t.expect(PROMPT)
        t.send("c")
        t.expect("type yes to confirm")
        t.send("yes")
        t.expect(r"RESULT: you lose \(a player conceded\)")
        t.expect(END)
        t.send("n")
        assert t.wait(20) == 0
        assert "Traceback" not in t.output()


def test_reconnect_in_a_new_process_and_play_on(server: ServeProcess) -> None:
    """The seat's token resumes it in another process, and its moves are accepted (client
    action ids never collide with the first process's)."""
    with Terminal("play", "--vs-bot", "--url", server.url) as first:
        first.expect(PROMPT)
        token = re.search(r"duel play --reconnect (\S+)", first.output())
        assert token is not None
        for _ in range(4):
            first.send(str(pick(last_menu(first))))
            first.expect(PROMPT)
        before = entry_of(first)
        first.send("q")
        first.expect("your seat is kept")
        assert first.wait(20) == 0
    assert before > 1
    with Terminal("play", "--reconnect", token.group(1), "--url", server.url) as again:
        again.expect(PROMPT)
        seen = entry_of(again)
        assert seen >= before
        for _ in range(6):
            again.send(str(pick(last_menu(again))))
            m = again.expect(f"({PROMPT})|({END})", 30)
            if m.group(2):
                break
            now = entry_of(again)
            assert now > seen, again.output()[-2000:]
            seen = now
        assert "refused" not in again.output() and "id_reused" not in again.output()
        if "rematch?" not in again.output():
            again.send("c")
            again.expect("type yes to confirm")
            again.send("yes")
            again.expect(r"RESULT: you lose \(a player conceded\)")
            again.expect(END)
        again.send("n")
        assert again.wait(20) == 0


def test_watch_a_match_and_list_the_live_and_finished_ones(server: ServeProcess) -> None:
    with Terminal("play", "--vs-bot", "--name", "Watched", "--url", server.url) as player:
        player.expect(PROMPT)
        match_id = re.search(r"match (\S+): you are A", player.output())
        assert match_id is not None
        mid = match_id.group(1)
        rc, listing = run_to_end("play", "--list", "--url", server.url)
        assert rc == 0
        live = listing.split("finished matches")[0]
        assert re.search(rf"{re.escape(mid)}\s+Watched vs Bot\s+playing", live), listing
        assert f"duel play --spectate {mid}" in live
        with Terminal("play", "--spectate", mid, "--url", server.url) as watcher:
            watcher.expect(f"watching match {re.escape(mid)}")
            watcher.expect(r"== Turn 1 ")
            player.send("c")
            player.expect("type yes to confirm")
            player.send("yes")
            player.expect(END)
            player.send("n")
            watcher.expect(r'RESULT: B "Bot" wins \(a player conceded\)')
            watcher.expect(f"duel replay {re.escape(mid)}")
            assert watcher.wait(20) == 0
            assert "Traceback" not in watcher.output()
        assert player.wait(20) == 0
    rc, listing = run_to_end("play", "--list", "--url", server.url)
    finished = listing.split("finished matches")[1]
    assert re.search(rf"{re.escape(mid)}\s+Watched vs Bot\s+B \(Bot\) won", finished), listing
    assert f"duel replay {mid}" in finished


def test_duel_bot_against_duel_bot_reaches_a_result(server: ServeProcess) -> None:
    """Two `duel bot --quick` processes pair, play to a result and agree on it; one (the curious
    policy, which reads the catalogue for its deck) prints the story (one line per event) with
    the demo deck it was given, the other only the result."""
    deck = next(d for d in DECKS_BY_NAME.values() if d.public)
    env_args = ["--url", server.url, "--quick"]
    procs = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "server.cli",
                "bot",
                *env_args,
                "--seed",
                str(i),
                "--name",
                f"Bot{i}",
                "--policy",
                ("curious", "random")[i],
                "--think",
                "0",
                *(["--quiet"] if i else ["--deck", deck.name]),
            ],
            cwd=REPO,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for i in range(2)
    ]
    outs = []
    try:
        for p in procs:
            out, err = p.communicate(timeout=120)
            assert p.returncode == 0 and not err.strip(), (out[-2000:], err)
            outs.append(out)
    finally:
        for p in procs:
            p.kill()
            p.wait()
    results = [re.search(r"^result: (.*)$", out, re.M) for out in outs]
    assert all(results), outs
    assert "Duel starts" in outs[0] and "=== Duel over" in outs[0]  # one line per event
    seat = "AB"[int("as B;" in outs[0])]
    drawn = set(re.findall(rf'^  {seat} draws "(.*)"$', outs[0], re.M))
    assert drawn and drawn <= {CARDS[code].name for code in deck.codes()}
    assert outs[1].strip().splitlines() == [results[1].group(0)]  # type: ignore[union-attr]  # --quiet
    ids = {re.search(r"in match (\S+) ", out).group(1) for out in outs}  # type: ignore[union-attr]
    assert len(ids) == 1
    winners = [("you win" in r.group(1)) for r in results if r is not None]
    assert sorted(winners) == [False, True] or all("draw" in r.group(1) for r in results if r is not None)


# ------------------------------------------------------------------ replay from the wrong folder


def test_replay_elsewhere_says_where_it_looked_and_a_closed_pipe_is_quiet(
    server: ServeProcess, redis_url: str, tmp_path: Path
) -> None:
    rc, out = run_to_end("replay", "SomeMatch", cwd=tmp_path, env={"REDIS_URL": ""})
    line = one_error_line(rc, out)
    assert str(tmp_path / "var") in line and "--redis-url" in line
    assert not (tmp_path / "var").exists()

    async def finished_match() -> str:
        a = await DuelClient.connect(server.url, "A")
        await a.send(CreateMatch(opponent="bot"))
        seated = await a.expect(Seated)
        while a.view is None:
            await a.expect(Update, timeout=20)
        await a.act({"do": "concede"})
        await a.close()
        return seated.match_id

    mid = asyncio.run(finished_match())
    rc, out = run_to_end("replay", "NoSuchMatch", "--redis-url", redis_url, cwd=tmp_path)
    assert "no match NoSuchMatch in the Redis at" in one_error_line(rc, out)
    for reader in ("head -n 2", "true"):
        done = subprocess.run(
            f"{sys.executable} -m server.cli replay {mid} --redis-url {redis_url} | {reader}",
            shell=True,
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=60,
            env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"},
        )
        assert done.stderr == "", done.stderr
        assert len(done.stdout.splitlines()) <= 2


# ------------------------------------------------------------------ puzzles


def test_a_puzzle_prints_the_commands_to_play_it_and_whether_its_goal_was_met(redis_url: str, tmp_path: Path) -> None:
    """`duel scenario --serve`: the printed `duel play --reconnect` command is typed as is; A makes
    the scenario's attack, the bot plays B; when the duel ends the goal's verdict is printed."""
    scenario = REPO / "tests" / "scenarios" / "cards" / "elemental_hero_flame_wingman.yaml"
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "server.cli",
            "scenario",
            "--serve",
            str(scenario),
            "--port",
            "0",
            "--redis-url",
            redis_url,
        ],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=(tmp_path / "puzzle.log").open("w"),
        text=True,
        env={**os.environ, "PYTHONPATH": str(REPO), "DUEL_SECRET": "puzzle-test-secret-0123456789"},
    )
    assert proc.stdout is not None
    try:
        lines: list[str] = []
        while not any(line.startswith("goal:") for line in lines):
            line = proc.stdout.readline()
            assert line, (lines, (tmp_path / "puzzle.log").read_text()[-2000:])
            lines.append(line.rstrip("\n"))
        commands = [
            m.group(1)
            for m in (re.search(r"player [AB]: (duel play --reconnect \S+ --url \S+)$", x) for x in lines)
            if m
        ]
        assert len(commands) == 2, lines
        assert "goal: the scenario's 3 expectation(s)" in lines[-1]
        bot_args = commands[1].split()[1:]
        bot_args[0] = "bot"
        bot = subprocess.Popen(
            [sys.executable, "-m", "server.cli", *bot_args, "--quiet"],
            cwd=REPO,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        with Terminal(*commands[0].split()[1:], "--auto-pass") as a:
            a.expect(PROMPT)
            attack = next(n for n, label in last_menu(a) if label.startswith("Attack the opponent's Vorse Raider"))
            a.send(str(attack))
            a.expect(r"LP -1900 \(by an effect\) -> 5900")
            a.expect(PROMPT)
            a.send("c")
            a.expect("type yes to confirm")
            a.send("yes")
            a.expect(END)
            a.send("n")
            assert a.wait(20) == 0
        try:
            out, err = bot.communicate(timeout=30)
        finally:
            bot.kill()
        assert bot.returncode == 0 and "result: you win" in out, (out, err)
        verdict = ""
        while "goal" not in verdict:
            verdict = proc.stdout.readline()
            assert verdict
        assert verdict.startswith("puzzle goal met: the scenario's 3 expectation(s) held, in order"), verdict
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(30)


# ------------------------------------------------------------------ a lost answer


def test_a_seat_request_whose_answer_is_lost_is_retried_with_its_request_id(redis_url: str, tmp_path: Path) -> None:
    """A proxy passes `create_match` to the server, drops the answer and the connection: the
    client asks again with the same request id and gets the match the first request made."""
    from duel_helpers import running_server

    from server.clients.terminal.conn import new_request_id, take_seat

    async def body() -> None:
        async with running_server(redis_url, tmp_path) as server:
            connections: list[int] = []

            async def proxy(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
                first = not connections
                connections.append(1)
                up_reader, up_writer = await asyncio.open_connection("127.0.0.1", server.port)
                hold = asyncio.Event()

                async def upstream() -> None:
                    chunks = 0
                    while data := await reader.read(65536):
                        chunks += 1
                        if first and chunks == 3:  # the upgrade request, hello, then create_match
                            hold.set()  # from now on nothing reaches the client
                        up_writer.write(data)
                        await up_writer.drain()
                        if hold.is_set():
                            await asyncio.sleep(0.5)  # the server creates the match and answers...
                            break
                    writer.close()
                    up_writer.close()

                async def downstream() -> None:
                    while data := await up_reader.read(65536):
                        if not hold.is_set():
                            writer.write(data)
                            await writer.drain()
                    writer.close()

                await asyncio.gather(upstream(), downstream(), return_exceptions=True)

            relay = await asyncio.start_server(proxy, "127.0.0.1", 0)
            port = relay.sockets[0].getsockname()[1]
            name = f"R{new_request_id()[:8]}"
            request = CreateMatch(name=name, request_id=new_request_id())
            seat = await take_seat(f"ws://127.0.0.1:{port}", "t", request)
            assert len(connections) == 2
            assert seat.match_id == server.tokens.match_id_for(request.request_id or "")
            assert server.tokens.verify(seat.token).seat == 0
            rows = await server.directory.listing("live", 200, None)
            assert [r.match_id for r in rows if r.names[0] == name] == [seat.match_id]  # one match, not two
            await seat.client.close()
            relay.close()

    asyncio.run(body())
