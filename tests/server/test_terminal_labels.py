"""The terminal client has words for every action of the engine's table (``engine.actions``):
a new action cannot reach a player as its bare ``do``."""

from __future__ import annotations

from typing import Any

import pytest

from protocol.actions import KEYS, ActionKind
from server.clients.terminal.render import Labeler

SIDE: dict[str, Any] = {"hand": [], "monsters": [None] * 5, "spells_traps": [None] * 5, "graveyard": [], "field": None}
VIEW: dict[str, Any] = {
    "turn": 2,
    "phase": "main1",
    "step": None,
    "chain": [],
    "attack": None,
    "players": [SIDE, SIDE],
}


@pytest.mark.parametrize("kind", list(ActionKind))
def test_every_action_kind_has_its_own_words(kind: ActionKind) -> None:
    action: dict[str, Any] = {"do": kind.value, **{key: 7 for key in KEYS[kind] if key in ("card", "with")}}
    text = Labeler(VIEW, None, 0).label(action)
    assert text and not text.startswith(kind.value.replace("_", " ")), text


def test_the_menu_has_one_move_per_place_named_by_where_it_goes() -> None:
    """In the Draw Phase ``pass``, ``next_phase`` and ``end_turn`` all go to the Standby Phase (the
    view's ``moves`` says so): the menu shows it once, by its destination, and "End the turn"."""
    from server.clients.terminal.render import menu_actions

    moves = {"pass": "standby", "next_phase": "standby", "end_turn": "standby", "finish_turn": "next_turn"}
    view = {**VIEW, "phase": "draw", "you": 0, "turn_player": 0, "moves": moves}
    legal: list[dict[str, Any]] = [{"do": "next_phase"}, {"do": "end_turn"}, {"do": "finish_turn"}, {"do": "pass"}]
    shown = menu_actions(view, legal)
    assert shown == [{"do": "next_phase"}, {"do": "finish_turn"}]
    assert Labeler(view, None, 0).labels(shown) == ["Go to the Standby Phase", "End the turn"]
    # the opponent's pass says where it takes the turn
    b_view = {**view, "you": 1, "moves": {"pass": "main1"}}
    pending = {"seat": 1, "kind": "priority", "prompt": "..."}
    assert Labeler(b_view, None, 1, pending).labels([{"do": "pass"}]) == ["Pass: on to Main Phase 1"]
