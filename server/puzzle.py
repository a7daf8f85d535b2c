"""Serve a scenario file's position as a match (a puzzle): ``duel scenario --serve FILE``.

The match's genesis entry is the scenario's ``setup`` fact (from
``engine.scenario.build_setup``), with the scenario itself as the entry's
action so that ``duel verify`` can rebuild it.  Both seats are taken at
creation; the two players connect and send ``reconnect`` with the tokens the
command prints (see PROTOCOL.md).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import secrets
import signal
from pathlib import Path
from typing import Any

import yaml

from server import keys, rules
from server.app import DuelServer
from server.config import ServerConfig


async def create_puzzle_match(server: DuelServer, doc: dict[str, Any]) -> tuple[str, list[str]]:
    """A started match at the scenario's position; its id and the two seat tokens."""
    rules.scenario_setup(doc)  # refuse a broken scenario before creating anything
    match_id = keys.new_match_id()
    await server.directory.create(match_id, secrets.token_urlsafe(18), [], spectators=True, quick=False)
    if await server.directory.join(match_id, secrets.token_urlsafe(18), []) != "ok":  # pragma: no cover
        raise RuntimeError("seat 1 of a fresh match was taken")
    action = {"do": "scenario", "name": str(doc.get("name", "")), "scenario": doc}
    await server.service.genesis(match_id, action, lambda: rules.scenario_setup(doc))
    return match_id, [server.tokens.issue(match_id, 0), server.tokens.issue(match_id, 1)]


def serve_puzzle(args: argparse.Namespace, path: Path) -> int:
    from server.cliutil import redis_target
    from server.logs import configure

    doc = yaml.safe_load(path.read_text("utf-8"))
    if not isinstance(doc, dict):
        print(f"{path}: not a scenario file")
        return 2
    configure("info")
    config = ServerConfig(host=args.host, port=args.port, data_dir=args.data_dir)
    with redis_target(args, announce=True) as url:

        async def serve() -> None:
            server = await DuelServer(config, url).start()
            match_id, tokens = await create_puzzle_match(server, doc)
            print(f"duel server listening on ws://{config.host}:{server.port}", flush=True)
            print(f"puzzle {doc.get('name', path.name)!r}: match {match_id}", flush=True)
            for seat, token in enumerate(tokens):
                print(f"  seat {'AB'[seat]}: send reconnect with token {token}", flush=True)
            stop = asyncio.Event()
            loop = asyncio.get_running_loop()
            for sig in (signal.SIGTERM, signal.SIGINT):
                with contextlib.suppress(NotImplementedError):
                    loop.add_signal_handler(sig, stop.set)
            await stop.wait()
            await server.stop()

        asyncio.run(serve())
    return 0
