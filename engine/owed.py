"""The decision owed: who must decide now, and what kind of decision."""

from __future__ import annotations

from .decisions import Pending
from .kernel import memo
from .prompts import prompt_for
from .state import State


def pending(s: State) -> Pending | None:
    """Who must decide now, and what kind of decision (None: nobody). Read only: the dict is
    the state's (worked out once per state); copy it to change it."""
    return memo.pending(s, _pending)


def owed_by(s: State) -> object:
    """The seat that owes the decision now (``pending(s)["seat"]``), None when none does."""
    owed = pending(s)
    return None if owed is None else owed["seat"]


def _pending(s: State) -> Pending | None:
    if s.finished or not s.started:
        return None
    if s.choice is not None:
        return {"seat": s.choice["seat"], "kind": s.choice["kind"], "prompt": prompt_for(s)}
    return {"seat": s.priority, "kind": "priority", "prompt": prompt_for(s)}
