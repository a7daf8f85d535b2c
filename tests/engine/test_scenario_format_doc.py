"""docs/scenario-format.md and the scenario runner stay in step (issue 11).

Each table of the document lists, in its first column, the keys of one level of the format; the
runner's key sets (``engine.scenario_keys``) must be exactly those. The document's example must
pass, and an unknown key at any level must be an error that names it.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from engine.counters import COUNTER_NAMES
from engine.formats import format_of, rules_of
from engine.scenario import ScenarioError, run, start_state
from engine.scenario_keys import (
    ACTION_KEYS,
    EXPECT_KEYS,
    HISTORY_KEYS,
    PLACEMENT_KEYS,
    SIDE_KEYS,
    START_KEYS,
    STEP_KEYS,
    TOP_KEYS,
    ZONE_NAMES,
)

DOC = Path(__file__).resolve().parents[2] / "docs" / "scenario-format.md"
ROW = re.compile(r"^\| `([^`]+)` \|(.*)$")


def sections() -> dict[str, list[tuple[str, str]]]:
    """Heading -> (first-column key, rest of the row) of each table row under it."""
    out: dict[str, list[tuple[str, str]]] = {}
    current = ""
    for line in DOC.read_text("utf-8").splitlines():
        if line.startswith("## "):
            current = line[3:].strip()
            out[current] = []
        m = ROW.match(line)
        if m and current:
            out[current].append((m.group(1), m.group(2)))
    return out


def keys(heading: str) -> set[str]:
    return {k for k, _ in sections()[heading]}


@pytest.mark.parametrize(
    ("heading", "runner"),
    [
        ("Top-level keys", TOP_KEYS),
        ("The start position", START_KEYS),
        ("A player's side", SIDE_KEYS),
        ("Card placement keys", PLACEMENT_KEYS),
        ("Counter names", set(COUNTER_NAMES)),
        ("Steps", STEP_KEYS),
        ("Actions", set(ACTION_KEYS)),
        ("Expectations", EXPECT_KEYS),
        ("History", HISTORY_KEYS),
        ("Zones", ZONE_NAMES),
    ],
)
def test_each_table_lists_exactly_the_runners_keys(heading: str, runner: set[str] | frozenset[str]) -> None:
    assert keys(heading) == set(runner), f"docs/scenario-format.md, {heading!r}: the document and the runner differ"


def test_each_action_lists_exactly_its_arguments() -> None:
    for action, rest in sections()["Actions"]:
        args_cell = rest.split("|")[0]
        documented = set(re.findall(r"`([a-z_]+)`", args_cell))
        assert documented == set(ACTION_KEYS[action]), (
            f"arguments of {action!r}: document {documented}, runner {set(ACTION_KEYS[action])}"
        )


def test_the_documents_example_passes() -> None:
    text = DOC.read_text("utf-8")
    example = text.split("```yaml\n", 1)[1].split("```", 1)[0]
    result = run(yaml.safe_load(example))
    assert result.ok, result.failure


BASE: dict[str, Any] = {
    "format": 1,
    "name": "strictness",
    "source": "GEN-1",
    "start": {
        "turn": 3,
        "turn_player": "A",
        "phase": "battle",
        "A": {"monsters": [{"card": "Dark Magician", "as": "dm"}]},
    },
    "steps": [],
}


def _with(path: list[Any], value: Any) -> dict[str, Any]:
    doc: dict[str, Any] = yaml.safe_load(yaml.safe_dump(BASE))
    node: Any = doc
    for p in path[:-1]:
        node = node[p]
    node[path[-1]] = value
    return doc


CASES = [
    (["colour"], "blue", "colour"),
    (["start", "weather"], "rain", "weather"),
    (["start", "A", "grave"], [], "grave"),
    (["start", "A", "monsters", 0, "postion"], "defense", "postion"),
    (["steps"], [{"A": "attack", "with": "dm", "direct": True, "speed": 2}], "speed"),
    (["steps"], [{"expect": {"zones": {"dm": "monsters"}}}], "zones"),
    (["steps"], [{"expect": {"history": {"never": "battle"}}}], "never"),
    (["steps"], [{"expect": {"zone": {"dm": "monster"}}}], "monster"),
    (["steps"], [{"expect": {"history": {"no_fact": "replay"}}}], "replay"),
    (["steps"], [{"expect": {"counters": {"dm": {"Gate Counters": 1}}}}], "Gate Counters"),
    (["start", "A", "monsters", 0, "counters"], {"spell counter": 1}, "spell counter"),
    (["steps"], [{"expect": {"lp": {"A": 8000}}, "pass_until": {"phase": "main2"}}], "pass_until"),
    (["duel_format"], "goats", "goats"),
]


@pytest.mark.parametrize(("path", "value", "named"), CASES, ids=[c[2] for c in CASES])
def test_an_unknown_key_is_an_error_that_names_it(path: list[Any], value: Any, named: str) -> None:
    with pytest.raises(ScenarioError, match=re.escape(repr(named))):
        run(_with(path, value))


def test_the_base_document_itself_is_valid() -> None:
    assert run(_with(["steps"], [{"expect": {"zone": {"dm": "monsters"}, "counters": {"dm": {"counter": 0}}}}])).ok


def test_the_duel_format_key_names_the_duels_format_in_its_genesis() -> None:
    goat, _, _ = start_state(_with(["duel_format"], "goat"))
    assert goat.options["format"] == "goat" and format_of(goat).name == "goat"
    assert rules_of(goat).ignition_priority
    current, _, _ = start_state(BASE)
    assert "format" not in current.options and format_of(current).name == "current"
    assert not rules_of(current).ignition_priority
