"""``legal_actions`` and ``decide``: what a seat may do now, and what its action causes.

``decide`` accepts an action only if it matches one of ``legal_actions`` (on
every key the action names), so the two can never disagree. It works on a
private copy: an illegal action raises ``IllegalAction`` and changes nothing.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any, Final

from .actions import (
    ACTIONS,
    Action,
    Activate,
    Attack,
    CancelAttack,
    ChangePosition,
    Choose,
    Concede,
    EndBattlePhase,
    EndTurn,
    EnterBattlePhase,
    FlipSummon,
    NextPhase,
    Pass,
    Retarget,
    SetCard,
    Summon,
    WireAction,
    parse,
    wire,
)
from .apply import fold
from .battle import battle_step
from .battle.start_step import may_enter
from .chain import activate, activation_actions, field_snapshot, note_left_field, open_state
from .ctx import Ctx
from .decisions import PendingChoice
from .effects.base import effects_of, script_of
from .facts import Choice, DuelEnded, Event, Passed, Priority, Summoned, TriggerDone, Used
from .flow import auto_pass_turn_player, owed_by, pending, settle
from .main_phase import change_position, flip_summon, set_spell_trap, summon, summon_actions
from .ops import move, raise_event, send_to_grave
from .state import Card, State, begin_in_place, carry_board_hash, derive, end_in_place
from .stats import can_summon
from .types import ChoiceKind, Fact, IllegalAction, Phase, Position, Step, Zone, other

PASS: Final[WireAction] = {"do": "pass"}
KNOWN_ACTIONS: Final = frozenset(cls.DO.value for cls in ACTIONS)


def legal_actions(s: State, seat: int) -> list[WireAction]:
    """Every action ``seat`` may take now (empty if the engine is not waiting for it)."""
    if owed_by(s) != seat:
        return []
    if s.choice is not None:
        return _choice_actions(s, seat)
    out: list[WireAction] = []
    out.extend(activation_actions(s, seat))
    if seat == s.turn_player and open_state(s):
        out.extend(
            a
            for a in summon_actions(s, seat)
            if a["do"] != "summon" or can_summon(s, s.cards[a["card"]], seat, "normal")
        )
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
            out = [a for a in out if a["do"] not in ("pass", "end_battle_phase", "end_turn", "next_phase")]
    return out


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


def _procedure_summon(ctx: Ctx, seat: int, card: Card, cost: list[int], position: str) -> None:
    sc = script_of(card)
    was = field_snapshot(ctx.s)
    if sc is not None and sc.procedure_cost is not None:
        sc.procedure_cost(ctx, card, seat, cost)
    move(ctx, card, "monsters", position=position, face_up=True)
    ctx.emit(
        Summoned(
            seat=seat, card=card.id, code=card.code, kind="special", procedure=True, layout=Summoned.CODE_BEFORE_KIND
        )
    )
    ctx.emit(Used(key=f"proper_summon:{card.id}"))  # properly Summoned: may be revived later
    raise_event(ctx, {"kind": "summoned", "card": card.id, "how": "special", "seat": seat})
    ctx.emit(Event(event={"kind": "summoned", "card": card.id, "how": "special"}))
    note_left_field(ctx, was, "tribute")  # Galaxy-Eyes' Tributes (ruling LF-3)
    ctx.emit(Priority(seat=seat, passes=0))


def _phase_actions(s: State) -> list[WireAction]:
    out: list[WireAction] = []
    if s.phase == Phase.BATTLE and s.step in (Step.START, Step.END):
        out.append({"do": "next_phase"})
        return out
    if s.phase == Phase.BATTLE and s.step == Step.BATTLE and s.attack is None:
        out.append({"do": "end_battle_phase"})
        out.append({"do": "end_turn"})
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
    return out


def _choice_actions(s: State, seat: int) -> list[WireAction]:
    ch = s.choice
    assert ch is not None
    kind = ch["kind"]
    if kind == ChoiceKind.REPLAY:
        return battle_step.replay_actions(s)
    if kind == ChoiceKind.TRIGGER:
        from .chain import trigger_actions

        ways = [w for i in _trigger_indices(ch) for w in trigger_actions(s, i)]
        return ways if ch.get("mandatory") else [*ways, dict(PASS)]
    if kind == ChoiceKind.DISCARD:
        hand = s.players[seat].hand
        return [{"do": "choose", "cards": list(c)} for c in combinations(hand, int(ch["count"]))]
    if kind == ChoiceKind.AHEAD:
        from .chain import ahead_actions

        return [*ahead_actions(s, seat, list(ch["kinds"])), dict(PASS)]
    if kind in (ChoiceKind.OPTIONS, ChoiceKind.CARDS):
        from .effects.choices import choice_actions

        return choice_actions(ch)
    return []


def _trigger_indices(ch: PendingChoice) -> list[int]:
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
    ``object``: compiled code checks argument types, and junk must get IllegalAction)."""
    if not isinstance(action, dict) or not isinstance(action.get("do"), str):
        raise IllegalAction("action/malformed", "an action is a map with a string 'do'")
    if s.finished:
        raise IllegalAction("match/finished", "the duel is over")
    if owed_by(s) != seat:
        raise IllegalAction("action/not_your_priority", "the engine is waiting for the other player")
    a = normalize(action)
    do = a["do"]
    for la in known_legal_actions(s, seat):
        # ``matches`` would refuse another kind of action on its "do" (a str: no normalizing
        # makes two differ less): skipping them first spares a pass the scan of every activation
        if la["do"] == do and matches(a, la):
            return dict(la)  # the first that matches
    raise IllegalAction("action/illegal", explain(s, seat, a))


