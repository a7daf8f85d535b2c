"""Every key a scenario file may use (docs/scenario-format.md), and the check that it uses no other.

The runner refuses an unknown key anywhere in a scenario with a ``ScenarioError`` naming the
key and where it was found, so that a misspelt expectation never passes by being ignored.
``tests/engine/test_scenario_format_doc.py`` keeps these tables and the document in step.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .actions import KEYS
from .counters import COUNTER_NAMES


class ScenarioError(Exception):
    """The scenario file itself is wrong (unknown card, label, key)."""


TOP_KEYS = frozenset(
    {"format", "duel_format", "name", "source", "seed", "auto_pass", "dice", "coins", "start", "steps"}
)
START_KEYS = frozenset({"turn", "turn_player", "phase", "step", "battle_phases", "extra_battle_phases", "A", "B"})
SIDE_KEYS = frozenset(
    {
        "lp",
        "hand",
        "deck",
        "graveyard",
        "banished",
        "extra",
        "monsters",
        "spells_traps",
        "field",
        "normal_summoned",
        "start_step_monsters",
    }
)
PLACEMENT_KEYS = frozenset(
    {
        "card",
        "as",
        "position",
        "zone",
        "set",
        "summoned",
        "attacked",
        "was_attacked",
        "counters",
        "materials",
        "equipped_to",
        "used",
    }
)
STEP_KEYS = frozenset({"A", "B", "expect", "pass_until", "illegal"})
ACTION_KEYS: dict[str, frozenset[str]] = {kind.value: frozenset(keys) for kind, keys in KEYS.items()}
"""Each action and the arguments it takes: the keys of ``engine.actions``' table."""
EXPECT_KEYS = frozenset(
    {
        "lp",
        "zone",
        "controller",
        "position",
        "atk",
        "def",
        "counters",
        "turn",
        "turn_player",
        "phase",
        "step",
        "damage_step",
        "waiting_for",
        "chain",
        "legal",
        "illegal",
        "attacks_remaining",
        "battle_phases_this_turn",
        "winner",
        "hand_count",
        "deck_count",
        "history",
    }
)
HISTORY_KEYS = frozenset({"no_fact", "fact", "phases_visited"})
ZONE_NAMES = frozenset(
    {"hand", "deck", "extra", "monsters", "spells_traps", "field", "graveyard", "banished", "xyz_material", "gone"}
)
PLACED_POSITIONS = frozenset({"attack", "defense", "set"})
PHASE_NAMES = ("draw", "standby", "main1", "battle", "main2", "end")
STEP_NAMES = ("start", "battle", "damage", "end")
COINS = frozenset({"heads", "tails"})
COUNTERS = frozenset(COUNTER_NAMES)


def check_keys(where: str, given: Iterable[Any], allowed: frozenset[str]) -> None:
    """Raise naming the first key of ``given`` that ``allowed`` does not hold."""
    for k in given:
        if k not in allowed:
            raise ScenarioError(f"unknown key {k!r} in {where} (allowed: {', '.join(sorted(allowed))})")


def check_map(where: str, value: Any) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise ScenarioError(f"{where} must be a map, got {value!r}")
    return value


def check_counter(where: str, name: Any) -> str:
    if name not in COUNTERS:
        raise ScenarioError(f"unknown counter name {name!r} in {where} (known: {', '.join(sorted(COUNTERS))})")
    return str(name)


def plain_value(v: Any) -> Any:
    """A non-card value in ``choose``/``option`` is a string: YAML's bare numbers and yes/no
    become "3", "yes", "no" (so card ids and values are told apart by their type)."""
    if v is True:
        return "yes"
    if v is False:
        return "no"
    if isinstance(v, int | float):
        return str(v)
    return v
