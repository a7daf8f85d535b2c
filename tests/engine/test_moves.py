"""The turn player's moves through the turn: where each goes (``flow.destination``, the view's
``moves``, which the clients' buttons name), and ``finish_turn``, which ends the turn in one
action from any phase (issue 38)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine import DuelConfig, State, create, decide, demo_deck, fold, legal_actions, pending, view
from engine.flow import MOVE_INTENTS, NEXT_TURN, destination, moves
from engine.types import FINISH, WireAction
from tests.engine.helpers import act, position
from tests.engine.play import aggressive


def where(s: State) -> str:
    """The state's phase as ``destination`` names it."""
    if s.phase == "battle":
        return f"battle/{s.step}"
    return str(s.phase)


def land(s: State, seat: int, action: WireAction) -> tuple[State, str]:
    """``seat`` (the turn player) makes ``action``; the opponent passes until the turn has left the
    window it was in: where it went (``next_turn`` once the turn changed)."""
    turn, here = s.turn, where(s)
    s = act(s, seat, action)
    for _ in range(40):
        if s.turn != turn or s.finished:
            return s, NEXT_TURN
        p = pending(s)
        assert p is not None
        if where(s) != here and action["do"] != "finish_turn":
            return s, where(s)
        owed = int(p["seat"])
        acts = legal_actions(s, owed)
        # the opponent passes; a question (a discard at the End Phase) gets its first answer
        pick = next((a for a in acts if a["do"] == "pass"), acts[0])
        assert owed != seat or s.choice is not None, f"{action['do']}: the turn player was asked in {where(s)}"
        s = act(s, owed, pick)
    raise AssertionError("the turn did not move")


@pytest.mark.parametrize("seed", [1, 2, 3, 5, 8])
def test_each_move_lands_where_destination_says(seed: int) -> None:
    """Duels played by a simple policy; at each window of the turn player on an empty chain, every
    move it may make (and a plain pass) is played out, the opponent passing: the turn lands where
    ``moves`` said, the phase or step entered, or the next turn."""
    rnd = random.Random(seed)
    s = fold(create(DuelConfig(seed=seed, decks=(demo_deck(0), demo_deck(1)))))
    checked: set[tuple[str, str, str]] = set()
    for _ in range(400):
        p = pending(s)
        if p is None:
            break
        seat = int(p["seat"])
        went = moves(s)
        if went is not None and seat == s.turn_player:
            legal = {a["do"] for a in legal_actions(s, seat)}
            assert set(went) == {"pass"} | (legal & set(MOVE_INTENTS)), (went, legal)
            for do, dest in went.items():
                _, landed = land(s, seat, {"do": do})
                assert landed == dest, f"turn {s.turn} {where(s)}: {do} went to {landed}, not {dest}"
                checked.add((where(s), do, dest))
        s = act(s, seat, aggressive(rnd, legal_actions(s, seat)))
    phases = {c[0] for c in checked}
    assert {"draw", "standby", "main1", "battle/start", "battle/battle", "battle/end", "main2", "end"} <= phases, phases
    assert ("main1", "end_turn", "end") in checked and ("main1", "enter_battle_phase", "battle/start") in checked
    assert ("draw", "finish_turn", NEXT_TURN) in checked


def test_next_phase_in_main_phase_1_enters_the_battle_phase_and_end_turn_skips_it() -> None:
    s, _ = position({"turn": 3, "turn_player": "A", "phase": "main1", "A": {}, "B": {}})
    assert moves(s) == {
        "pass": "battle/start",
        "enter_battle_phase": "battle/start",
        "next_phase": "battle/start",
        "end_turn": "end",
        "finish_turn": NEXT_TURN,
    }
    s1, _ = position({"turn": 1, "turn_player": "A", "phase": "main1", "A": {}, "B": {}})
    assert (moves(s1) or {}).get("next_phase") == "end"  # no Battle Phase on turn 1


def test_end_turn_from_the_draw_phase_still_moves_one_phase_as_old_logs_have_it() -> None:
    s, _ = position({"turn": 3, "turn_player": "A", "phase": "draw", "A": {}, "B": {}})
    assert destination(s, "end") == "standby"
    s = act(act(s, 0, {"do": "end_turn"}), 1, {"do": "pass"})
    assert s.phase == "standby" and pending(s) == {"seat": 0, "kind": "priority", "prompt": pending(s)["prompt"]}  # type: ignore[index]


