"""PROTOCOL.md's action table and web/src/actionkinds.ts are the ones ``engine.actiondoc`` makes
from the action table (``engine.actions``), and the web client's labels cover every action."""

from __future__ import annotations

import re

from engine.actiondoc import ACTIONS_TS, PROTOCOL, current, table, typescript, written
from engine.actions import ACTIONS, KEYS, ActionKind

ROOT = PROTOCOL.parent


def test_protocol_md_action_table_is_generated_from_the_action_table() -> None:
    assert current(PROTOCOL.read_text("utf-8")) == table(), (
        "PROTOCOL.md's action table differs from engine/actions.py: run `.venv/bin/python -m engine.actiondoc --write`"
    )


def test_the_table_has_a_row_per_action_with_its_keys() -> None:
    rows = table().splitlines()[3:]
    assert [row.split("`")[1] for row in rows] == [k.value for k in ActionKind]
    attack = next(row for row in rows if row.startswith("| `attack` |"))
    assert "| `with`, `target`?, `direct`? |" in attack
    assert "| `pass` | |" in table()


def test_writing_replaces_only_the_table() -> None:
    doc = "intro\n\n" + table().replace("| `pass` |", "| `passed` |") + "\nafter\n"
    assert written(doc) == "intro\n\n" + table() + "\nafter\n"


def test_web_actionkinds_ts_is_generated_from_the_action_table() -> None:
    assert ACTIONS_TS.read_text("utf-8") == typescript(), (
        "web/src/actionkinds.ts differs from engine/actions.py: run `.venv/bin/python -m engine.actiondoc --write`"
    )


def test_actionkinds_ts_has_one_interface_per_action_with_the_tables_keys() -> None:
    ts = typescript()
    interfaces = re.findall(r'^export interface (\w+)Action \{\n  do: "(\w+)";\n((?:  .*\n)*)\}$', ts, re.M)
    assert [(name, do) for name, do, _ in interfaces] == [(cls.__name__, cls.DO.value) for cls in ACTIONS]
    for _, do, body in interfaces:
        assert [line.split(":")[0].strip().rstrip("?") for line in body.splitlines()] == list(KEYS[ActionKind(do)])
    attack = next(body for _, do, body in interfaces if do == "attack")
    assert attack.splitlines() == ["  with: Id;", "  target?: Id;", "  direct?: boolean;"]
    kinds = ts[ts.index("export type ActionKind =") : ts.index(";", ts.index("export type ActionKind ="))]
    assert re.findall(r'"(\w+)"', kinds) == [k.value for k in ActionKind]


def test_the_web_client_types_actions_by_the_generated_kinds_and_labels_each() -> None:
    """``proto.Action``'s ``do`` is the generated ``ActionKind``, and ``describeAction`` ends in a
    ``never`` check: tsc (``npm run check``, the browser tests' build) fails when a kind has no
    words. Here: the switch names exactly the table's kinds."""
    proto = (ROOT / "web" / "src" / "proto.ts").read_text("utf-8")
    assert "export type Action = { do: ActionKind } & Record<string, unknown>;" in proto
    src = (ROOT / "web" / "src" / "actions.ts").read_text("utf-8")
    body = src[src.index("export function describeAction") : src.index("function nextPhaseLabel")]
    assert re.findall(r'case "(\w+)":', body) == [k.value for k in ActionKind]
    assert "const unlabelled: never = a.do;" in body


def test_protocol_actions_py_is_generated_from_the_action_table() -> None:
    """The clients' copy of the action kinds and keys (protocol/actions.py: importing the engine's
    table would load the whole engine) is the table's, and the same values."""
    from engine.actiondoc import ACTIONS_PY, python
    from protocol import actions as wire

    assert ACTIONS_PY.read_text("utf-8") == python(), (
        "protocol/actions.py differs from engine/actions.py: run `.venv/bin/python -m engine.actiondoc --write`"
    )
    assert [k.value for k in wire.ActionKind] == [k.value for k in ActionKind]
    assert {k.value: v for k, v in wire.KEYS.items()} == {k.value: v for k, v in KEYS.items()}


def test_protocol_words_py_is_generated_from_the_engines_words() -> None:
    """The clients' copy of the phase and end-of-duel words (``protocol/words.py``) is the one the
    engine's words make, and says a phase as ``engine.describe`` does."""
    from engine.actiondoc import WORDS_PY, words
    from engine.describe import phase_text as engine_phase_text
    from protocol import words as client_words

    assert WORDS_PY.read_text("utf-8") == words(), (
        "protocol/words.py differs from engine/describe.py: run `.venv/bin/python -m engine.actiondoc --write`"
    )
    for args in [("draw", None, None), ("battle", "damage", "before_damage_calculation"), ("main2", None, None)]:
        assert client_words.phase_text(*args) == engine_phase_text(*args)
