"""The rules engine: pure, deterministic, no I/O (see docs/engine-api.md).

``decide(state, seat, action) -> facts``; ``decide_state(state, seat, action) -> (facts,
new state)``; ``evolve(state, fact) -> state``; ``fold(facts) -> state``; ``fold_into``;
``legal_actions``, ``pending``, ``view``, ``Viewpoints`` (per-viewer facts, views and card
aliases), ``describe``; formats (``FORMATS``, ``named``, ``format_of``, ``card_text``: a card's
text as a format plays it; docs/formats.md); ``share_unwritten`` (a process's duels share their
untouched Deck cards).
Randomness comes from the PRNG inside the state.
"""

from __future__ import annotations

from . import effects as _effects  # noqa: F401  (registers every card script)
from . import state as _state
from .actions import Action, WireAction
from .apply import apply_facts, evolve, fold, fold_into
from .card_data import CardData
from .cards import CARDS, CARDS_BY_NAME, by_name
from .decide import decide, decide_state
from .decks import demo_deck
from .describe import describe
from .formats import FORMATS, Format, card_text, format_of, named
from .genesis import DuelConfig, create, initial
from .kernel.cow import CardPool, share_unwritten
from .kernel.hashing import state_hash
from .legal import legal_actions
from .owed import owed_by, pending
from .state import State
from .types import Fact, IllegalAction
from .view import view
from .viewpoints import Viewpoints

ENGINE_VERSION = "0.1.0"

NATIVE: bool = not str(_state.__file__).endswith(".py")
"""True when the engine's modules are the mypyc-compiled ones (server/runtime/native.py chooses, at
import; docs/adr/0008)."""

__all__ = [
    "CARDS",
    "CARDS_BY_NAME",
    "ENGINE_VERSION",
    "FORMATS",
    "NATIVE",
    "Action",
    "CardData",
    "CardPool",
    "DuelConfig",
    "Fact",
    "Format",
    "IllegalAction",
    "State",
    "Viewpoints",
    "WireAction",
    "apply_facts",
    "by_name",
    "card_text",
    "create",
    "decide",
    "decide_state",
    "demo_deck",
    "describe",
    "evolve",
    "fold",
    "fold_into",
    "format_of",
    "initial",
    "legal_actions",
    "named",
    "owed_by",
    "pending",
    "share_unwritten",
    "state_hash",
    "view",
]
