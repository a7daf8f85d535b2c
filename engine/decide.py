"""``decide``: what an action causes. It works on a private copy of the state: an illegal
action (one that matches none of ``legal.legal_actions``) raises ``IllegalAction`` and changes
nothing.
"""

from __future__ import annotations

from .actions import (
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
    FinishTurn,
    FlipSummon,
    NextPhase,
    Pass,
    Retarget,
    SetCard,
    Summon,
    parse,
    wire,
)
from .apply import fold
from .battle import battle_step
from .chain import activate, activate_trigger, field_snapshot, trigger_actions
from .ctx import Ctx
from .effects.base import effects_of, script_of
from .effects.choices import answer
from .facts import Choice, DuelEnded, Event, Passed, Summoned, TriggerDone
from .flow import auto_pass_turn_player, end_phase_over, settle
from .formats import rules_of
from .kernel.cow import begin_in_place, derive, end_in_place
from .kernel.memo import carry_over
from .legal import find_legal, trigger_indices
from .main_phase import change_position, flip_summon, set_spell_trap, summon, would_be_summoned
from .ops import move, send_to_grave
from .state import Card, State
from .types import FINISH, ChoiceKind, EventKind, Fact, IllegalAction, Position, Zone, other


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
    # properly Summoned once the Summon is done, not if it is negated (``main_phase._summoned``);
    # Galaxy-Eyes' Tributes open their window after it
    would_be_summoned(ctx, seat, card, "special", was)


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
    if keep:
        carry_over(state, ctx.s, ctx.facts)
    return ctx.facts, ctx.s


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
                    for i in sorted(trigger_indices(s.choice), reverse=True):
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
        case FinishTurn():
            ctx.emit(Passed(seat=seat, intent=FINISH))  # passes every later window of the turn (``flow``)
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
        a = wire(action)
        idx = next(i for i in trigger_indices(s.choice) if a in trigger_actions(s, i))
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
        end_phase_over(ctx)
    else:
        answer(ctx, seat, action)


def _answers_event(s: State, action: Action) -> bool:
    """The action keeps a soft event's window open: it answers the event, or, under Goat priority,
    it is the turn player's Ignition effect of a monster right after a Special Summon made while a
    chain resolved, which the Summon's answers may follow as link 2 (ruling SUM-4; ADR 0010)."""
    if not isinstance(action, Activate) or s.event is None:
        return False
    card = s.cards[action.card]
    effs = effects_of(card)
    idx = action.effect or 1
    if not 1 <= idx <= len(effs):
        return False
    eff = effs[idx - 1]
    if eff.event == s.event.get("kind"):
        return True
    return (
        s.event.get("kind") == EventKind.SUMMONED
        and eff.kind == "ignition"
        and card.zone == Zone.MONSTERS
        and not s.chain
        and rules_of(s).ignition_priority
    )
