"""Answers to choices an effect asks for while it resolves.

Cards in the current pool take every decision at activation (targets, costs,
``choose``), so no resolution-time choice is pending yet; this is the hook
where such answers will be applied.
"""

from __future__ import annotations

from ..ctx import Ctx
from ..types import Action, IllegalAction


def answer(ctx: Ctx, seat: int, action: Action) -> None:
    raise IllegalAction("action/illegal", "no choice of this kind is pending")