def known_legal_actions(s: State, seat: int) -> list[WireAction]:
    """``legal_actions``, kept with the state until a fact changes it: the server computes
    them to send them to the seat, then checks the seat's answer against them. Read only:
    the list and its actions are shared (``legal_actions`` gives a fresh copy)."""
    if seat != 0 and seat != 1:
        return legal_actions(s, seat)  # nothing, worked out anew
    memo = s.memo()
    kept = memo.legal
    if kept is None:
        kept = memo.legal = [None, None]
    got = kept[seat]
    if got is None:
        got = kept[seat] = legal_actions(s, seat)
    return got


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


def decide(state: State, seat: int, action: object) -> list[Fact]:
    """The facts ``action`` by ``seat`` causes, up to the next decision; raises IllegalAction."""
    if isinstance(action, dict) and action.get("do") == "concede":
        if state.finished:
            raise IllegalAction("match/finished", "the duel is over")
        if seat not in (0, 1):
            raise IllegalAction("action/malformed", "seat must be 0 or 1")
        if set(action) != {"do"}:
            raise IllegalAction("action/malformed", 'concede takes no fields: send {"do": "concede"}')
        return [DuelEnded(winner=other(seat), reason="concede")]
    facts, _ = _decide(state, seat, action, keep=False)
    return facts


def decide_state(state: State, seat: int, action: object) -> tuple[list[Fact], State]:
    """``decide``, and the state after its facts: what ``fold(facts, state)`` gives (a
    property test keeps them equal), without folding the facts a second time. ``state`` does
    not change; the new state shares with it the cards the action did not change."""
    return _decide(state, seat, action, keep=True)


def _decide(state: State, seat: int, action: object, keep: bool) -> tuple[list[Fact], State]:
    if isinstance(action, dict) and action.get("do") == "concede":
        facts = decide(state, seat, action)
        return facts, fold(facts, state) if keep else state
    legal = find_legal(state, seat, action)
    # the Ctx writes the cards in place (rules code that holds a card sees every change to it);
    # the journal gives each written card its first version back at the end, so ``state`` and
    # every state sharing cards with it are as before, whether the action succeeds or raises
    ctx = Ctx(derive(state))
    journal = begin_in_place(ctx.s)
    try:
        perform(ctx, seat, parse(legal))
        settle(ctx)
    finally:
        end_in_place(ctx.s, journal, keep)
    if keep and state._memo is not None:
        if all(f.__class__ in BOARD_UNCHANGED for f in ctx.facts):
            # nothing on the board changed (a pass): what views computed from the board stays
            # true, and so does the digest of the board (engine.state.state_hash)
            ctx.s._memo = state._memo.carried()
        else:
            carry_board_hash(state, ctx.s)  # a new phase, say, writes no card and no player
    return ctx.facts, ctx.s