START: dict[str, dict[str, Any]] = {
    "draw": {"phase": "draw"},
    "standby": {"phase": "standby"},
    "main1": {"phase": "main1"},
    "start_step": {"phase": "battle", "step": "start"},
    "battle_step": {"phase": "battle", "step": "battle"},
    "end_step": {"phase": "battle", "step": "end"},
    "main2": {"phase": "main2"},
    "end": {"phase": "end"},
}


@pytest.mark.parametrize("name", list(START))
def test_finish_turn_ends_the_turn_in_one_action_from_every_phase(name: str) -> None:
    """One action of the turn player ends its turn: it is not asked again this turn, and the
    opponent is still asked in every window left (its passes are its own to make)."""
    s, _ = position(
        {
            "turn": 3,
            "turn_player": "A",
            **START[name],
            "A": {"monsters": [{"card": "Gemini Elf"}], "hand": ["Mystical Space Typhoon"]},
            "B": {"monsters": [{"card": "Giant Soldier of Stone"}]},
        }
    )
    assert {"do": "finish_turn"} in legal_actions(s, 0)
    s = act(s, 0, {"do": "finish_turn"})
    asked: list[str] = []
    for _ in range(30):
        if s.turn == 4:
            break
        p = pending(s)
        assert p is not None and p["seat"] == 1, f"A was asked again in {where(s)}"
        asked.append(where(s))
        s = act(s, 1, {"do": "pass"})
    assert s.turn == 4 and s.turn_player == 1
    # not entering the Battle Phase from Main Phase 1 or before: straight to the End Phase; from the
    # Battle Phase, through its End Step to the End Phase, skipping Main Phase 2
    assert asked == ASKED[name], asked


ASKED: dict[str, list[str]] = {
    "draw": ["draw", "standby", "main1", "end"],
    "standby": ["standby", "main1", "end"],
    "main1": ["main1", "end"],
    "start_step": ["battle/start", "battle/battle", "battle/end", "end"],
    "battle_step": ["battle/battle", "battle/end", "end"],
    "end_step": ["battle/end", "end"],
    "main2": ["main2", "end"],
    "end": ["end"],
}
"""Where the opponent is asked once the turn player ended its turn from each phase."""


def test_a_chain_that_resolves_gives_the_turn_player_the_decision_back() -> None:
    """A ends the turn from Main Phase 1; in the End Phase B activates Mystical Space Typhoon on
    A's Set card: A may respond to it, and once it has resolved A decides again (its passes end)."""
    s, lb = position(
        {
            "turn": 3,
            "turn_player": "A",
            "phase": "main1",
            "A": {"spells_traps": [{"card": "Sakuretsu Armor", "as": "sak", "set": True}]},
            "B": {"spells_traps": [{"card": "Mystical Space Typhoon", "as": "mst", "set": True}]},
        }
    )
    s = act(s, 0, {"do": "finish_turn"})
    assert s.intent == FINISH and pending(s)["seat"] == 1  # type: ignore[index]
    s = act(s, 1, {"do": "pass"})  # Main Phase 1 ends: the End Phase, A's window passed for it
    assert s.phase == "end" and pending(s)["seat"] == 1  # type: ignore[index]
    s = act(s, 1, {"do": "activate", "card": lb["mst"], "target": [lb["sak"]]})
    assert pending(s)["seat"] == 0  # type: ignore[index]  # A may respond to the chain
    s = act(s, 0, {"do": "pass"})
    s = act(s, 1, {"do": "pass"})
    # the chain resolved: A's own decision again, in the End Phase
    assert s.phase == "end" and s.turn == 3 and s.intent is None
    assert pending(s)["seat"] == 0 and pending(s)["kind"] == "priority"  # type: ignore[index]
    assert {"do": "finish_turn"} in legal_actions(s, 0)


def test_moves_are_in_the_deciding_seats_view_only() -> None:
    s, _ = position({"turn": 3, "turn_player": "A", "phase": "standby", "A": {}, "B": {}})
    assert view(s, 0)["moves"]["next_phase"] == "main1"
    assert "moves" not in view(s, 1) and "moves" not in view(s, None)
    s = act(s, 0, {"do": "next_phase"})
    assert view(s, 1)["moves"] == {"pass": "main1"} and "moves" not in view(s, 0)


def test_decide_accepts_finish_turn_as_a_wire_action() -> None:
    s, _ = position({"turn": 3, "turn_player": "A", "phase": "main2", "A": {}, "B": {}})
    facts = decide(s, 0, {"do": "finish_turn"})
    assert [f.t for f in facts][:1] == ["passed"] and facts[0].intent == FINISH  # type: ignore[attr-defined]
