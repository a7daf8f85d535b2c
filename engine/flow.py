"""The turn as a table of phases and a small loop that runs until a player must decide.

The table: ``TURN`` holds one row per phase, ``BATTLE_STEPS`` one per step of the Battle Phase,
``engine.battle.damage_step.TIMINGS`` one per Damage Step timing (ruling DS-1); each row says how
its part begins and what comes next when both players pass on an empty chain. Entering any of
them opens the turn player's priority window; what may be activated in it is said by the
effects (Spell Speed 1 only in ``MAIN_PHASES``; Damage Step timings in ``Effect.damage_step``).

``settle`` is called after every accepted action. It puts waiting trigger
effects on the chain (turn player's first), resolves the chain when both
players have passed in succession, moves the game on when both players pass
on an empty chain (ruling CH-6; seed 003: "after both players pass priority, it becomes
..."), checks replays during the Battle Step, and stops as soon as a player
owes a decision.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from .battle import battle_step, damage_step, end_step, start_step
from .chain import (
    activate_trigger,
    activation_actions,
    open_state,
    resolve_chain,
    summon_window_skips,
    trigger_actions,
    trigger_group,
)
from .ctx import Ctx
from .decisions import PendingChoice
from .effects.base import SCRIPTS
from .facts import (
    ABSENT,
    Absent,
    AttackEnded,
    Choice,
    DelayedDone,
    Event,
    ExtraBattlePhase,
    Flag,
    ModifiersExpired,
    Passed,
    PhaseBegan,
    Priority,
    SkipPhase,
    TriggerDone,
    Turn,
)
from .formats import rules_of
from .legal import legal_actions
from .main_phase import complete_summon
from .ops import change_position, control_to, destroy, draw, raise_event, roster, script_tables
from .state import State
from .stats import continuous_sources, forced_to_defense, has_free_zone
from .types import FINISH, CardFlag, EventKind, LingeringFlag, Phase, Position, Step, Zone, other

HAND_LIMIT: Final = 6
MAX_LOOP: Final = 10_000


def start_turn(ctx: Ctx, player: int) -> None:
    s = ctx.s
    ctx.emit(ModifiersExpired(until=["turn"]))
    ctx.emit(Turn(turn=s.turn + 1, player=player))
    for i in reversed(range(len(s.next_turn))):
        d = s.next_turn[i]
        if d["seat"] != player:
            continue
        if d.get("skip"):
            ctx.emit(SkipPhase(phase=d["skip"]))
        if d.get("extra_battle_phases"):
            ctx.emit(ExtraBattlePhase(count=int(d["extra_battle_phases"])))
        ctx.emit(DelayedDone(index=i))
    _enter_draw(ctx)


# ------------------------------------------------------------------ the turn as a table
#
# Each phase (and each step of the Battle Phase) is one row: how it is entered and what comes
# next once both players pass on an empty chain (ruling CH-6). ``advance`` looks the row up;
# entering a phase is ``_go_to``. The Damage Step's five timings are the same kind of table in
# ``engine.battle.damage_step``.


@dataclass(frozen=True)
class PhaseRow:
    """One phase of the turn."""

    # both players passed on an empty chain in this phase: what comes next (ctx, intent)
    after: Callable[[Ctx, str | None], None]
    # a phase entered in its own way (the Battle Phase begins with its Start Step); by default
    # the ``phase`` fact, ``on_entry``, the ``phase_start`` event, then the turn player's window
    enter: Callable[[Ctx], None] | None = None
    on_entry: Callable[[Ctx], None] | None = None  # rules applied as it begins, before its effects
    # an effect skips the phase (``State.skip``: Timeater): the phase the turn goes to instead,
    # after what the skip itself does; None: never skipped as a whole (in a skipped Draw Phase
    # only the draw is skipped, in ``_enter_draw``; the End Phase always comes)
    skipped: Callable[[Ctx], Phase] | None = None


@dataclass(frozen=True)
class StepRow:
    """One step of the Battle Phase: what comes next once both players pass (ctx, intent)."""

    after: Callable[[Ctx, str | None], None]


def _enter_draw(ctx: Ctx) -> None:
    """The Draw Phase: the turn player draws, except in the first turn of the duel (in Goat
    the first player draws too: ``Rules.first_player_draws``, ruling FMT-1)."""
    s = ctx.s
    player = s.turn_player
    ctx.emit(PhaseBegan(phase=Phase.DRAW))
    raise_event(ctx, {"kind": "phase_start", "phase": Phase.DRAW, "seat": player})
    if (s.turn > 1 or rules_of(s).first_player_draws) and Phase.DRAW not in s.skip:
        draw(ctx, player)
    if not s.finished:
        ctx.emit(Priority(seat=player, passes=0))


def _go_to(ctx: Ctx, phase: Phase) -> None:
    """Enter a phase (skipping it if an effect says so)."""
    s = ctx.s
    while phase in s.skip and (skipped := TURN[phase].skipped) is not None:
        phase = skipped(ctx)
    row = TURN[phase]
    if row.enter is not None:
        row.enter(ctx)
        return
    carry = finishing(s)  # read before ``PhaseBegan`` clears the intent
    ctx.emit(PhaseBegan(phase=phase))
    if row.on_entry is not None:
        row.on_entry(ctx)
    raise_event(ctx, {"kind": "phase_start", "phase": phase, "seat": s.turn_player})
    ctx.emit(Priority(seat=s.turn_player, passes=0, intent=carry))


def finishing(s: State) -> str | Absent:
    """The intent a phase or step entered now carries over: ``FINISH`` while the turn player
    ends the turn (``finish_turn``), for the ``Priority`` fact that opens its window (the
    ``PhaseBegan`` fact clears the intent); otherwise none (``ABSENT``: the fact as it always was)."""
    return FINISH if s.intent == FINISH else ABSENT


def ending(intent: str | None) -> bool:
    """Whether the turn player asked to go to the End Phase (``end_turn``) or to end the turn."""
    return intent == "end" or intent == FINISH


def go_to_end_phase(ctx: Ctx, reason: str) -> None:
    """An effect makes it the End Phase of this turn (Flashbang, Neko Mane King): the
    phase changes directly, leaving the Battle Phase (ruling BP-7; seed 000)."""
    s = ctx.s
    if s.attack is not None:
        ctx.emit(AttackEnded(reason=reason))
    if s.phase != Phase.END:
        _go_to(ctx, Phase.END)


def _return_control(ctx: Ctx) -> None:
    """ "Take control until the End Phase" (``ops.take_control``: Enemy Controller, Uru): control
    returns now."""
    s = ctx.s
    for c in list(s.cards.values()):
        back = c.flags.get(CardFlag.RETURN_TO)
        if back is None or c.zone != Zone.MONSTERS:
            continue
        ctx.emit(Flag(card=c.id, name=CardFlag.RETURN_TO, value=None))
        if c.controller != back and has_free_zone(s, back):
            control_to(ctx, c, back, face_up=c.face_up)


def advance(ctx: Ctx) -> None:
    """Both players passed on an empty chain: the game moves on (the row of the current phase)."""
    s = ctx.s
    if complete_summon(ctx):
        auto_pass_turn_player(ctx)  # the monster is Summoned now (ruling SUM-3)
        return
    if s.event is not None and not s.event.get("soft") and s.step not in (Step.BATTLE, Step.DAMAGE):
        # a summon (or other game action) answered by nobody: back to the open game state
        # (in the Damage Step, e.g. monsters sent at its end, passing moves on at once)
        ctx.emit(Event(event=None))
        ctx.emit(Priority(seat=s.turn_player, passes=0))
        return
    TURN[s.phase].after(ctx, s.intent)


def _after_standby(ctx: Ctx, intent: str | None) -> None:
    """Main Phase 1, or, when it is skipped (Timeater), the Battle Phase or the End Phase as the
    player chooses (ruling BP-5)."""
    s = ctx.s
    if Phase.MAIN1 not in s.skip:
        _go_to(ctx, Phase.MAIN1)
        return
    ctx.emit(SkipPhase(phase=Phase.MAIN1, now=True))
    if not ending(intent) and start_step.may_enter(s):
        start_step.enter(ctx)
    else:
        _go_to(ctx, Phase.END)


def _after_main1(ctx: Ctx, intent: str | None) -> None:
    """The Battle Phase if the player enters it; not entering it goes straight to the End Phase
    (rulings BP-1, BP-2; seed 000)."""
    if intent in (None, "battle", "next") and start_step.may_enter(ctx.s):
        start_step.enter(ctx)
    else:
        _go_to(ctx, Phase.END)


def _advance_battle(ctx: Ctx, intent: str | None) -> None:
    """The Battle Phase goes on by the row of its current step (``BATTLE_STEPS``); after its End
    Step, a granted Battle Phase follows at once (ruling BP-6, ``_after_end_step``)."""
    step = ctx.s.step
    assert step is not None  # the Battle Phase is always in one of its steps
    BATTLE_STEPS[step].after(ctx, intent)


def _after_main2(ctx: Ctx, intent: str | None) -> None:
    """The End Phase, or a Battle Phase granted only now (ruling BP-6)."""
    if intent == "battle" and start_step.may_enter(ctx.s):
        start_step.enter(ctx)
    else:
        _go_to(ctx, Phase.END)


def _after_start_step(ctx: Ctx, intent: str | None) -> None:
    start_step.leave(ctx)


def _after_battle_step(ctx: Ctx, intent: str | None) -> None:
    """An open Battle Step: the End Step; with an attack waiting: its Damage Step."""
    if ctx.s.attack is None:
        end_step.enter(ctx)
    else:
        ctx.emit(Event(event=None))
        damage_step.enter(ctx)


def _after_damage_step_timing(ctx: Ctx, intent: str | None) -> None:
    damage_step.next_timing(ctx)


def _after_end_step(ctx: Ctx, intent: str | None) -> None:
    s = ctx.s
    back = [m.value for m in s.modifiers if m.op == "flag" and m.stat == LingeringFlag.RESUME_PHASE]
    if back:
        # a special Battle Phase (Last Turn) is over: the turn goes on from the phase it
        # interrupted, without entering that phase again (ruling CARD-1)
        carry = finishing(s)
        ctx.emit(PhaseBegan(phase=PHASE_ORDER[back[0]]))
        ctx.emit(Priority(seat=s.turn_player, passes=0, intent=carry))
    elif ending(intent) or Phase.MAIN2 in s.skip:
        _go_to(ctx, Phase.END)
    elif start_step.another_follows(s):
        # ruling BP-6: a granted Battle Phase begins right after this one's End Step; Main
        # Phase 2 comes only after the last one
        start_step.enter(ctx)
    else:
        _go_to(ctx, Phase.MAIN2)


def _main1_skipped(ctx: Ctx) -> Phase:
    """A skipped Main Phase 1 is announced as it is skipped. The Battle Phase was the player's
    choice in the Standby Phase (ruling BP-5), so the turn goes on to Main Phase 2, or to the End
    Phase when no Battle Phase may come between them."""
    s = ctx.s
    ctx.emit(SkipPhase(phase=Phase.MAIN1, now=True))
    return Phase.END if Phase.BATTLE in s.skip or s.battle_phases == 0 else Phase.MAIN2


def end_phase_over(ctx: Ctx, intent: str | None = None) -> None:
    s = ctx.s
    tp = s.turn_player
    extra = len(s.players[tp].hand) - HAND_LIMIT
    if extra > 0:
        ctx.emit(Choice(choice={"seat": tp, "kind": "discard", "count": extra}))
        return
    ctx.emit(ModifiersExpired(until=["end_phase"]))
    start_turn(ctx, other(tp))


TURN: Final[dict[Phase, PhaseRow]] = {
    Phase.DRAW: PhaseRow(enter=_enter_draw, after=lambda ctx, intent: _go_to(ctx, Phase.STANDBY)),
    Phase.STANDBY: PhaseRow(after=_after_standby, skipped=lambda ctx: Phase.MAIN1),
    Phase.MAIN1: PhaseRow(after=_after_main1, skipped=_main1_skipped),
    Phase.BATTLE: PhaseRow(enter=start_step.enter, after=_advance_battle, skipped=lambda ctx: Phase.MAIN2),
    Phase.MAIN2: PhaseRow(after=_after_main2, skipped=lambda ctx: Phase.END),
    Phase.END: PhaseRow(on_entry=_return_control, after=end_phase_over),
}
PHASE_ORDER: Final[tuple[Phase, ...]] = tuple(TURN)  # the order of the phases is the table's

BATTLE_STEPS: Final[dict[Step, StepRow]] = {
    Step.START: StepRow(after=_after_start_step),
    Step.BATTLE: StepRow(after=_after_battle_step),
    Step.DAMAGE: StepRow(after=_after_damage_step_timing),
    Step.END: StepRow(after=_after_end_step),
}


# ------------------------------------------------------------------ where each move goes
#
# What ``advance`` would do, said without doing it, for the clients' buttons (the view's
# ``moves``): tests/engine/test_moves.py plays every move of many duels and checks that the
# turn lands where ``destination`` said.

NEXT_TURN: Final = "next_turn"
"""A destination: the turn ends (after the End Phase's discard, if any)."""

MOVE_INTENTS: Final[dict[str, str | None]] = {
    "next_phase": "next",
    "end_battle_phase": "next",
    "enter_battle_phase": "battle",
    "end_turn": "end",
    "finish_turn": FINISH,
}
"""The intent of each move through the turn (``engine.decide.perform``); a plain pass keeps the
intent the state has."""


def _entered(s: State, phase: Phase) -> str:
    """The phase ``_go_to(phase)`` enters: the rows' ``skipped``, followed without their facts."""
    while phase in s.skip:
        if phase == Phase.STANDBY:
            phase = Phase.MAIN1
        elif phase == Phase.MAIN1:
            phase = Phase.END if Phase.BATTLE in s.skip or s.battle_phases == 0 else Phase.MAIN2
        elif phase in (Phase.BATTLE, Phase.MAIN2):
            phase = Phase.MAIN2 if phase == Phase.BATTLE else Phase.END
        else:
            break
    return "battle/start" if phase == Phase.BATTLE else phase.value


def destination(s: State, intent: str | None) -> str:
    """Where the turn goes when both players pass on an empty chain with ``intent`` (the turn
    player's: ``MOVE_INTENTS``): the phase entered (``standby`` ... ``end``), a step of the
    Battle Phase (``battle/start``, ``battle/battle``, ``battle/end``, ``battle/damage``), or
    ``next_turn``. ``finish_turn`` goes to ``next_turn`` however many windows lie between."""
    if intent == FINISH or s.phase == Phase.END:
        return NEXT_TURN
    phase = s.phase
    if phase == Phase.DRAW:
        return _entered(s, Phase.STANDBY)
    if phase == Phase.STANDBY:
        if Phase.MAIN1 not in s.skip:
            return _entered(s, Phase.MAIN1)
        return "battle/start" if not ending(intent) and start_step.may_enter(s) else _entered(s, Phase.END)
    if phase == Phase.MAIN1:
        if intent in (None, "battle", "next") and start_step.may_enter(s):
            return "battle/start"
        return _entered(s, Phase.END)
    if phase == Phase.MAIN2:
        return "battle/start" if intent == "battle" and start_step.may_enter(s) else _entered(s, Phase.END)
    step = s.step
    if step == Step.START:
        return "battle/battle"
    if step == Step.BATTLE:
        return "battle/end" if s.attack is None else "battle/damage"
    if step == Step.END:
        back = [m.value for m in s.modifiers if m.op == "flag" and m.stat == LingeringFlag.RESUME_PHASE]
        if back:
            return PHASE_ORDER[back[0]].value
        if ending(intent) or Phase.MAIN2 in s.skip:
            return _entered(s, Phase.END)
        return "battle/start" if start_step.another_follows(s) else _entered(s, Phase.MAIN2)
    return "battle/damage"


def moves(s: State) -> dict[str, str] | None:
    """For the seat that has priority in an open game state outside the Damage Step: where each of
    its moves through the turn goes (``destination``), by its ``do`` (``pass`` included); None
    elsewhere. The same for every viewer: the phase, the skips and the intents are public."""
    if s.finished or s.step == Step.DAMAGE or s.attack is not None or not open_state(s):
        return None
    seat = s.priority
    out = {"pass": destination(s, s.intent)}
    if seat == s.turn_player:
        for a in legal_actions(s, seat):
            intent = MOVE_INTENTS.get(a["do"], "")
            if intent != "":
                out[a["do"]] = destination(s, intent)
    return out


def _auto_pass_wanted(s: State) -> bool:
    """Match option ``auto_pass``: skip a window for a player who can do nothing but pass."""
    if not s.options.get("auto_pass"):
        return False
    acts = legal_actions(s, s.priority)
    return all(a["do"] == "pass" for a in acts)


def _finishing_pass(s: State) -> bool:
    """The turn player ends the turn (``finish_turn``): each window of the turn that opens for it
    on an empty chain is passed for it (the opponent is still asked in each). Where it may not
    pass (an attack it must declare) it is asked."""
    if s.intent != FINISH or s.priority != s.turn_player or not open_state(s):
        return False
    return any(a["do"] == "pass" for a in legal_actions(s, s.priority))


SELF_DESTROYING: Final[tuple[str, ...]] = ("self_destroying",)
"""The ``ops.roster`` key of the cards whose scripts may destroy themselves (``Script.self_destroy``)."""


def _self_destroying(s: State) -> tuple[int, ...]:
    """The ids of the cards of the duel whose scripts may destroy themselves (``ops.roster``)."""
    return roster(s, SELF_DESTROYING, script_tables().self_destroying)


def _self_destruct(ctx: Ctx) -> bool:
    """Continuous self-destruction (Giant Kozaky ...), held back in the Damage Step until
    after damage calculation; a monster destroyed by that battle never applies it (ruling DS-3; seed 003)."""
    s = ctx.s
    if damage_step.holds_self_destruction(s):
        return False
    cards = s.cards
    if not any(cards[cid].zone == Zone.MONSTERS and cards[cid].face_up for cid in _self_destroying(s)):
        return False  # no face-up monster that can destroy itself (the loop below would find none)
    for seat in (s.turn_player, other(s.turn_player)):
        for c in s.monsters(seat):
            sc = SCRIPTS.get(c.code)
            if sc is None or sc.self_destroy is None or not c.face_up:
                continue
            if s.attack is not None and c.id in s.attack.destroyed:
                continue
            if sc.self_destroy(s, c):
                destroy(ctx, c, reason="self", by=c.id)
                return True
    return False


def _forced_to_defense(ctx: Ctx) -> bool:
    """A face-up monster in Attack Position that must be in Defense Position (Level Limit - Area
    B, ``Script.forces_defense``) is changed to it at once, by the continuous effect (no chain)."""
    s = ctx.s
    if not any(sc.forces_defense is not None for _src, sc in continuous_sources(s)):
        return False
    for seat in (s.turn_player, other(s.turn_player)):
        for c in s.monsters(seat):
            if c.face_up and c.position == Position.ATTACK and forced_to_defense(s, c):
                change_position(ctx, c, Position.DEFENSE)
                return True
    return False


def _timing_gone(s: State, index: int) -> bool:
    """A "when battle damage is inflicted" effect left waiting while the phase changed (Flashbang
    made it the End Phase) does not activate (ruling DS-8)."""
    return s.triggers[index].event.get("kind") == EventKind.BATTLE_DAMAGE and s.phase != Phase.BATTLE


def _summoning(s: State) -> bool:
    """A monster would be Summoned (ruling SUM-3): the trigger effects waiting (its Tributes') go on
    a chain only once it is Summoned, with its own."""
    return s.event is not None and s.event.get("kind") == EventKind.SUMMONING


def _end_step_waits(s: State) -> bool:
    """OCG End Step (ruling ES-2; seed 003): "If multiple Spell Speed 1 effects would activate at this time,
    they do so in separate Chains": an end-of-Battle-Phase trigger waits while a chain is open."""
    if not s.chain:
        return False
    group = trigger_group(s)
    return bool(group) and s.triggers[group[0]].event.get("kind") == EventKind.BATTLE_PHASE_END


def settle(ctx: Ctx) -> None:
    """Run the game until a player owes a decision (or the duel ends)."""
    s = ctx.s
    for _ in range(MAX_LOOP):
        if s.finished or s.choice is not None:
            return
        if s.resolving is not None:
            # a chain stopped for a selection made at resolution: it goes on
            if resolve_chain(ctx):
                _after_chain(ctx)
            continue
        if not s.chain or s.passes == 0:
            if _self_destruct(ctx) or _forced_to_defense(ctx):
                continue
        group = trigger_group(s) if s.triggers and not _end_step_waits(s) and not _summoning(s) else []
        if group:
            dead = [i for i in group if not trigger_actions(s, i) or _timing_gone(s, i)]
            if dead:
                ctx.emit(TriggerDone(index=dead[-1], skipped=True))  # it cannot be activated now
                continue
            idx = group[0]
            trig = s.triggers[idx]
            if len(group) == 1 and trig.mandatory and len(trigger_actions(s, idx)) == 1:
                activate_trigger(ctx, idx)
                continue
            # optional: activate or not; mandatory with several targets: which one; several
            # simultaneous triggers of one player: which goes first (ruling CH-5)
            ch: PendingChoice = {
                "seat": trig.controller,
                "kind": "trigger",
                "index": idx,
                "indices": group,
                "card": s.cards[trig.card].id,
            }
            if trig.mandatory:
                ch["mandatory"] = True
            ctx.emit(Choice(choice=ch))
            return
        if s.step == Step.BATTLE and s.attack is not None and not s.chain:
            what = battle_step.replay_needed(s)
            if what == "cancel":
                battle_step.cancel(ctx, reason="attacker_cannot_attack")
                continue
            if what == "replay":
                battle_step.start_replay(ctx)
                return
        if s.passes >= 2:
            if s.chain:
                if resolve_chain(ctx):
                    _after_chain(ctx)
            else:
                advance(ctx)
            continue
        if summon_window_skips(s):
            ctx.emit(Passed(seat=s.priority, auto=True))  # not given the summoning window (ruling SUM-3)
            continue
        if _finishing_pass(s):
            ctx.emit(Passed(seat=s.priority, intent=FINISH, auto=True))
            continue
        if _auto_pass_wanted(s):
            ctx.emit(Passed(seat=s.priority, auto=True))
            continue
        return
    raise RuntimeError("engine loop did not settle")


def _after_chain(ctx: Ctx) -> None:
    """A chain has resolved: the turn player gets priority (seed 002, Example 2), or, during
    damage calculation, damage is calculated at once (one chain only, ruling DS-5; effects it
    triggered wait for the next timing)."""
    s = ctx.s
    if s.finished:
        return
    if damage_step.one_chain_only(s):
        damage_step.calculate(ctx)
        return
    if complete_summon(ctx):
        auto_pass_turn_player(ctx)  # the chain did not negate the Summon waiting for it (ruling SUM-3)
        return
    # while the turn player ends the turn, a chain that resolved gives it the decision back
    ctx.emit(Priority(seat=s.turn_player, passes=0, intent=None if s.intent == FINISH else ABSENT))


def auto_pass_turn_player(ctx: Ctx) -> None:
    """After the turn player's own game action (attack declaration, summon) the turn player
    has priority first; with nothing to activate, that priority passes at once. Only the turn
    player's own waiting triggers keep it: whether the opponent has one (perhaps from a card in
    the hand) must not change what the turn player is asked (issue 8)."""
    s = ctx.s
    own_triggers = any(t.controller == s.turn_player for t in s.triggers)
    if s.priority == s.turn_player and not own_triggers and not activation_actions(s, s.turn_player):
        ctx.emit(Passed(seat=s.turn_player, auto=True))
