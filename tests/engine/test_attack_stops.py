"""Ruling BS-4 in the Damage Step: an attacker that stops being able to attack at the start of the
Damage Step (changed to Defense Position, face-down, or taken by the opponent) does not battle.

No card of the pool can change a battle position or take control inside the Damage Step, so the
change is applied here as the fact such an effect would emit; the scenarios under
tests/scenarios/rules/ cover the Battle Step with real cards (Book of Moon, Enemy Controller).
"""

from __future__ import annotations

from typing import Any

import pytest

from engine import State, apply_facts
from engine.facts import from_wire
from tests.engine.helpers import act, pass_until, position


def _at_start_of_damage_step() -> tuple[State, dict[str, int]]:
    s, labels = position(
        {
            "turn": 3,
            "turn_player": "A",
            "phase": "battle",
            "step": "battle",
            "A": {"monsters": [{"card": "Dark Magician", "as": "dm"}]},
            "B": {"monsters": [{"card": "Celtic Guardian", "as": "cg"}]},
        }
    )
    s = act(s, 0, {"do": "attack", "with": labels["dm"], "target": labels["cg"]})
    s = pass_until(s, lambda st: st.damage_step == "start_of_damage_step")
    return s, labels


CHANGES: list[tuple[str, dict[str, Any]]] = [
    ("defense", {"t": "position_changed", "position": "defense", "face_up": True, "by_player": False}),
    ("face-down", {"t": "position_changed", "position": "defense", "face_up": False, "by_player": False}),
    (
        "control",
        {"t": "moved", "to": "monsters", "controller": 1, "position": "attack", "face_up": True, "reason": "control"},
    ),
]


@pytest.mark.parametrize(("what", "change"), CHANGES, ids=[c[0] for c in CHANGES])
def test_attacker_that_can_no_longer_attack_does_not_battle(what: str, change: dict[str, Any]) -> None:
    s, labels = _at_start_of_damage_step()
    fact = from_wire({**change, "card": labels["dm"]})
    s = apply_facts(s, [fact])
    seen: list[str] = []
    s = pass_until(s, lambda st: seen.append(str(st.damage_step)) is None and st.attack is None)
    assert "during_damage_calculation" not in seen
    assert [p.lp for p in s.players] == [8000, 8000]
    assert s.cards[labels["cg"]].zone == "monsters"
    assert s.cards[labels["dm"]].attacked_turn == 3  # it still declared its attack


def test_attacker_still_in_attack_position_battles() -> None:
    s, labels = _at_start_of_damage_step()
    s = pass_until(s, lambda st: st.attack is None)
    assert s.players[1].lp == 8000 - (2500 - 1400)
    assert s.cards[labels["cg"]].zone == "graveyard"
