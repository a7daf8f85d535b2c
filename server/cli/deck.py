"""``duel deck check --format goat FILE.ydk ...``: is a deck list legal in a format?

Each FILE is a ``.ydk`` file (``#main``/``#extra``/``!side``; docs/formats.md), or a
``ydke://`` address given in place of a file. Every problem is printed on its own line (the
sizes, a card in the wrong part of the deck, a Forbidden/Limited card over its limit, a card out
of the format's pool or not supported by the engine yet), then one line per list saying whether
it is legal. Exit status: 0 when every list is legal, 1 when one has problems, 2 when a file
cannot be read or the format is unknown.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser("deck", help="deck lists: check one against a format")
    what = p.add_subparsers(dest="deck_command", metavar="COMMAND", required=True)
    c: argparse.ArgumentParser = what.add_parser(
        "check", help="check .ydk deck lists (or ydke:// addresses) against a format's deck rules"
    )
    c.add_argument("files", nargs="+", metavar="FILE", help="a .ydk file, or a ydke:// address")
    c.add_argument("--format", default="current", help="the format (current, goat; default: current)")
    c.set_defaults(func=run_check)


def read_list(arg: str) -> str:
    """The text of a deck list: the argument itself when it is a ydke:// address, else the
    file's first bytes (at most a list's limit and one more, so that an oversized file is
    refused without reading it all)."""
    from server.rules import DECK_LIST_MAX_BYTES, DeckListError

    if arg.startswith("ydke://"):
        return arg
    with Path(arg).open("rb") as f:
        raw = f.read(DECK_LIST_MAX_BYTES + 1)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise DeckListError(["the file is not UTF-8 text"]) from None


def run_check(args: argparse.Namespace) -> int:
    from server.rules import DeckListError, UnknownFormat, check_deck, named_format, parse_deck_list

    try:
        fmt = named_format(args.format)
    except UnknownFormat as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    status = 0
    for arg in args.files:
        shown = arg[:40] + "..." if arg.startswith("ydke://") and len(arg) > 43 else arg
        try:
            text = read_list(arg)
        except OSError as exc:
            print(f"error: cannot read {arg}: {exc.strerror or exc}", file=sys.stderr)
            return 2
        try:
            deck = parse_deck_list(text)
            problems = check_deck(deck, fmt)
        except DeckListError as exc:
            problems = list(exc.problems)
            deck = None
        for problem in problems:
            print(problem)
        if problems:
            status = max(status, 1)
            print(f"{shown}: not legal in {fmt.title}: {len(problems)} problem(s)")
        else:
            assert deck is not None
            sizes = f"{len(deck.main)} Main, {len(deck.extra)} {fmt.deck.extra_name}, {len(deck.side)} Side"
            print(f"{shown}: legal in {fmt.title} ({sizes})")
    return status
