"""The actions: what a player may ask the rules for. This module is their one table.

Each action is a frozen dataclass below, named for its ``do`` (``ActionKind``); its fields are
the keys the action takes on the wire (``None``: the key is left out), its docstring what it
does. ``ACTIONS`` lists them in order; everything else that lists actions is made from it or
checked against it:

* ``engine.decide`` accepts only a ``do`` of ``ACTIONS`` and ``perform`` dispatches on the
  classes (``match``);
* the scenario runner's action keys (``engine.scenario_keys.ACTION_KEYS``);
* the fuzzer's verbs and keys (``tests/faults/fuzz_frames.py``);
* PROTOCOL.md's action table and ``web/src/actionkinds.ts`` (``engine.actiondoc``; a test fails
  while they differ), and the labels of the web client (``describeAction`` must handle every
  ``ActionKind``: tsc checks it) and of the terminal client (a test).

On the wire and in the match log an action is a msgpack map, ``{"do": "summon", "card": 12}``
(``WireAction``): the server checks what a client sent against the legal actions as maps, and
:func:`parse` turns the legal one it matched into its class at the edge, once per action.
:func:`wire` gives the same map back (``parse`` and ``wire`` are inverse on every legal action:
``tests/engine/test_actions.py``).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from enum import StrEnum
from typing import Any, ClassVar, Final

WireAction = dict[str, Any]
"""An action as the wire, the log and the legal-action lists have it: ``{"do": ..., keys}``."""


class ActionKind(StrEnum):
    """The ``do`` of an action (its values are the wire's strings)."""

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


@dataclass(frozen=True, slots=True)
class Pass:
    """pass priority, decline, or agree to move on"""

    DO: ClassVar[ActionKind] = ActionKind.PASS


@dataclass(frozen=True, slots=True)
class Summon:
    """Normal/Tribute Summon (`card`, `tribute`?); or a Special Summon by the card's own
    procedure (`card`, `cost`: what it banishes or sends, `procedure`: true, `position`)"""

    DO: ClassVar[ActionKind] = ActionKind.SUMMON
    card: int
    tribute: list[int] | None = None
    cost: list[int] | None = None
    procedure: bool | None = None
    position: str | None = None


@dataclass(frozen=True, slots=True)
class SetCard:
    """Set a monster (face-down Defense Position, `tribute`? as for a Summon) or a Spell/Trap"""

    DO: ClassVar[ActionKind] = ActionKind.SET
    card: int
    tribute: list[int] | None = None


@dataclass(frozen=True, slots=True)
class FlipSummon:
    """Flip Summon a face-down monster"""

    DO: ClassVar[ActionKind] = ActionKind.FLIP_SUMMON
    card: int


@dataclass(frozen=True, slots=True)
class ChangePosition:
    """change a monster's battle position"""

    DO: ClassVar[ActionKind] = ActionKind.CHANGE_POSITION
    card: int


@dataclass(frozen=True, slots=True)
class Activate:
    """activate a card or an effect: `effect` is 1-based (default 1), `target` ids, `cost` ids
    (cards discarded, Tributed, banished), `choose` ids or strings chosen at activation"""

    DO: ClassVar[ActionKind] = ActionKind.ACTIVATE
    card: int
    effect: int | None = None
    target: list[int] | None = None
    cost: list[int] | None = None
    choose: list[int | str] | None = None


@dataclass(frozen=True, slots=True)
class Attack:
    """declare an attack `with` a monster on `target`, or `direct` (true)"""

    DO: ClassVar[ActionKind] = ActionKind.ATTACK
    with_: int
    target: int | None = None
    direct: bool | None = None


@dataclass(frozen=True, slots=True)
class Retarget:
    """after a replay: attack `target`, or `direct` (true)"""

    DO: ClassVar[ActionKind] = ActionKind.RETARGET
    target: int | None = None
    direct: bool | None = None


@dataclass(frozen=True, slots=True)
class CancelAttack:
    """after a replay: give up the attack (it still counts as declared)"""

    DO: ClassVar[ActionKind] = ActionKind.CANCEL_ATTACK


@dataclass(frozen=True, slots=True)
class Choose:
    """answer a `cards`, `options`, `trigger` (order) or `discard` decision: `cards` (ids) or
    `option` (a string)"""

    DO: ClassVar[ActionKind] = ActionKind.CHOOSE
    cards: list[int] | None = None
    option: str | None = None


@dataclass(frozen=True, slots=True)
class EnterBattlePhase:
    """move through the turn: to the Battle Phase"""

    DO: ClassVar[ActionKind] = ActionKind.ENTER_BATTLE_PHASE


@dataclass(frozen=True, slots=True)
class EndBattlePhase:
    """move through the turn: from the Battle Step to the End Step"""

    DO: ClassVar[ActionKind] = ActionKind.END_BATTLE_PHASE


@dataclass(frozen=True, slots=True)
class NextPhase:
    """move through the turn: to the next phase or step"""

    DO: ClassVar[ActionKind] = ActionKind.NEXT_PHASE


@dataclass(frozen=True, slots=True)
class EndTurn:
    """move through the turn: to the End Phase (from Main Phase 1 or 2; from the Battle Step,
    through the End Step); in the Draw and Standby Phases it moves one phase on, as
    `next_phase` does (`finish_turn` ends the turn)"""

    DO: ClassVar[ActionKind] = ActionKind.END_TURN


@dataclass(frozen=True, slots=True)
class FinishTurn:
    """end the turn in one action: the turn player passes in each window of this turn left
    to it (the opponent is still asked in each) until the next turn begins; once a chain has
    resolved meanwhile, the decision is the turn player's again"""

    DO: ClassVar[ActionKind] = ActionKind.FINISH_TURN


@dataclass(frozen=True, slots=True)
class Concede:
    """give up; legal for either seat at any time while the duel runs (never listed in `legal`;
    send `{"do": "concede"}`; see section 5)"""

    DO: ClassVar[ActionKind] = ActionKind.CONCEDE


Action = (
    Pass
    | Summon
    | SetCard
    | FlipSummon
    | ChangePosition
    | Activate
    | Attack
    | Retarget
    | CancelAttack
    | Choose
    | EnterBattlePhase
    | EndBattlePhase
    | NextPhase
    | EndTurn
    | FinishTurn
    | Concede
)
"""An action as the rules read it."""

ACTIONS: Final[tuple[type[Action], ...]] = (
    Pass,
    Summon,
    SetCard,
    FlipSummon,
    ChangePosition,
    Activate,
    Attack,
    Retarget,
    CancelAttack,
    Choose,
    EnterBattlePhase,
    EndBattlePhase,
    NextPhase,
    EndTurn,
    FinishTurn,
    Concede,
)
"""The table: one class per ``ActionKind``, in its order."""


def _key(attr: str) -> str:
    """The wire key of a field (``with`` is a Python keyword: the field is ``with_``)."""
    return attr.rstrip("_")


BY_KIND: Final[dict[str, type[Action]]] = {cls.DO.value: cls for cls in ACTIONS}
"""The class of each ``do`` (keyed by the plain string: what the wire has)."""

KEYS: Final[dict[ActionKind, tuple[str, ...]]] = {cls.DO: tuple(_key(f.name) for f in fields(cls)) for cls in ACTIONS}
"""The wire keys each action takes (besides ``do``), in the class's field order."""

REQUIRED: Final[dict[ActionKind, frozenset[str]]] = {
    cls.DO: frozenset(_key(f.name) for f in fields(cls) if f.default is not None) for cls in ACTIONS
}
"""The keys each action always has."""

_ATTRS: Final[dict[str, tuple[tuple[str, str], ...]]] = {
    cls.DO.value: tuple((_key(f.name), f.name) for f in fields(cls)) for cls in ACTIONS
}


def parse(a: WireAction) -> Action:
    """The action a legal action's map stands for. ``a`` is one of ``legal_actions`` (a client's
    map is matched against those first: ``engine.decide.find_legal``), so it is not checked
    again here: a map with another ``do`` or key raises KeyError or TypeError."""
    do = a["do"]
    given = {attr: a[key] for key, attr in _ATTRS[do] if key in a}
    if len(given) + 1 != len(a):
        raise TypeError(f"{do!r} takes no key {sorted(set(a) - {'do', *KEYS[ActionKind(do)]})}")
    return BY_KIND[do](**given)


def wire(action: Action) -> WireAction:
    """The map of ``action``, as the wire and the log have it (the keys that are not ``None``)."""
    out: WireAction = {"do": action.DO.value}
    for key, attr in _ATTRS[action.DO.value]:
        v = getattr(action, attr)
        if v is not None:
            out[key] = v
    return out
