"""Answers to choices an effect asks for while it resolves.

Cards in the current pool take every decision at activation (targets, costs,
``choose``), so no resolution-time choice is pending yet; this is the hook
where such answers will be applied.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..ctx import Ctx
from ..types import Action, IllegalAction

# handlers for resolution-time choices (``State.choice`` of kind ``cards``/``options``), by the
# choice's ``for`` key: (ctx, seat, action, the choice) -> None
ANSWERS: dict[str, Callable[[Ctx, int, Action, dict[str, Any]], None]] = {}


def answer(ctx: Ctx, seat: int, action: Action) -> None:
    ch = ctx.s.choice
    handler = ANSWERS.get(str(ch.get("for"))) if ch is not None else None
    if ch is None or handler is None:
        raise IllegalAction("action/illegal", "no choice of this kind is pending")
    ctx.emit("choice", choice=None)
    handler(ctx, seat, action, ch)
