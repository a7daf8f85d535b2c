"""Every fact type the engine can emit has a redaction rule (engine/redaction.py): the table
is a whitelist, and a fact type without a rule would silently reach nobody."""

from __future__ import annotations

import re
from pathlib import Path

from engine.apply import HANDLERS
from engine.redaction import RULES

ENGINE = Path(__file__).resolve().parents[2] / "engine"
EMIT = re.compile(r"""emit\(\s*["']([a-z_]+)["']""")


def emitted_types() -> set[str]:
    found: set[str] = set()
    for path in ENGINE.rglob("*.py"):
        found |= set(EMIT.findall(path.read_text()))
    return found


def test_every_emitted_fact_type_has_a_redaction_rule() -> None:
    types = emitted_types()
    assert {"moved", "drew", "activated", "triggered", "flag"} <= types  # the scan finds emits
    assert types - set(RULES) == set()


def test_every_fact_type_evolve_knows_has_a_redaction_rule() -> None:
    assert set(HANDLERS) - set(RULES) == set()
