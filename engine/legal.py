"""``legal_actions``: what a seat may do now, and which of them an action sent asks for.

``decide`` accepts an action only if it matches one of ``legal_actions`` (on every key the
action names, ``find_legal``), so the two can never disagree.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any, Final

from .actions import BY_KIND, WireAction
from .battle import battle_step
from .battle.start_step import may_enter
from .chain import activation_actions, ahead_actions, open_state, trigger_actions
from .decisions import PendingChoice
from .effects.base import script_of
from .effects.choices import choice_actions
from .kernel import memo
from .main_phase import summon_actions
from .owed import owed_by, pending
from .state import State
from .stats import can_summon, summons_locked
from .types import ChoiceKind, IllegalAction, Phase, Step, Zone, other

PASS: Final[WireAction] = {"do": "pass"}
KNOWN_ACTIONS: Final = frozenset(BY_KIND)
"""Every ``do`` of the action table (``engine.actions``)."""


def legal_actions(s: State, seat: int) -> list[WireAction]:
    """Every action ``seat`` may take now (empty if the engine is not waiting for it). Read only:
    the list and its actions are the state's (worked out once per state and seat: the server
    sends them to the seat, then checks the seat's answer against them); copy one to change it."""
    return memo.legal(s, seat, _legal_actions)


def _legal_actions(s: State, seat: int) -> list[WireAction]:
    if owed_by(s) != seat:
        return []
    if s.choice is not None:
        return _choice_actions(s, seat)
    out: list[WireAction] = []
    out.extend(activation_actions(s, seat))
    if seat == s.turn_player and open_state(s):
        out.extend(a for a in summon_actions(s, seat) if _summon_allowed(s, seat, a))
        out.extend(procedure_actions(s, seat))
        out.extend(battle_step.attack_actions(s, seat))
        out.extend(_phase_actions(s))
    out.append(dict(PASS))
    if (
        seat == s.turn_player
        and open_state(s)
        and s.phase == Phase.BATTLE
        and s.step == Step.BATTLE
        and s.attack is None
    ):
        if battle_step.forced_attack_pending(s):
            out = [
                a for a in out if a["do"] not in ("pass", "end_battle_phase", "end_turn", "next_phase", "finish_turn")
            ]
    return out


def _summon_allowed(s: State, seat: int, a: WireAction) -> bool:
    """A Normal Summon the rules allow (``stats.can_summon``); a monster Set unless the player
    may Summon nothing this turn (Scapegoat, ``stats.summons_locked``)."""
    if a["do"] == "summon":
        return can_summon(s, s.cards[a["card"]], seat, "normal")
    if a["do"] == "set" and s.cards[a["card"]].data.is_monster:
        return not summons_locked(s, seat)
    return True


def procedure_actions(s: State, seat: int) -> list[WireAction]:
    """Special Summons from the hand by a card's own procedure (Fenrir: "can only be Special
    Summoned by removing 2 WATER monsters in your Graveyard from play"): a Main Phase action of
    the turn player in an open game state, like a Normal Summon; it does not start a chain."""
    if s.phase not in (Phase.MAIN1, Phase.MAIN2) or s.priority != seat:
        return []
    out: list[WireAction] = []
    for cid in s.players[seat].hand:
        c = s.cards[cid]
        sc = script_of(c)
        if sc is None or sc.procedure is None or not can_summon(s, c, seat, "procedure"):
            continue
        for cost in sc.procedure(s, c, seat):
            for position in ("attack", "defense"):
                out.append({"do": "summon", "card": cid, "cost": list(cost), "procedure": True, "position": position})
    return out


def _phase_actions(s: State) -> list[WireAction]:
    """The turn player's moves through the turn (``engine.flow``; where each goes: ``flow.destination``)."""
    out: list[WireAction] = []
    if s.phase == Phase.BATTLE and s.step in (Step.START, Step.END):
        out.append({"do": "next_phase"})
        out.append({"do": "finish_turn"})
        return out
    if s.phase == Phase.BATTLE and s.step == Step.BATTLE and s.attack is None:
        out.append({"do": "end_battle_phase"})
        out.append({"do": "end_turn"})
        out.append({"do": "finish_turn"})
        return out
    if s.phase == Phase.BATTLE:
        return out
    if may_enter(s):
        out.append({"do": "enter_battle_phase"})
    out.append({"do": "next_phase"})
    forced = (
        s.phase in (Phase.DRAW, Phase.STANDBY, Phase.MAIN1)
        and s.turn > 1
        and s.battle_phases == 0
        and "battle" not in s.skip
        and battle_step.must_enter(s)
    )
    if s.phase in (Phase.MAIN1, Phase.MAIN2, Phase.STANDBY, Phase.DRAW) and not forced:
        out.append({"do": "end_turn"})
    if not forced:
        out.append({"do": "finish_turn"})
    return out


