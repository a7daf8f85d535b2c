"""The actions a client sends (``action.action``, ``update.legal``): their kinds and keys.

Generated from engine/actions.py by engine/actiondoc.py: do not edit. Regenerate with
``.venv/bin/python -m engine.actiondoc --write`` (it writes PROTOCOL.md's action table and
web/src/actionkinds.ts too); tests/protocol/test_actiondoc.py fails while this file differs. A
copy, not an import: the clients, bots and the terminal client load no engine module.

Clients name an action's ``do`` by ``ActionKind`` (a ``StrEnum``: its members equal the wire's
strings) and hold actions as the maps the wire has (``WireAction``).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Final

WireAction = dict[str, Any]
"""An action as the wire has it: ``{"do": ..., keys}``."""


class ActionKind(StrEnum):
    """The ``do`` of an action."""

    PASS = "pass"
    SUMMON = "summon"
    SET = "set"
    FLIP_SUMMON = "flip_summon"
    CHANGE_POSITION = "change_position"
    ACTIVATE = "activate"
    ATTACK = "attack"
    RETARGET = "retarget"
    CANCEL_ATTACK = "cancel_attack"
    CHOOSE = "choose"
    ENTER_BATTLE_PHASE = "enter_battle_phase"
    END_BATTLE_PHASE = "end_battle_phase"
    NEXT_PHASE = "next_phase"
    END_TURN = "end_turn"
    FINISH_TURN = "finish_turn"
    CONCEDE = "concede"


KEYS: Final[dict[ActionKind, tuple[str, ...]]] = {
    ActionKind.PASS: (),
    ActionKind.SUMMON: ("card", "tribute", "cost", "procedure", "position"),
    ActionKind.SET: ("card", "tribute"),
    ActionKind.FLIP_SUMMON: ("card",),
    ActionKind.CHANGE_POSITION: ("card",),
    ActionKind.ACTIVATE: ("card", "effect", "target", "cost", "choose"),
    ActionKind.ATTACK: ("with", "target", "direct"),
    ActionKind.RETARGET: ("target", "direct"),
    ActionKind.CANCEL_ATTACK: (),
    ActionKind.CHOOSE: ("cards", "option"),
    ActionKind.ENTER_BATTLE_PHASE: (),
    ActionKind.END_BATTLE_PHASE: (),
    ActionKind.NEXT_PHASE: (),
    ActionKind.END_TURN: (),
    ActionKind.FINISH_TURN: (),
    ActionKind.CONCEDE: (),
}
"""The wire keys each action takes (besides ``do``)."""
