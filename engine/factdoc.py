"""PROTOCOL.md's fact table and the web client's fact types (``web/src/facts.ts``), made from
the fact classes (``engine.facts``).

    .venv/bin/python -m engine.factdoc            # print the table
    .venv/bin/python -m engine.factdoc --ts       # print facts.ts
    .venv/bin/python -m engine.factdoc --write    # write the table into PROTOCOL.md, and facts.ts

Both have one entry per fact type a client can receive (a class whose ``SENT`` is not hidden),
in the classes' order: its ``t``, the keys the receiver gets (``?``: not always there) and the
class's docstring; facts.ts types each key too (:func:`received`). ``tests/protocol/
test_factdoc.py`` fails while PROTOCOL.md or facts.ts differs.
"""

from __future__ import annotations

import argparse
import sys
import textwrap
import types
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Union, get_args, get_origin, get_type_hints

from .facts import FACTS, Absent, Fact

ROOT = Path(__file__).resolve().parent.parent
PROTOCOL = ROOT / "PROTOCOL.md"
FACTS_TS = ROOT / "web" / "src" / "facts.ts"
BEGIN = "<!-- the fact table is generated from engine/facts.py: python -m engine.factdoc --write -->"
HEADER = ("| `t` | keys | |", "|---|---|---|")

CUSTOM_TS: dict[str, dict[str, str]] = {
    "duel_started": {"deck_counts": "number[]", "extra_counts": "number[]"},
    "activated": {"card": "Id", "targets": "Id[]", "data": "{ cost?: Id[]; choose?: unknown[] }"},
    "triggered": {"card": "Id"},
    "drew": {"card": "Id"},
}
"""The rules of their own (``engine.redaction.CUSTOM``) build their facts in code: the
TypeScript types of the keys they make or change (card ids become the viewer's aliases). Their
other keys are typed from the class's fields; a key that is no field, ``unknown``."""


@dataclass(frozen=True, slots=True)
class Key:
    """A key a receiver gets of a fact."""

    name: str
    optional: bool  # not always there
    ts: str  # its TypeScript type


def _ts(tp: Any, nil: bool = True) -> str:
    """The TypeScript type of a field's annotation (``Absent`` left out: that is ``optional``;
    ``None`` too unless ``nil``)."""
    if tp in _SCALARS:
        return _SCALARS[tp]
    origin, args = get_origin(tp), get_args(tp)
    if origin in (Union, types.UnionType):
        parts = [_ts(a) for a in args if a is not Absent and (nil or a is not type(None))]
        return "unknown" if "unknown" in parts else " | ".join(dict.fromkeys(parts))
    if list in (tp, origin):
        inner = _ts(args[0]) if args else "unknown"
        return f"({inner})[]" if " | " in inner else f"{inner}[]"
    if dict in (tp, origin):  # msgpack map keys are property names in JavaScript
        return f"Record<string, {_ts(args[1]) if args else 'unknown'}>"
    if isinstance(tp, type) and issubclass(tp, str):  # the engine's StrEnums
        return "string"
    return "unknown"


_SCALARS: dict[Any, str] = {bool: "boolean", int: "number", float: "number", str: "string", type(None): "null"}


def received(cls: type[Fact]) -> list[Key]:
    """The keys a receiver gets, as ``engine.redaction`` sends them: a rule of its own lists
    them (``SENT.doc``), the others in the class's field order. A key is optional when ``SENT``
    says so (``?``) or its field's default is ABSENT (the key is left out then)."""
    sent = cls.SENT
    keys = sent.keys()
    if sent.rule in ("public", "cards", "moving"):
        plain = {k.rstrip("?"): k for k in keys}
        keys = tuple(plain[k] for k in cls.KEYS if k in plain)
    hints = get_type_hints(cls)
    codes = {code for code, _ in sent.codes}
    out = []
    for key in keys:
        name = key.rstrip("?")
        attr = cls.KEYS.get(name)
        optional = key.endswith("?") or (attr is not None and attr in cls.OPTIONAL)
        # a field's own type; a code kept only for a viewer who knows the card is never nil (left out)
        ts = "unknown" if attr is None else _ts(hints[attr], nil=name not in codes)
        if sent.rule in CUSTOM_TS:
            ts = CUSTOM_TS[sent.rule].get(name, ts)
        elif sent.rule == "moving" and name == "card":
            ts = "Id"  # only the alias the viewer can follow the card by; none: no key
        elif name in sent.cards:
            ts = "Id | null"  # redaction._ref: None for None and for a negative id (a flag modifier's -1)
        elif name in sent.lists:
            ts = "Id[]"
        out.append(Key(name, optional, ts))
    return out


