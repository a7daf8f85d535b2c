"""The working context of one ``decide`` call: a private copy of the state and
the facts produced so far. ``emit`` applies each fact at once, so later rules
code sees its effect, and the same facts fold to the same state."""

from __future__ import annotations

from typing import TypeVar

from .apply import apply
from .facts import Fact
from .state import State

F = TypeVar("F", bound=Fact)


class Ctx:
    def __init__(self, state: State) -> None:
        self.s = state
        self.facts: list[Fact] = []

    def emit(self, fact: F) -> F:
        apply(self.s, fact)
        self.facts.append(fact)
        return fact
