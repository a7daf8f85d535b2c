"""The decisions the rules wait for besides priority: what ``State.choice`` holds.

A choice is a plain dict at run time (the ``choice`` fact holds it as it is, so the log does
not change); ``PendingChoice`` types its keys and ``ChoiceKind`` names its kinds.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Required, TypedDict


class ChoiceKind(StrEnum):
    """The kinds of decision ``State.choice`` asks for (its ``kind``; PROTOCOL.md, ``pending``)."""

    TRIGGER = "trigger"  # activate (and order) optional trigger effects, or pass
    DISCARD = "discard"  # discard down to the hand limit (End Phase)
    CARDS = "cards"  # choose card(s) as an effect resolves (engine.effects.choices)
    OPTIONS = "options"  # choose one option as an effect resolves
    AHEAD = "ahead"  # battle damage was dealt: activate a card before the effects it triggers
    REPLAY = "replay"  # the attack target changed: attack again, another target, or not


class Pending(TypedDict):
    """The decision owed now (``engine.pending``; PROTOCOL.md, ``pending``): who decides, its kind
    (``"priority"``, or the ``ChoiceKind`` of ``State.choice``) and the question in words."""

    seat: int
    kind: str
    prompt: str


class PendingChoice(TypedDict, total=False):
    """A pending choice; which keys it has depends on its ``kind``."""

    seat: Required[int]  # who decides
    kind: Required[str]  # a ChoiceKind value
    cards: list[int]  # cards: the candidates
    count: int  # cards: how many to choose; discard: how many to discard
    min: int  # cards: at least this many (0: optional)
    options: list[str]  # options: the options
    then: str  # cards, options: the continuation the answer goes to (engine.effects.choices.THEN)
    data: dict[str, Any]  # cards, options: what the continuation keeps (its card's own keys)
    source: int  # cards, options: the card whose effect asks
    revealed: bool  # cards: the candidates were revealed to the deciding seat (shown by name)
    index: int  # trigger: the pending trigger asked about
    indices: list[int]  # trigger: the simultaneous triggers of one player, to activate in order
    card: int  # trigger: its card
    mandatory: bool  # trigger: it must be activated
    kinds: list[str]  # ahead: the event kinds a card may be activated ahead of
