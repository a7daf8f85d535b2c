"""Serve a scenario file's position as a match (a puzzle): ``duel scenario --serve FILE``.

The match's genesis entry is the scenario's ``setup`` fact (from
``engine.scenario.build_setup``), with the scenario itself as the entry's
action so that ``duel verify`` can rebuild it.  Both seats are taken at
creation; the command prints the two ``duel play --reconnect TOKEN`` commands
(any client may send ``reconnect`` with those tokens, see PROTOCOL.md).

**The goal.** A scenario is a position, a script of actions and expectations
along the way. Served as a puzzle, the players make the moves instead of the
script, so the script's actions are not enforced; what is checked is the
scenario's ``expect`` steps: each must hold at some entry of the played duel,
in the scenario's order (an expectation about a moment, such as
``damage_step`` or ``waiting_for``, is checked against every position the
duel went through, with the scenario's labels naming the same cards). When the
duel ends the command says whether the goal was met, and if not, which
expectation never held and how the final position differs from it.
``illegal`` and ``pass_until`` steps are part of the script, not of the goal.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import secrets
import signal
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from server import rules
from server.process.app import DuelServer
from server.process.config import ServerConfig
from server.storage import keys
from server.storage.entry import genesis_format


async def create_puzzle_match(server: DuelServer, doc: dict[str, Any]) -> tuple[str, list[str]]:
    """A started match at the scenario's position; its id and the two seat tokens."""
    rules.scenario_setup(doc)  # refuse a broken scenario before creating anything
    match_id = keys.new_match_id()
    fmt = genesis_format({"do": "scenario", "scenario": doc})
    await server.directory.create(match_id, secrets.token_urlsafe(18), [], spectators=True, quick=False, fmt=fmt)
    if await server.directory.join(match_id, secrets.token_urlsafe(18), []) != "ok":  # pragma: no cover
        raise RuntimeError("seat 1 of a fresh match was taken")
    action = {"do": "scenario", "name": str(doc.get("name", "")), "scenario": doc}
    await server.service.genesis(match_id, action, lambda: rules.scenario_setup(doc))
    return match_id, [server.tokens.issue(match_id, 0), server.tokens.issue(match_id, 1)]


@dataclass
class GoalReport:
    met: bool | None  # None: nothing to check
    text: str


def expectations(doc: dict[str, Any]) -> list[tuple[int, dict[str, Any]]]:
    """The scenario's ``expect`` steps: (step index, the expectation)."""
    out = []
    for idx, step in enumerate(doc.get("steps") or []):
        if isinstance(step, dict) and isinstance(step.get("expect"), dict):
            out.append((idx, step["expect"]))
    return out


def goal_report(doc: dict[str, Any], entries: list[list[rules.Fact]]) -> GoalReport:
    """Did the played duel (each entry's facts, genesis first) meet the scenario's expectations,
    each at some entry and in order?"""
    from server.rules import ScenarioError
    from server.rules import ScenarioRunner as Runner

    wanted = expectations(doc)
    if not wanted:
        return GoalReport(None, "the scenario states no expectations, so there is no goal to check")
    try:
        runner = Runner(doc)
        if not entries or entries[0] != runner.entries[0]:
            return GoalReport(None, "the match did not start from this scenario's position; the goal cannot be checked")
        state: rules.State | None = None
        reached: list[int] = []
        for seq, facts in enumerate(entries, start=1):
            state = rules.fold(facts, state)
            runner.state, runner.entries = state, entries[:seq]
            while len(reached) < len(wanted) and runner.expect(*wanted[len(reached)], quiet=True) is None:
                reached.append(seq)
        n = len(wanted)
        if len(reached) == n:
            at = ", ".join(str(s) for s in reached)
            return GoalReport(True, f"goal met: the scenario's {n} expectation(s) held, in order (at entries {at})")
        idx, exp = wanted[len(reached)]
        why = runner.expect(idx, exp)
        return GoalReport(
            False,
            f"goal not met: expectation {len(reached) + 1} of {n} (step {idx} of the scenario) never held "
            f"after the ones before it; at the end: {why}",
        )
    except (ScenarioError, KeyError, TypeError, ValueError) as exc:
        return GoalReport(None, f"the goal cannot be checked: {exc}")


def serve_puzzle(args: argparse.Namespace, path: Path) -> int:
    from server.cli.args import redis_target
    from server.cli.serve import port_problem
    from server.runtime.logs import configure

    try:
        doc = yaml.safe_load(path.read_text("utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        print(f"error: cannot read {path}: {exc}", file=sys.stderr)
        return 2
    if not isinstance(doc, dict):
        print(f"error: {path}: not a scenario file", file=sys.stderr)
        return 2
    problem = port_problem(args.host, args.port)
    if problem is not None:
        print(f"error: {problem}", file=sys.stderr)
        return 1
    configure("info")
    config = ServerConfig(host=args.host, port=args.port, data_dir=args.data_dir)
    with redis_target(args, announce=True) as url:

        async def serve() -> None:
            server = await DuelServer(config, url).start()
            match_id, tokens = await create_puzzle_match(server, doc)
            ws = f"ws://{config.host if config.host not in ('0.0.0.0', '::', '') else '127.0.0.1'}:{server.port}"
            print(f"duel server listening on {ws}", flush=True)
            print(f"puzzle {doc.get('name', path.name)!r}: match {match_id}", flush=True)
            for seat, token in enumerate(tokens):
                print(f"  player {'AB'[seat]}: duel play --reconnect {token} --url {ws}", flush=True)
            print(f"  (or let a bot play a seat: duel bot --reconnect TOKEN --url {ws})", flush=True)
            n = len(expectations(doc))
            if n:
                print(
                    f"goal: the scenario's {n} expectation(s), in order, checked against the duel as it "
                    "is played (its scripted actions are not enforced); the verdict comes when the duel ends",
                    flush=True,
                )
            else:
                print("goal: none (the scenario states no expectations)", flush=True)
            stop = asyncio.Event()
            loop = asyncio.get_running_loop()
            for sig in (signal.SIGTERM, signal.SIGINT):
                with contextlib.suppress(NotImplementedError):
                    loop.add_signal_handler(sig, stop.set)
            watcher = asyncio.create_task(watch_goal(server, match_id, doc, stop))
            await stop.wait()
            if not watcher.done():
                watcher.cancel()
                print("stopped before the duel ended", flush=True)
            await server.stop()

        asyncio.run(serve())
    return 0


async def watch_goal(server: DuelServer, match_id: str, doc: dict[str, Any], stop: asyncio.Event) -> None:
    """Follow the match's log; when the duel ends, print the result and the goal's verdict."""
    seen = 0
    while not stop.is_set():
        await asyncio.sleep(0.3)
        try:
            last = await server.store.last_seq(match_id)
            if last == seen:
                continue
            seen = last
            log = await server.store.read(match_id)
        except Exception:  # the store is briefly unreachable: look again later
            continue
        state: rules.State | None = None
        for entry in log:
            state = rules.fold(entry.facts, state)
        winner = rules.winner(state) if state is not None else None
        if winner is None:
            continue
        who = "a draw" if winner == "draw" else f"{'AB'[int(winner)]} wins"
        print(f"the duel is over ({who}, entry {log[-1].seq}); replay: duel replay {match_id}", flush=True)
        report = goal_report(doc, [e.facts for e in log])
        print(f"puzzle {report.text}", flush=True)
        return