def sent_classes() -> list[type[Fact]]:
    """The fact classes a client can receive, in their order."""
    return [cls for cls in FACTS.values() if cls.SENT.rule != "hidden"]


# ---------------------------------------------------------------------------------- PROTOCOL.md


def _keys(cls: type[Fact]) -> str:
    return ", ".join(f"`{k.name}`{'?' if k.optional else ''}" for k in received(cls))


def _description(cls: type[Fact]) -> str:
    return " ".join((cls.__doc__ or "").split())


def table() -> str:
    rows = []
    for cls in sent_classes():
        description = _description(cls).replace("|", "\\|")
        rows.append(f"| `{cls.t}` | {_keys(cls)} | {description} |".replace("|  |", "| |"))
    return "\n".join([BEGIN, *HEADER, *rows]) + "\n"


def table_at(doc: str, begin: str) -> str:
    """The Markdown table that follows the line ``begin`` in ``doc``, that line included, as
    ``doc`` has it now (the facts' and the actions' tables in PROTOCOL.md)."""
    start = doc.index(begin)
    lines = doc[start:].splitlines(keepends=True)
    end = 1 + next(i for i, line in enumerate(lines[1:]) if not line.startswith("|"))
    return "".join(lines[:end])


def current(doc: str) -> str:
    """The table as ``doc`` (PROTOCOL.md's text) has it now."""
    return table_at(doc, BEGIN)


def written(doc: str) -> str:
    """``doc`` with the table made anew."""
    old = current(doc)
    return doc.replace(old, table(), 1)


# ---------------------------------------------------------------------------------- facts.ts

TS_HEADER = """\
// Generated from engine/facts.py by engine/factdoc.py: do not edit. Regenerate with
//   .venv/bin/python -m engine.factdoc --write
// (it writes PROTOCOL.md's fact table too); tests/protocol/test_factdoc.py fails while this
// file differs.
//
// One interface per fact type a client can receive (update.facts; replay entries but those of
// viewpoint "all"), with the keys engine/redaction.py sends it (`?`: not always there); card ids
// are the receiver's aliases (Id). `Fact` is their union, discriminated by `t`.

import type { Id } from "./proto";
"""


def interface_name(cls: type[Fact]) -> str:
    return f"{cls.__name__}Fact"


def _interface(cls: type[Fact]) -> str:
    doc = _description(cls).replace("*/", "*\\/")
    lines = ["/**", *(f" * {line}" for line in textwrap.wrap(doc, 96)), " */"]
    lines.append(f"export interface {interface_name(cls)} {{")
    lines.append(f'  t: "{cls.t}";')
    lines += [f"  {k.name}{'?' if k.optional else ''}: {k.ts};" for k in received(cls)]
    lines.append("}")
    return "\n".join(lines) + "\n"


def typescript() -> str:
    """web/src/facts.ts."""
    classes = sent_classes()
    union = ["export type Fact =", *(f"  | {interface_name(cls)}" for cls in classes)]
    union[-1] += ";"
    return "\n".join([TS_HEADER, *(_interface(cls) for cls in classes), "\n".join(union) + "\n"])


# ---------------------------------------------------------------------------------- the command


def _write(path: Path, new: str, what: str) -> None:
    """``path`` made ``new`` (created if missing), saying whether it changed."""
    old = path.read_text("utf-8") if path.exists() else ""
    if new != old:
        path.write_text(new, "utf-8")
        print(f"wrote {what} into {path}")
    else:
        print(f"{path}: {what} already current")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ts", action="store_true", help="print web/src/facts.ts instead of the table")
    parser.add_argument("--write", action="store_true", help="write the table into PROTOCOL.md, and facts.ts")
    args = parser.parse_args(argv)
    if not args.write:
        sys.stdout.write(typescript() if args.ts else table())
        return 0
    _write(PROTOCOL, written(PROTOCOL.read_text("utf-8")), "the fact table")
    _write(FACTS_TS, typescript(), "the fact types")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
