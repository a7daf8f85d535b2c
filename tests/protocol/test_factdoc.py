"""PROTOCOL.md's fact table and web/src/facts.ts are the ones ``engine.factdoc`` makes from the
fact classes, and facts.ts types what ``engine.redaction`` really sends."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from engine.factdoc import CUSTOM_TS, FACTS_TS, PROTOCOL, _ts, current, received, table, typescript, written
from engine.facts import FACTS, from_wire
from engine.redaction import CUSTOM
from engine.scenario import run
from engine.types import Fact, Phase
from engine.viewpoints import Viewpoints

ROOT = Path(__file__).resolve().parents[2]
SENT = [cls.t for cls in FACTS.values() if cls.SENT.rule != "hidden"]
INTERFACE = re.compile(r'^export interface (\w+) \{\n  t: "(\w+)";\n((?:  .*\n)*)\}$', re.M)


def test_protocol_md_fact_table_is_generated_from_the_fact_classes() -> None:
    doc = PROTOCOL.read_text("utf-8")
    assert current(doc) == table(), (
        "PROTOCOL.md's fact table differs from engine/facts.py: run `.venv/bin/python -m engine.factdoc --write`"
    )


def test_the_table_has_a_row_per_fact_type_a_client_receives_and_only_those() -> None:
    rows = table().splitlines()[3:]
    assert [row.split("`")[1] for row in rows] == SENT
    assert "| `flag` |" not in table() and "| `rng` |" not in table()
    moved = next(row for row in rows if row.startswith("| `moved` |"))
    assert "`card`?" in moved and "`to`," in moved and "private" not in moved


def test_writing_replaces_only_the_table() -> None:
    doc = "intro\n\n" + table().replace("| `turn` |", "| `turned` |") + "\nafter\n"
    assert written(doc) == "intro\n\n" + table() + "\nafter\n"


def test_web_facts_ts_is_generated_from_the_fact_classes() -> None:
    assert FACTS_TS.read_text("utf-8") == typescript(), (
        "web/src/facts.ts differs from engine/facts.py: run `.venv/bin/python -m engine.factdoc --write`"
    )


def _interfaces(ts: str) -> list[tuple[str, str, list[str]]]:
    """(name, t, its key lines) of each interface in ``ts``."""
    return [(name, t, body.splitlines()) for name, t, body in INTERFACE.findall(ts)]


def test_facts_ts_has_the_tables_keys_in_one_interface_per_fact_type_a_client_receives() -> None:
    ts = typescript()
    interfaces = _interfaces(ts)
    assert [t for _, t, _ in interfaces] == SENT
    assert 't: "rng"' not in ts and 't: "flag"' not in ts and "private" not in ts
    union = ts[ts.index("export type Fact =") :]
    assert re.findall(r"\| (\w+)", union) == [name for name, _, _ in interfaces] and union.endswith(";\n")
    # the keys and their `?` are the table's, row by row
    rows = {row.split("`")[1]: row.split(" | ")[1] for row in table().splitlines()[3:]}
    for _, t, lines in interfaces:
        keys = [line.strip().split(":")[0] for line in lines]
        assert keys == [f"{k}{q}" for k, q in re.findall(r"`(\w+)`(\??)", rows[t])], t
    moved = next(lines for _, t, lines in interfaces if t == "moved")
    assert moved[:2] == ["  card?: Id;", "  to: string;"] and "  from?: string;" in moved
    battle = next(lines for _, t, lines in interfaces if t == "battle")
    assert "  target: Id | null;" in battle and "  destroyed: Id[];" in battle and "  target_def?: number;" in battle
    assert ts.startswith("// Generated from engine/facts.py") and "python -m engine.factdoc --write" in ts


def test_annotations_map_to_typescript_types() -> None:
    assert (_ts(int), _ts(str), _ts(bool), _ts(Phase), _ts(Any)) == ("number", "string", "boolean", "string", "unknown")
    assert (
        _ts(int | None) == "number | null" and _ts(int | None, nil=False) == "number" and _ts(Any | None) == "unknown"
    )
    assert (_ts(list[list[int]]), _ts(list[int | None]), _ts(list)) == ("number[][]", "(number | null)[]", "unknown[]")
    assert (_ts(dict[str, int]), _ts(dict)) == ("Record<string, number>", "Record<string, unknown>")
    assert _ts(int | str) == "number | string" and _ts(complex) == "unknown"


def test_the_custom_types_name_keys_their_rules_send() -> None:
    for rule, types in CUSTOM_TS.items():
        assert rule in CUSTOM
        cls = next(c for c in FACTS.values() if c.SENT.rule == rule)
        assert set(types) <= {k.rstrip("?") for k in cls.SENT.doc}, rule


def _split(ts: str, sep: str) -> list[str]:
    """``ts`` split at ``sep`` outside brackets."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(ts):
        if ch in "(<{":
            depth += 1
        elif ch in ")>}":
            depth -= 1
        elif depth == 0 and ts.startswith(sep, i):
            parts.append(ts[start:i].strip())
            start = i + len(sep)
    return [*parts, ts[start:].strip()]


