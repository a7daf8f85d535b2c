"""What a scenario is asked and did not answer, in words, with the step that answers it.

A scenario stops when the engine asks a question its file does not answer (the position of a
Special Summon, a card to select as an effect resolves, whether to activate an optional trigger
...): the runner (``engine.scenario``) then says which player is asked what, and shows a step to
add, written as the file writes steps (``{B: choose, option: defense}``), e.g. ``B is asked where
Battle Fader is Special Summoned (attack or defense): add {B: choose, option: attack} after step
6``. The same words refuse a ``choose`` given on ``activate`` for a selection the card makes as it
resolves (ruling SEL-1). Pure: it reads a state and the scenario's labels.
"""

from __future__ import annotations

from typing import Any, Final

from .legal import legal_actions
from .scenario_setup import SEATS
from .state import State
from .types import ChoiceKind, WireAction

SEAT_NAMES: Final = tuple(SEATS)
# the arguments of an action that name cards, in the order a step writes them
_CARD_ARGS: Final = ("card", "with", "target", "cost", "tribute", "cards")
_ORDER: Final = ("card", "effect", "with", "target", "direct", "cost", "tribute", "cards", "option", "choose")


def name_of(s: State, labels: dict[str, int], cid: Any) -> str:
    """A card as a scenario names it: its label, else its card name."""
    for label, v in labels.items():
        if v == cid:
            return label
    c = s.cards.get(cid) if isinstance(cid, int) else None
    return c.data.name if c is not None else str(cid)


def _card_name(s: State, cid: Any) -> str:
    c = s.cards.get(cid) if isinstance(cid, int) else None
    return c.data.name if c is not None else "a card"


def _value(s: State, labels: dict[str, int], key: str, v: Any) -> str:
    if key in _CARD_ARGS or key == "choose":
        if isinstance(v, list):
            return "[" + ", ".join(name_of(s, labels, x) if key != "choose" else _choose(s, labels, x) for x in v) + "]"
        return name_of(s, labels, v)
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


def _choose(s: State, labels: dict[str, int], x: Any) -> str:
    return name_of(s, labels, x) if isinstance(x, int) and x in s.cards else str(x)


def step_text(s: State, labels: dict[str, int], seat: int, action: WireAction) -> str:
    """``action`` of ``seat`` written as a scenario step: ``{B: choose, option: defense}``."""
    parts = [f"{SEAT_NAMES[seat]}: {action['do']}"]
    keys = sorted((k for k in action if k != "do"), key=lambda k: _ORDER.index(k) if k in _ORDER else len(_ORDER))
    parts += [f"{k}: {_value(s, labels, k, action[k])}" for k in keys]
    return "{" + ", ".join(parts) + "}"


def asked_seat(s: State) -> int | None:
    """The player a pending question is put to (None: no question waits)."""
    ch = s.choice
    if ch is None or s.finished:
        return None
    return int(ch["seat"])


def question_text(s: State, labels: dict[str, int]) -> str:
    """The pending question in words: ``B is asked where Battle Fader is Special Summoned
    (attack or defense)``."""
    ch = s.choice
    assert ch is not None
    who = SEAT_NAMES[int(ch["seat"])]
    kind = ch.get("kind")
    source = _card_name(s, ch.get("source"))
    if kind == ChoiceKind.OPTIONS:
        options = [str(o) for o in ch.get("options", [])]
        listed = " or ".join(options) if len(options) <= 2 else ", ".join(options[:-1]) + " or " + options[-1]
        if ch.get("then") == "summon.position":
            summoned = _card_name(s, ch.get("data", {}).get("card"))
            return f"{who} is asked where {summoned} is Special Summoned ({listed})"
        return f"{who} is asked to choose for {source} ({listed})"
    if kind == ChoiceKind.CARDS:
        cands = ", ".join(name_of(s, labels, c) for c in ch.get("cards", []))
        n = int(ch.get("count", 1))
        upto = "up to " if int(ch.get("min", n)) < n else ""
        return f"{who} is asked to select {upto}{n} card(s) for {source} (among {cands})"
    if kind == ChoiceKind.TRIGGER:
        card = _card_name(s, ch.get("card"))
        if len(ch.get("indices", [])) > 1:
            return f"{who} is asked which of their simultaneous trigger effects goes on the chain first"
        if ch.get("mandatory"):
            return f"{who} is asked how to activate the mandatory effect of {card}"
        return f"{who} is asked whether to activate the effect of {card}"
    if kind == ChoiceKind.DISCARD:
        return f"{who} is asked to discard {ch.get('count')} card(s) down to the hand limit"
    if kind == ChoiceKind.REPLAY:
        return f"{who} is asked to choose the attack target again (a replay)"
    if kind == ChoiceKind.AHEAD:
        return f"{who} is asked whether to activate a card ahead of the effects battle damage triggers"
    return f"{who} is asked a question ({kind})"


def answer_step(s: State, labels: dict[str, int]) -> str:
    """A step that answers the pending question: the first way to answer it that is not a pass
    (a pass, if that is the only one)."""
    seat = asked_seat(s)
    assert seat is not None
    acts = legal_actions(s, seat)
    best = next((a for a in acts if a["do"] != "pass"), acts[0] if acts else {"do": "pass"})
    return step_text(s, labels, seat, best)


def resolution_choice_text(s: State, labels: dict[str, int], seat: int, action: WireAction) -> str:
    """What a ``choose`` on ``activate`` becomes when the card makes that selection as it
    resolves: the ``choose`` step that answers it then."""
    values = action.get("choose", [])
    if values and all(isinstance(v, int) and v in s.cards for v in values):
        return step_text(s, labels, seat, {"do": "choose", "cards": list(values)})
    return step_text(s, labels, seat, {"do": "choose", "option": values[0] if len(values) == 1 else values})
