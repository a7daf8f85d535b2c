"""PROTOCOL.md's fact table is the one ``engine.factdoc`` makes from the fact classes."""

from __future__ import annotations

from engine.factdoc import PROTOCOL, current, table, written
from engine.facts import FACTS


def test_protocol_md_fact_table_is_generated_from_the_fact_classes() -> None:
    doc = PROTOCOL.read_text("utf-8")
    assert current(doc) == table(), (
        "PROTOCOL.md's fact table differs from engine/facts.py: run `.venv/bin/python -m engine.factdoc --write`"
    )


def test_the_table_has_a_row_per_fact_type_a_client_receives_and_only_those() -> None:
    rows = table().splitlines()[3:]
    sent = [cls.t for cls in FACTS.values() if cls.SENT.rule != "hidden"]
    assert [row.split("`")[1] for row in rows] == sent
    assert "| `flag` |" not in table() and "| `rng` |" not in table()
    moved = next(row for row in rows if row.startswith("| `moved` |"))
    assert "`card`?" in moved and "`to`," in moved and "private" not in moved


def test_writing_replaces_only_the_table() -> None:
    doc = "intro\n\n" + table().replace("| `turn` |", "| `turned` |") + "\nafter\n"
    assert written(doc) == "intro\n\n" + table() + "\nafter\n"
