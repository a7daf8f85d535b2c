"""``duel cards``: list the supported cards; ``--markdown`` prints the table of docs/cards.md,
``--write-docs`` regenerates docs/cards.md from docs/cards-howto.md. ``--format goat`` lists the
cards of that format's pool: first how many the engine supports (``N/128 supported``), then
each supported card, then each one it does not support yet (docs/formats.md)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser("cards", help="list the supported cards")
    p.add_argument("--markdown", action="store_true", help="print the Markdown table")
    p.add_argument("--write-docs", metavar="DIR", nargs="?", const="docs", help="regenerate the cards.md in DIR")
    p.add_argument(
        "--format", metavar="FORMAT", help="the cards of a format's pool (current, goat): supported and missing"
    )
    p.set_defaults(func=run)


def run_format(name: str) -> int:
    from server.rules import CARDS, UnknownFormat, named_format, supported_codes

    try:
        fmt = named_format(name)
    except UnknownFormat as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    ok = supported_codes()
    pool = sorted((CARDS[c] for c in fmt.pool), key=lambda c: c.name)
    have = [c for c in pool if c.code in ok]
    missing = [c for c in pool if c.code not in ok]
    print(f"{len(have)}/{len(pool)} supported in {fmt.title}")
    for c in have:
        print(f"{c.code:>9}  {c.name}")
    for c in missing:
        print(f"{c.code:>9}  {c.name}  (not supported yet)")
    return 0


def run(args: argparse.Namespace) -> int:
    from server.rules import cards_doc, markdown_table, supported, unsupported

    if args.format is not None:
        return run_format(args.format)
    if args.write_docs:
        docs = Path(args.write_docs)
        text = cards_doc((docs / "cards-howto.md").read_text("utf-8"))
        (docs / "cards.md").write_text(text, "utf-8")
        print(f"wrote {docs / 'cards.md'} ({len(supported())} supported cards)")
        return 0
    if args.markdown:
        print(markdown_table(), end="")
        return 0
    for c in supported():
        print(f"{c.code:>9}  {c.name}")
    print(f"{len(supported())} supported, {len(unsupported())} not supported")
    return 0
