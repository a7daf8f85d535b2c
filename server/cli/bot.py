"""``duel bot``: a bot that takes a seat over the protocol and plays it to the end.

    duel bot --join MATCH_ID           # take the free seat of a match
    duel bot --quick                   # pair with the next waiting player (or wait for one)
    duel bot --reconnect TOKEN         # take a bot's seat back

It sees what any client sees (its view and its legal actions) and picks with a policy of
``server/clients/bot.py``: ``greedy`` (uses its cards, summons its strongest monster, attacks where it
wins), ``random`` (any legal action) or ``curious`` (``server/clients/curious.py``: plays its deck's
cards willingly, preferring an action that uses a card it has not activated or summoned yet; it
reads the card catalogue, and its deck's Fusion Deck when ``--deck`` names it, to learn which
monsters lead to a Fusion Monster it has not summoned), or ``search`` (docs/search.md: it
searches the engine for its move in worlds drawn from what its view allows, 0.5 s per decision;
``search-quick`` 0.1 s, ``search-strong`` 1.5 s). It prints the story of the duel, one line per event
(``--quiet``: the result only), and the result; failures are one line and a non-zero exit status.
To play against the bot without a second command, use ``duel play --vs-bot``.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from typing import Any

from server.cli.args import name_arg
from server.clients.terminal.conn import DEFAULT_URL, CliError


def register(sub: Any) -> None:
    from server.clients.bot import POLICIES

    p: argparse.ArgumentParser = sub.add_parser(
        "bot", help="a bot that plays a seat over the protocol (join a match, the quick queue, or resume)"
    )
    p.add_argument("--url", default=DEFAULT_URL, help=f"the duel server's websocket address (default: {DEFAULT_URL})")
    how = p.add_mutually_exclusive_group(required=True)
    how.add_argument("--join", metavar="MATCH_ID", help="take the free seat of a match")
    how.add_argument("--quick", action="store_true", help="pair with the next waiting player, or wait for one")
    how.add_argument("--reconnect", metavar="TOKEN", help="take a seat back with its token")
    p.add_argument(
        "--policy", choices=sorted(POLICIES), default="greedy", help="how it picks its actions (default: greedy)"
    )
    p.add_argument(
        "--think",
        type=float,
        default=0.0,
        metavar="SECONDS",
        help="about this long per decision (0.5x to 1.5x; default 0: at once)",
    )
    p.add_argument(
        "--seed", type=int, default=None, help="random seed of its choices (the same seed, the same choices)"
    )
    p.add_argument("--deck", metavar="NAME", help="a demo deck by name (default: the server's demo deck for its seat)")
    p.add_argument("--name", type=name_arg, default="Bot", help="its display name (default: Bot)")
    p.add_argument("-q", "--quiet", action="store_true", help="print the result only")
    p.add_argument(
        "--give-up-after",
        type=float,
        default=30.0,
        metavar="SECONDS",
        help="how long to try to get a lost connection back (default: 30)",
    )
    p.set_defaults(func=run)


def run_policy(args: argparse.Namespace, *, policy: str, think: float, quiet: bool) -> int:
    from server.clients.terminal.botloop import bot_main

    if think < 0:
        print("error: --think must be 0 or more seconds", file=sys.stderr)
        return 2
    try:
        return asyncio.run(bot_main(args, policy, think, quiet, lambda line: print(line, flush=True)))
    except CliError as exc:
        print(f"error: {exc.message}", file=sys.stderr, flush=True)
        return exc.status
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr, flush=True)
        return 130
    except Exception as exc:  # never a traceback at the user
        print(f"error: unexpected failure: {type(exc).__name__}: {exc}", file=sys.stderr, flush=True)
        return 1


def run(args: argparse.Namespace) -> int:
    return run_policy(args, policy=args.policy, think=args.think, quiet=args.quiet)
