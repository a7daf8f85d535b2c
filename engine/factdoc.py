"""PROTOCOL.md's fact table, made from the fact classes (``engine.facts``).

    .venv/bin/python -m engine.factdoc            # print the table
    .venv/bin/python -m engine.factdoc --write    # write it into PROTOCOL.md

One row per fact type a client can receive (a class whose ``SENT`` is not hidden), in the
classes' order: its ``t``, the keys the receiver gets (``?``: not always there), and the
class's docstring. ``tests/protocol/test_factdoc.py`` fails while PROTOCOL.md differs.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .facts import ABSENT, FACTS, Fact

PROTOCOL = Path(__file__).resolve().parent.parent / "PROTOCOL.md"
BEGIN = "<!-- the fact table is generated from engine/facts.py: python -m engine.factdoc --write -->"
HEADER = ("| `t` | keys | |", "|---|---|---|")


def _keys(cls: type[Fact]) -> str:
    """The keys a receiver gets: a rule of its own lists them, the others in the class's
    field order."""
    keys = cls.SENT.keys()
    if cls.SENT.rule in ("public", "cards", "moving"):
        plain = {k.rstrip("?"): k for k in keys}
        keys = tuple(plain[k] for k in cls.KEYS if k in plain)
    out = []
    for key in keys:
        name = key.rstrip("?")
        attr = cls.KEYS.get(name)
        optional = key.endswith("?") or (
            attr is not None and cls.__dataclass_fields__[attr].default is ABSENT  # type: ignore[attr-defined]
        )
        out.append(f"`{name}`{'?' if optional else ''}")
    return ", ".join(out)


def _description(cls: type[Fact]) -> str:
    return " ".join((cls.__doc__ or "").split()).replace("|", "\\|")


def table() -> str:
    rows = [
        f"| `{cls.t}` | {_keys(cls)} | {_description(cls)} |".replace("|  |", "| |")
        for cls in FACTS.values()
        if cls.SENT.rule != "hidden"
    ]
    return "\n".join([BEGIN, *HEADER, *rows]) + "\n"


def current(doc: str) -> str:
    """The table as ``doc`` (PROTOCOL.md's text) has it now."""
    start = doc.index(BEGIN)
    lines = doc[start:].splitlines(keepends=True)
    end = 1 + next(i for i, line in enumerate(lines[1:]) if not line.startswith("|"))
    return "".join(lines[:end])


def written(doc: str) -> str:
    """``doc`` with the table made anew."""
    old = current(doc)
    return doc.replace(old, table(), 1)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write", action="store_true", help="write the table into PROTOCOL.md")
    args = parser.parse_args(argv)
    if not args.write:
        sys.stdout.write(table())
        return 0
    doc = PROTOCOL.read_text("utf-8")
    new = written(doc)
    if new != doc:
        PROTOCOL.write_text(new, "utf-8")
        print(f"wrote the fact table into {PROTOCOL}")
    else:
        print(f"{PROTOCOL}: the fact table is current")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
