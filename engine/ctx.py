"""The working context of one ``decide`` call: a private copy of the state and
the facts produced so far. ``emit`` applies each fact at once, so later rules
code sees its effect, and the same facts fold to the same state."""

from __future__ import annotations

from typing import Any

from .apply import apply
from .state import State
from .types import Fact


class Ctx:
    def __init__(self, state: State) -> None:
        self.s = state
        self.facts: list[Fact] = []

    def emit(self, t: str, **fields: Any) -> Fact:
        fact: Fact = {"t": t, **fields}
        apply(self.s, fact)
        self.facts.append(fact)
        return fact