def _choice_actions(s: State, seat: int) -> list[WireAction]:
    ch = s.choice
    assert ch is not None
    kind = ch["kind"]
    if kind == ChoiceKind.REPLAY:
        return battle_step.replay_actions(s)
    if kind == ChoiceKind.TRIGGER:
        ways = [w for i in trigger_indices(ch) for w in trigger_actions(s, i)]
        return ways if ch.get("mandatory") else [*ways, dict(PASS)]
    if kind == ChoiceKind.DISCARD:
        hand = s.players[seat].hand
        return [{"do": "choose", "cards": list(c)} for c in combinations(hand, int(ch["count"]))]
    if kind == ChoiceKind.AHEAD:
        return [*ahead_actions(s, seat, list(ch["kinds"])), dict(PASS)]
    if kind in (ChoiceKind.OPTIONS, ChoiceKind.CARDS):
        return choice_actions(ch)
    return []


def trigger_indices(ch: PendingChoice) -> list[int]:
    """The pending triggers a ``trigger`` choice is about (several: their controller orders them)."""
    return [int(i) for i in ch.get("indices", [ch["index"]])]


def _norm(v: Any) -> Any:
    if isinstance(v, list | tuple):
        return sorted(_norm(x) for x in v) if all(isinstance(x, int) for x in v) else [_norm(x) for x in v]
    return v


def normalize(action: WireAction) -> WireAction:
    """Accept a few convenient spellings: a single target instead of a list."""
    a = dict(action)
    if a.get("do") == "activate":
        for key in ("target", "cost"):
            if key in a and isinstance(a[key], int):
                a[key] = [a[key]]
    if a.get("direct") is False:
        a.pop("direct")
    return a


def matches(action: WireAction, legal: WireAction) -> bool:
    """Every key the action names agrees with the legal action."""
    for k, v in action.items():
        if k not in legal:
            if v in (None, [], False):
                continue
            return False
        lv = legal[k]
        if v != lv and _norm(v) != _norm(lv):  # equal values normalize equal: most keys need no sort
            return False
    return True


def find_legal(s: State, seat: int, action: object) -> WireAction:
    """The legal action ``action`` asks for. ``action`` is whatever the client sent (typed
    ``object``: junk gets IllegalAction, never TypeError)."""
    if not isinstance(action, dict) or not isinstance(action.get("do"), str):
        raise IllegalAction("action/malformed", "an action is a map with a string 'do'")
    if s.finished:
        raise IllegalAction("match/finished", "the duel is over")
    if owed_by(s) != seat:
        raise IllegalAction("action/not_your_priority", "the engine is waiting for the other player")
    a = normalize(action)
    do = a["do"]
    for la in legal_actions(s, seat):
        # ``matches`` would refuse another kind of action on its "do" (a str: no normalizing
        # makes two differ less): skipping them first spares a pass the scan of every activation
        if la["do"] == do and matches(a, la):
            return dict(la)  # the first that matches
    raise IllegalAction("action/illegal", explain(s, seat, a))


def explain(s: State, seat: int, a: WireAction) -> str:
    """A human reason for the most common illegal actions."""
    do = a.get("do")
    if do not in KNOWN_ACTIONS:
        return f"unknown action {do!r}"
    for key in ("card", "with"):
        if key in a and not (isinstance(a[key], int) and not isinstance(a[key], bool)):
            return f"'{key}' must be a card id (an integer)"
    legal_keys = {k for la in legal_actions(s, seat) if la["do"] == do for k in la}
    extra = [k for k in a if k not in legal_keys and k != "do" and a[k] not in (None, [], False)]
    if legal_keys and extra:
        return f"unexpected field(s) for '{do}': {', '.join(sorted(extra))}"
    ref = a.get("card", a.get("with"))
    card = s.cards.get(ref) if isinstance(ref, int) else None
    name = card.data.name if card is not None and (card.face_up or card.owner == seat) else "that card"
    if do == "attack":
        if s.phase != Phase.BATTLE or s.step != Step.BATTLE:
            return "attacks are declared only in the Battle Step"
        if s.attack is not None:
            return "an attack is already in progress"
        if card is None or card.zone != Zone.MONSTERS or card.controller != seat:
            return "you can only attack with a monster you control"
        if card.attacks >= battle_step.attacks_allowed(s, card):
            return f"{name} has already attacked this Battle Phase"
        if card.position != "attack" or not card.face_up:
            return f"{name} is not in face-up Attack Position"
        if a.get("direct") and s.monsters(other(seat)):
            return "you cannot attack directly while your opponent controls a monster"
        return f"{name} cannot attack that target now"
    if do == "activate":
        if card is None:
            return "no such card"
        if s.step == Step.DAMAGE:
            return f"{name} cannot be activated at this point of the Damage Step ({s.damage_step})"
        if card.set_turn == s.turn and not card.face_up:
            return f"{name} was Set this turn and cannot be activated yet"
        return f"{name} cannot be activated now (timing, spell speed, target or condition)"
    if do in ("summon", "set") and s.players[seat].normal_summoned and card is not None and card.data.is_monster:
        return "you have already Normal Summoned or Set this turn"
    if do == "enter_battle_phase" and s.turn <= 1:
        return "the player who goes first cannot conduct a Battle Phase on the first turn"
    p = pending(s)
    return f"'{do}' is not legal now ({p['prompt'] if p else 'the duel is over'})"
