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
