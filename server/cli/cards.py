"""``duel cards``: list the supported cards; ``--markdown`` prints the table of docs/cards.md,
``--write-docs`` regenerates docs/cards.md from docs/cards-howto.md."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser("cards", help="list the supported cards")
    p.add_argument("--markdown", action="store_true", help="print the Markdown table")
    p.add_argument("--write-docs", metavar="DIR", nargs="?", const="docs", help="regenerate the cards.md in DIR")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from server.rules import cards_doc, markdown_table, supported, unsupported

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