def _conforms(value: Any, ts: str) -> bool:
    """Does ``value`` (as msgpack gives it to the client) have the TypeScript type ``ts``? Only
    the forms the generator writes."""
    options = _split(ts, "|")
    if len(options) > 1:
        return any(_conforms(value, option) for option in options)
    number = isinstance(value, int | float) and not isinstance(value, bool)
    scalars = {"unknown": True, "null": value is None, "boolean": isinstance(value, bool), "number": number}
    scalars |= {"string": isinstance(value, str), "Id": number or isinstance(value, str)}
    if ts in scalars:
        return scalars[ts]
    if ts.endswith("[]"):
        inner = ts[:-2].removeprefix("(").removesuffix(")") if ts.startswith("(") else ts[:-2]
        return isinstance(value, list) and all(_conforms(x, inner) for x in value)
    if ts.startswith("Record<string, "):
        return isinstance(value, dict) and all(_conforms(x, ts[15:-1]) for x in value.values())
    if ts.startswith("{ "):
        fields = dict(field.split(": ", 1) for field in _split(ts[2:-2], ";") if field)
        names = {f.rstrip("?") for f in fields}
        return (
            isinstance(value, dict)
            and set(value) <= names
            and all(f in value for f in fields if not f.endswith("?"))
            and all(_conforms(value[f.rstrip("?")], t) for f, t in fields.items() if f.rstrip("?") in value)
        )
    raise AssertionError(f"the test cannot read the type {ts!r}")


def test_the_matcher_tells_types_apart() -> None:
    assert _conforms(3, "Id | null") and _conforms(None, "Id | null") and not _conforms(True, "number")
    assert _conforms([1, "x"], "Id[]") and not _conforms([None], "Id[]") and not _conforms({}, "unknown[]")
    assert _conforms({"cost": [1]}, "{ cost?: Id[]; choose?: unknown[] }")
    assert not _conforms({"cost": [1], "other": 1}, "{ cost?: Id[]; choose?: unknown[] }")
    assert _conforms({"a": 1}, "Record<string, number>") and not _conforms({"a": "1"}, "Record<string, number>")


def _played() -> list[list[Fact]]:
    """The entries of the golden logs and of every scenario (the only ones with ``setup``)."""
    logs = []
    for path in sorted((ROOT / "tests" / "golden").glob("duel-*.json")):
        golden = json.loads(path.read_text("utf-8"))
        logs.append([golden["genesis"], *(e["facts"] for e in golden["log"])])
    out = [[[from_wire(d) for d in entry] for entry in log] for log in logs]
    for path in sorted((ROOT / "tests" / "scenarios").rglob("*.yaml")):
        out.append(run(yaml.safe_load(path.read_text("utf-8"))).entries)
    return out


@pytest.fixture(scope="module")
def sent_facts() -> list[dict[str, Any]]:
    """Every fact seat 0, seat 1 and a spectator were sent in ``_played``."""
    out = []
    for entries in _played():
        vp = Viewpoints(b"k" * 32)
        for facts in entries:
            for seen in vp.apply(facts):
                out += seen
    return out


def test_what_the_receivers_are_sent_has_the_keys_and_types_facts_ts_gives(sent_facts: list[dict[str, Any]]) -> None:
    assert {f["t"] for f in sent_facts} == set(SENT), "the golden logs and scenarios no longer send every type"
    keys = {t: received(FACTS[t]) for t in SENT}
    optional_left_out: set[tuple[str, str]] = set()
    for f in sent_facts:
        got = keys[f["t"]]
        assert set(f) - {"t"} <= {k.name for k in got}, f
        for k in got:
            if k.name not in f:
                assert k.optional, (f, k.name)
                optional_left_out.add((f["t"], k.name))
            else:
                assert _conforms(f[k.name], k.ts), (f, k)
    assert {("moved", "card"), ("drew", "code"), ("attack_declared", "target_code")} <= optional_left_out
    # a flag modifier names no card: `card` is nil (Id | null)
    assert any(f["t"] == "modifier" and f["card"] is None for f in sent_facts)
