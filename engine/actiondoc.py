"""PROTOCOL.md's action table, the web client's action types (``web/src/actionkinds.ts``) and
the Python clients' action kinds (``protocol/actions.py``), made from the action table
(``engine.actions``).

    .venv/bin/python -m engine.actiondoc            # print the table
    .venv/bin/python -m engine.actiondoc --ts       # print actionkinds.ts
    .venv/bin/python -m engine.actiondoc --write    # write the table into PROTOCOL.md, actionkinds.ts, actions.py

Both have one entry per action, in the table's order: its ``do``, the keys it takes (``?``: not
always there) and the class's docstring. ``tests/protocol/test_actiondoc.py`` fails while
PROTOCOL.md, actionkinds.ts or protocol/actions.py differs (engine.factdoc does the same for the facts).
"""

from __future__ import annotations

import argparse
import sys
import textwrap
from dataclasses import fields
from pathlib import Path
from typing import get_type_hints

from .actions import ACTIONS, KEYS, REQUIRED, Action, ActionKind
from .describe import END_REASONS, PHASE_WORDS, STEP_WORDS, TIMING_WORDS
from .factdoc import _ts, _write, table_at

ROOT = Path(__file__).resolve().parent.parent
PROTOCOL = ROOT / "PROTOCOL.md"
ACTIONS_TS = ROOT / "web" / "src" / "actionkinds.ts"
ACTIONS_PY = ROOT / "protocol" / "actions.py"
WORDS_PY = ROOT / "protocol" / "words.py"
BEGIN = "<!-- the action table is generated from engine/actions.py: python -m engine.actiondoc --write -->"
HEADER = ("| action | keys | |", "|---|---|---|")
CARD_KEYS = frozenset({"card", "with", "target", "tribute", "cost", "cards"})
"""Keys whose values are card ids (the sender's aliases: ``Id`` in TypeScript)."""


def _keys(cls: type[Action]) -> list[str]:
    required = REQUIRED[cls.DO]
    return [f"{k}{'' if k in required else '?'}" for k in KEYS[cls.DO]]


def _description(cls: type[Action]) -> str:
    return " ".join((cls.__doc__ or "").split())


def table() -> str:
    rows = []
    for cls in ACTIONS:
        keys = ", ".join(f"`{k.rstrip('?')}`{'?' if k.endswith('?') else ''}" for k in _keys(cls))
        description = _description(cls).replace("|", "\\|")
        rows.append(f"| `{cls.DO.value}` | {keys} | {description} |".replace("|  |", "| |"))
    return "\n".join([BEGIN, *HEADER, *rows]) + "\n"


def current(doc: str) -> str:
    """The table as ``doc`` (PROTOCOL.md's text) has it now."""
    return table_at(doc, BEGIN)


def written(doc: str) -> str:
    """``doc`` with the table made anew."""
    return doc.replace(current(doc), table(), 1)


# ---------------------------------------------------------------------------------- actionkinds.ts

TS_HEADER = """\
// Generated from engine/actions.py by engine/actiondoc.py: do not edit. Regenerate with
//   .venv/bin/python -m engine.actiondoc --write
// (it writes PROTOCOL.md's action table too); tests/protocol/test_actiondoc.py fails while this
// file differs.
//
// The actions a client may send (update.legal lists them fully specified: send one back as it
// is): one interface per action with the keys it takes (`?`: not always there); card ids are
// the sender's aliases (Id). `ActionKind` is every `do`; `TypedAction` their union.

import type { Id } from "./proto";
"""


def interface_name(cls: type[Action]) -> str:
    return f"{cls.__name__}Action"


def _key_ts(cls: type[Action]) -> list[str]:
    hints = get_type_hints(cls)
    out = []
    for f, key in zip(fields(cls), _keys(cls), strict=True):
        ts = _ts(hints[f.name], nil=False)
        name = key.rstrip("?")
        if name in CARD_KEYS:
            ts = "Id[]" if ts.endswith("[]") else "Id"
        elif ts == "(number | string)[]":
            ts = "(Id | string)[]"  # ``choose``: card ids or plain values
        out.append(f"  {key}: {ts};")
    return out


def _interface(cls: type[Action]) -> str:
    doc = _description(cls).replace("*/", "*\\/")
    lines = ["/**", *(f" * {line}" for line in textwrap.wrap(doc, 96)), " */"]
    lines.append(f"export interface {interface_name(cls)} {{")
    lines.append(f'  do: "{cls.DO.value}";')
    lines += _key_ts(cls)
    lines.append("}")
    return "\n".join(lines) + "\n"