BOARD_UNCHANGED: Final[frozenset[type[Fact]]] = frozenset({Passed, Priority})
"""Facts that change who may act and nothing else: no card, LP, zone, phase, chain or
modifier (so no ATK/DEF either: no stat depends on priority)."""


def perform(ctx: Ctx, seat: int, action: Action) -> None:
    """Do ``action``, a legal one (``find_legal``), for ``seat``: the facts go to ``ctx``."""
    s = ctx.s
    if s.event is not None and s.event.get("soft") and not isinstance(action, Pass) and not _answers_event(s, action):
        ctx.emit(Event(event=None))  # acting first: the "When ..." timing is gone
    match action:
        case Pass():
            if s.choice is not None:
                if s.choice["kind"] == ChoiceKind.TRIGGER:
                    # declining: every optional trigger of the group that was not activated
                    for i in sorted(_trigger_indices(s.choice), reverse=True):
                        ctx.emit(TriggerDone(index=i, declined=True))
                ctx.emit(Choice(choice=None))
                return
            ctx.emit(Passed(seat=seat))
        case NextPhase() | EndBattlePhase():
            ctx.emit(Passed(seat=seat, intent="next"))  # a pass that moves the turn on (``flow``)
        case EnterBattlePhase():
            ctx.emit(Passed(seat=seat, intent="battle"))
        case EndTurn():
            ctx.emit(Passed(seat=seat, intent="end"))
        case Activate():
            _activate(ctx, seat, action)
        case Summon(procedure=True):
            _procedure_summon(
                ctx, seat, s.cards[action.card], action.cost or [], action.position or Position.ATTACK.value
            )
            auto_pass_turn_player(ctx)
        case Summon() | SetCard():
            card = s.cards[action.card]
            if card.data.is_monster:
                face_up = isinstance(action, Summon)
                summon(ctx, seat, card, list(action.tribute or ()), face_up=face_up)
                if face_up or action.tribute:
                    auto_pass_turn_player(ctx)
            else:
                set_spell_trap(ctx, seat, card)
        case FlipSummon():
            flip_summon(ctx, seat, s.cards[action.card])
            auto_pass_turn_player(ctx)
        case ChangePosition():
            change_position(ctx, seat, s.cards[action.card])
        case Attack():
            battle_step.declare(ctx, s.cards[action.with_], None if action.direct else action.target)
            auto_pass_turn_player(ctx)
        case Retarget():
            battle_step.retarget(ctx, None if action.direct else action.target)
        case CancelAttack():
            battle_step.cancel(ctx)
        case Choose():
            _choose(ctx, seat, action)
        case Concede():  # decided before a Ctx is made (``decide``): never a legal action
            raise IllegalAction("action/malformed", "concede is not performed")


def _activate(ctx: Ctx, seat: int, action: Activate) -> None:
    s = ctx.s
    card = s.cards[action.card]
    if s.choice is not None and s.choice["kind"] == ChoiceKind.TRIGGER:
        from .chain import activate_trigger, trigger_actions

        a = wire(action)
        idx = next(i for i in _trigger_indices(s.choice) if a in trigger_actions(s, i))
        ctx.emit(Choice(choice=None))
        activate_trigger(ctx, idx, a)
        return
    ahead = s.choice is not None and s.choice["kind"] == ChoiceKind.AHEAD
    activate(ctx, seat, card, action.effect or 1, list(action.target or ()), list(action.cost or ()), action.choose)
    if ahead:
        ctx.emit(Choice(choice=None))


def _choose(ctx: Ctx, seat: int, action: Choose) -> None:
    ch = ctx.s.choice
    assert ch is not None
    if ch["kind"] == ChoiceKind.DISCARD:
        ctx.emit(Choice(choice=None))
        for cid in action.cards or ():
            send_to_grave(ctx, ctx.s.cards[cid], reason="discard")
        from .flow import _end_phase_over

        _end_phase_over(ctx)
    else:
        from .effects.choices import answer

        answer(ctx, seat, action)


def _answers_event(s: State, action: Action) -> bool:
    if not isinstance(action, Activate) or s.event is None:
        return False
    effs = effects_of(s.cards[action.card])
    idx = action.effect or 1
    return 1 <= idx <= len(effs) and effs[idx - 1].event == s.event.get("kind")
