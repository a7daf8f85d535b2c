"""``decide``: what an action causes. It works on a private copy of the state: an illegal
action (one that matches none of ``legal.legal_actions``) raises ``IllegalAction`` and changes
nothing.
"""

from __future__ import annotations

from .apply import fold
from .battle import battle_step
from .chain import activate, activate_trigger, field_snapshot, note_left_field, trigger_actions
from .ctx import Ctx
from .effects.base import effects_of, script_of
from .effects.choices import answer
from .facts import Choice, DuelEnded, Event, Passed, Priority, Summoned, TriggerDone, Used
from .flow import auto_pass_turn_player, end_phase_over, settle
from .kernel.cow import begin_in_place, derive, end_in_place
from .kernel.memo import carry_over
from .legal import find_legal, trigger_indices
from .main_phase import change_position, flip_summon, set_spell_trap, summon
from .ops import move, raise_event, send_to_grave
from .state import Card, State
from .types import Action, Fact, IllegalAction, other


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
        perform(ctx, seat, legal)
        settle(ctx)
    finally:
        end_in_place(ctx.s, journal, keep)
    if keep:
        carry_over(state, ctx.s, ctx.facts)
    return ctx.facts, ctx.s


def perform(ctx: Ctx, seat: int, a: Action) -> None:
    s = ctx.s
    do = a["do"]
    if s.event is not None and s.event.get("soft") and do != "pass" and not _answers_event(s, a):
        ctx.emit(Event(event=None))  # acting first: the "When ..." timing is gone
    if do == "pass":
        if s.choice is not None:
            if s.choice["kind"] == "trigger":
                # declining: every optional trigger of the group that was not activated
                for i in sorted(trigger_indices(s.choice), reverse=True):
                    ctx.emit(TriggerDone(index=i, declined=True))
            ctx.emit(Choice(choice=None))
            return
        ctx.emit(Passed(seat=seat))
    elif do in ("next_phase", "enter_battle_phase", "end_turn", "end_battle_phase"):
        intent = {"enter_battle_phase": "battle", "end_turn": "end", "next_phase": "next", "end_battle_phase": "next"}[
            do
        ]
        if do == "end_turn" and s.phase == "battle":
            intent = "end"
        ctx.emit(Passed(seat=seat, intent=intent))
    elif do == "activate":
        card = s.cards[a["card"]]
        if s.choice is not None and s.choice["kind"] == "trigger":
            idx = next(i for i in trigger_indices(s.choice) if a in trigger_actions(s, i))
            ctx.emit(Choice(choice=None))
            activate_trigger(ctx, idx, a)
            return
        ahead = s.choice is not None and s.choice["kind"] == "ahead"
        activate(
            ctx,
            seat,
            card,
            int(a.get("effect", 1)),
            list(a.get("target", [])),
            list(a.get("cost", [])),
            a.get("choose"),
        )
        if ahead:
            ctx.emit(Choice(choice=None))
    elif do == "summon" and a.get("procedure"):
        _procedure_summon(ctx, seat, s.cards[a["card"]], list(a.get("cost", [])), str(a.get("position", "attack")))
        auto_pass_turn_player(ctx)
    elif do in ("summon", "set"):
        card = s.cards[a["card"]]
        if card.data.is_monster:
            summon(ctx, seat, card, list(a.get("tribute", [])), face_up=do == "summon")
            if do == "summon" or a.get("tribute"):
                auto_pass_turn_player(ctx)
        else:
            set_spell_trap(ctx, seat, card)
    elif do == "flip_summon":
        flip_summon(ctx, seat, s.cards[a["card"]])
        auto_pass_turn_player(ctx)
    elif do == "change_position":
        change_position(ctx, seat, s.cards[a["card"]])
    elif do == "attack":
        target = None if a.get("direct") else a.get("target")
        battle_step.declare(ctx, s.cards[a["with"]], target)
        auto_pass_turn_player(ctx)
    elif do == "retarget":
        battle_step.retarget(ctx, None if a.get("direct") else a.get("target"))
    elif do == "cancel_attack":
        battle_step.cancel(ctx)
    elif do == "choose":
        ch = s.choice
        assert ch is not None
        if ch["kind"] == "discard":
            ctx.emit(Choice(choice=None))
            for cid in a["cards"]:
                send_to_grave(ctx, s.cards[cid], reason="discard")
            end_phase_over(ctx)
        else:
            answer(ctx, seat, a)
    else:
        raise IllegalAction("action/unknown", f"unknown action {do!r}")


def _answers_event(s: State, a: Action) -> bool:
    if a["do"] != "activate" or s.event is None:
        return False
    effs = effects_of(s.cards[a["card"]])
    idx = int(a.get("effect", 1))
    return 1 <= idx <= len(effs) and effs[idx - 1].event == s.event.get("kind")