def typescript() -> str:
    """web/src/actionkinds.ts."""
    kinds = ["export type ActionKind =", *(f'  | "{cls.DO.value}"' for cls in ACTIONS)]
    kinds[-1] += ";"
    union = ["export type TypedAction =", *(f"  | {interface_name(cls)}" for cls in ACTIONS)]
    union[-1] += ";"
    every = "\n".join(
        ["export const ACTION_KINDS: readonly ActionKind[] = [", *(f'  "{cls.DO.value}",' for cls in ACTIONS), "];"]
    )
    return "\n".join(
        [
            TS_HEADER,
            "\n".join(kinds) + "\n",
            every + "\n",
            *(_interface(cls) for cls in ACTIONS),
            "\n".join(union) + "\n",
        ]
    )


# ------------------------------------------------------------------------------ protocol/actions.py


def _tuple(keys: tuple[str, ...]) -> str:
    """A tuple of strings as ruff formats it (double quotes; a lone item's comma)."""
    inner = ", ".join(f'"{k}"' for k in keys)
    return f"({inner},)" if len(keys) == 1 else f"({inner})"


def python() -> str:
    """protocol/actions.py: the kinds and keys of the actions for clients, bots and the terminal
    client, as a copy (importing ``engine.actions`` would load the whole engine's package)."""
    members = "\n".join(f'    {kind.name} = "{kind.value}"' for kind in ActionKind)
    keys = "\n".join(f"    ActionKind.{cls.DO.name}: {_tuple(KEYS[cls.DO])}," for cls in ACTIONS)
    return f'''"""The actions a client sends (``action.action``, ``update.legal``): their kinds and keys.

Generated from engine/actions.py by engine/actiondoc.py: do not edit. Regenerate with
``.venv/bin/python -m engine.actiondoc --write`` (it writes PROTOCOL.md's action table and
web/src/actionkinds.ts too); tests/protocol/test_actiondoc.py fails while this file differs. A
copy, not an import: the clients, bots and the terminal client load no engine module.

Clients name an action's ``do`` by ``ActionKind`` (a ``StrEnum``: its members equal the wire's
strings) and hold actions as the maps the wire has (``WireAction``).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Final

WireAction = dict[str, Any]
"""An action as the wire has it: ``{{"do": ..., keys}}``."""


class ActionKind(StrEnum):
    """The ``do`` of an action."""

{members}


KEYS: Final[dict[ActionKind, tuple[str, ...]]] = {{
{keys}
}}
"""The wire keys each action takes (besides ``do``)."""
'''


# -------------------------------------------------------------------------------- protocol/words.py


def _words(name: str, table: dict[str, str], doc: str) -> str:
    rows = "\n".join(f'    "{k}": "{v}",' for k, v in table.items())
    return f'{name}: Final[dict[str, str]] = {{\n{rows}\n}}\n"""{doc}"""\n'


def words() -> str:
    """protocol/words.py: the plain words of the phases, steps, Damage Step timings and the
    ways a duel ends (``engine.describe``'s), for the clients, as a copy."""
    tables = "\n\n".join(
        (
            _words("PHASE_WORDS", PHASE_WORDS, "A phase's name, in turn order."),
            _words("STEP_WORDS", STEP_WORDS, "A Battle Phase step's name."),
            _words("TIMING_WORDS", TIMING_WORDS, "A Damage Step timing's words."),
            _words("END_REASONS", END_REASONS, "Why a duel ended."),
        )
    )
    return f'''"""Plain words for the phases, steps, Damage Step timings and the ends of a duel.

Generated from engine/describe.py by engine/actiondoc.py: do not edit. Regenerate with
``.venv/bin/python -m engine.actiondoc --write``; tests/protocol/test_actiondoc.py fails while
this file differs. A copy, not an import: the clients load no engine module.
"""

from __future__ import annotations

from typing import Final

{tables}

def phase_text(phase: str, step: str | None = None, timing: str | None = None) -> str:
    """ "Battle Phase - Damage Step (before damage calculation)", as ``engine.describe`` says it."""
    out = PHASE_WORDS.get(phase, phase)
    if step:
        out += f" - {{STEP_WORDS.get(step, step)}}"
    if timing:
        out += f" ({{TIMING_WORDS.get(timing, timing)}})"
    return out
'''


# ---------------------------------------------------------------------------------- the command


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ts", action="store_true", help="print web/src/actionkinds.ts instead of the table")
    parser.add_argument("--write", action="store_true", help="write the table into PROTOCOL.md, and actionkinds.ts")
    args = parser.parse_args(argv)
    if not args.write:
        sys.stdout.write(typescript() if args.ts else table())
        return 0
    _write(PROTOCOL, written(PROTOCOL.read_text("utf-8")), "the action table")
    _write(ACTIONS_TS, typescript(), "the action types")
    _write(ACTIONS_PY, python(), "the clients' action kinds")
    _write(WORDS_PY, words(), "the clients' words")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
