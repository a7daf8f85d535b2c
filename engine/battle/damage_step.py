"""The Damage Step in five timings (ruling DS-1; seed 004 and seed 003's OCG section, which
win over 003's older seven TCG "substeps"):

1. start of the Damage Step;
2. before damage calculation: a face-down attack target is flipped face-up; its
   continuous effects apply at once, flip effects wait; "before damage
   calculation" effects (Drillroid, Ehren) may remove a monster, and then the
   calculation is skipped;
3. during damage calculation: one chain of "during damage calculation" cards
   (and cards negating them); then damage is calculated and applied, and the
   monsters destroyed by battle are marked, not yet sent. If a battling
   monster was destroyed by an effect during this timing, the calculation
   stops: no battle damage, nothing destroyed by battle (003, Divine Wrath);
4. after damage calculation: "after damage calculation" and battle-damage
   triggers, flip effects of the flipped target, self-destruction of a flipped
   monster that survived (Giant Kozaky ...);
5. end of the Damage Step: monsters destroyed by battle are sent to the
   Graveyard (banished under Macro Cosmos) and their triggers activate; "until
   the end of the Damage Step" effects end; back to the Battle Step.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from ..ctx import Ctx
from ..effects.base import SCRIPTS
from ..events import LeftCard
from ..facts import (
    ABSENT,
    Absent,
    AttackEnded,
    Battle,
    BattleStopped,
    Choice,
    DamageStep,
    Destroyed,
    Event,
    Flipped,
    ModifiersExpired,
    Priority,
)
from ..ops import damage, raise_event, send_to_grave
from ..state import Attack, State
from ..stats import atk, battle_indestructible, def_, is_negated, lingering_rules, no_battle_damage
from ..types import EventKind, Position, Step, Timing, Zone, other
from .battle_step import attacker_can_go_on


def battle_valid(s: State, a: Attack) -> bool:
    """Both battling monsters are still on the field, on their sides, and the attacker can
    still attack: face-up in Attack Position (ruling BS-4: changed to Defense Position at the
    start of the Damage Step, it does not battle)."""
    attacker = s.cards[a.attacker]
    if not attacker_can_go_on(s, attacker):
        return False
    if a.target is None:
        return True
    t = s.cards[a.target]
    return t.zone == Zone.MONSTERS and t.controller == other(s.turn_player)


def enter(ctx: Ctx) -> None:
    s = ctx.s
    ctx.emit(DamageStep(timing=Timing.START))
    a = s.attack
    assert a is not None
    raise_event(ctx, {"kind": "damage_step_start", "attacker": a.attacker, "target": a.target})
    ctx.emit(Priority(seat=s.turn_player, passes=0))


def next_timing(ctx: Ctx) -> None:
    """Both players passed on an empty chain: go on to the next timing (the timing's row)."""
    s = ctx.s
    assert s.attack is not None
    TIMINGS[s.damage_step or Timing.END].after(ctx)


def holds_self_destruction(s: State) -> bool:
    """Continuous self-destruction (Giant Kozaky ...) waits in this timing (ruling DS-3)."""
    return s.step == Step.DAMAGE and s.damage_step is not None and TIMINGS[s.damage_step].holds_self_destruction


def one_chain_only(s: State) -> bool:
    """During damage calculation: one chain only, and damage is calculated as soon as it has
    resolved (ruling DS-5)."""
    return s.step == Step.DAMAGE and s.damage_step is not None and TIMINGS[s.damage_step].one_chain


def _during_calculation(ctx: Ctx) -> None:
    """Before damage calculation is over: the calculation, unless a battling monster left the
    field (ruling DS-4: the calculation is skipped)."""
    s = ctx.s
    a = s.attack
    assert a is not None
    if not battle_valid(s, a):
        ctx.emit(BattleStopped(reason="a battling monster left the field"))
        _after_calculation(ctx)
        return
    ctx.emit(DamageStep(timing=Timing.DURING_CALC))
    raise_event(ctx, {"kind": "damage_calculation", "attacker": a.attacker, "target": a.target})
    ctx.emit(Priority(seat=s.turn_player, passes=0))


def _before_calculation(ctx: Ctx) -> None:
    s = ctx.s
    a = s.attack
    assert a is not None
    ctx.emit(DamageStep(timing=Timing.BEFORE_CALC))
    if a.target is not None and battle_valid(s, a):
        t = s.cards[a.target]
        if not t.face_up:
            ctx.emit(Flipped(card=t.id, code=t.code, position=Position.DEFENSE, by_attack=True))
    raise_event(ctx, {"kind": "before_damage_calculation", "attacker": a.attacker, "target": a.target})
    ctx.emit(Priority(seat=s.turn_player, passes=0))


def calculate(ctx: Ctx) -> None:
    """Damage calculation (ruling DS-7; seed 003; rulebook): compare, inflict damage, mark destruction."""
    s = ctx.s
    a = s.attack
    assert a is not None
    tp = s.turn_player
    opp = other(tp)
    if not battle_valid(s, a):
        ctx.emit(BattleStopped(reason="a battling monster was destroyed during damage calculation"))
        _after_calculation(ctx)
        return
    attacker = s.cards[a.attacker]
    a_atk = atk(s, attacker)
    destroyed: list[int] = []
    dmg = [0, 0]
    target_atk: int | Absent = ABSENT
    target_def: int | Absent = ABSENT
    if a.target is None:
        dmg[opp] = a_atk
    else:
        t = s.cards[a.target]
        if t.position == Position.ATTACK:
            t_atk = atk(s, t)
            target_atk = t_atk
            if a_atk > t_atk:
                destroyed.append(t.id)
                dmg[opp] = a_atk - t_atk
            elif a_atk < t_atk:
                destroyed.append(attacker.id)
                dmg[tp] = t_atk - a_atk
            elif a_atk > 0:
                destroyed.extend([attacker.id, t.id])
        else:
            t_def = def_(s, t)
            target_def = t_def
            if a_atk > t_def:
                destroyed.append(t.id)
                pierce = SCRIPTS.get(attacker.code)
                if pierce is not None and pierce.piercing:
                    dmg[opp] = a_atk - t_def
            elif a_atk < t_def:
                dmg[tp] = t_def - a_atk
    for seat in (0, 1):
        if dmg[seat] and no_battle_damage(s, seat):
            dmg[seat] = 0
    destroyed = [cid for cid in destroyed if not battle_indestructible(s, s.cards[cid])]
    kept = []
    for cid in destroyed:
        sc = SCRIPTS.get(s.cards[cid].code)
        if (
            sc is not None
            and sc.replace_battle_destruction is not None
            and sc.replace_battle_destruction(ctx, s.cards[cid])
        ):
            continue
        kept.append(cid)
    destroyed = kept
    ctx.emit(
        Battle(
            attacker=attacker.id,
            attacker_atk=a_atk,
            target=a.target,
            target_atk=target_atk,
            target_def=target_def,
            destroyed=destroyed,
            damage=dmg,
        )
    )
    for seat in (tp, opp):
        # lingering rules that apply before the damage is subtracted (Nutrient Z: Script.lingering)
        for before in lingering_rules(s, seat, "before_battle_damage"):
            before(ctx, seat, dmg[seat])
        damage(ctx, seat, dmg[seat], reason="battle")
    if s.finished:
        return
    _after_calculation(ctx)
    if any(t.event.get("kind") == EventKind.BATTLE_DAMAGE for t in s.triggers):
        # ruling DS-8 (seed 003, TCG "Substep 5"): right after battle damage is inflicted,
        # Flashbang may be activated before any "when battle damage is inflicted" effect; the
        # player who was attacked is asked first (the triggers wait for the answer)
        ctx.emit(Choice(choice={"seat": opp, "kind": "ahead", "kinds": ["battle_damage"]}))


def _after_calculation(ctx: Ctx) -> None:
    s = ctx.s
    a = s.attack
    assert a is not None
    ctx.emit(ModifiersExpired(until=["damage_calculation"]))
    ctx.emit(DamageStep(timing=Timing.AFTER_CALC))
    raise_event(
        ctx,
        {
            "kind": "after_damage_calculation",
            "attacker": a.attacker,
            "target": a.target,
            "destroyed": list(a.destroyed),
            "calculated": a.calculated,
        },
    )
    if a.flipped is not None:
        flipped = s.cards[a.flipped]
        if flipped.zone == Zone.MONSTERS and flipped.face_up:
            raise_event(ctx, {"kind": "flipped", "card": flipped.id, "by_attack": True})
    ctx.emit(Priority(seat=s.turn_player, passes=0))


def _end_of_damage_step(ctx: Ctx) -> None:
    s = ctx.s
    a = s.attack
    assert a is not None
    ctx.emit(DamageStep(timing=Timing.END))
    left: list[LeftCard] = []
    # "Banish any monster this card destroys by battle" (Dark Magician of Chaos): judged before
    # any of them moves, so that it applies even when it is destroyed in the same battle
    banishing = {cid for cid in (a.attacker, a.target) if cid is not None and banishes_what_it_destroys(s, cid)}
    for cid in list(a.destroyed):
        c = s.cards[cid]
        if c.zone != Zone.MONSTERS:
            continue
        controller = c.controller
        position = c.position
        by = a.target if cid == a.attacker else a.attacker
        ctx.emit(Destroyed(card=c.id, code=c.code, reason="battle", by=by))
        to = send_to_grave(ctx, c, reason="battle", by=by, banish=True if by in banishing else None)
        raise_event(
            ctx,
            {
                "kind": "destroyed",
                "card": cid,
                "reason": "battle",
                "by": by,
                "to": to,
                "controller": controller,
                "face_up": True,
                "position": position,
            },
        )
        left.append(
            {
                "card": cid,
                "controller": controller,
                "owner": c.owner,
                "to": to,
                "position": position,
                "face_up": True,
                "reason": "battle",
                "destroyed": True,
                "by": by,
            }
        )
    raise_event(
        ctx, {"kind": "damage_step_end", "attacker": a.attacker, "target": a.target, "destroyed": list(a.destroyed)}
    )
    if left and not s.finished:
        # the monsters destroyed by battle were sent: "When ... is destroyed by battle and sent
        # to the Graveyard" cards (Time Machine, Destiny Signal, Michizure, Chthonian Blast)
        # answer this, in the chain that starts now (seed 003, end of the Damage Step)
        ctx.emit(Event(event={"kind": EventKind.LEFT_FIELD.value, "cards": left}))
    ctx.emit(Priority(seat=s.turn_player, passes=0))


def banishes_what_it_destroys(s: State, cid: int) -> bool:
    """The monster ``cid`` banishes the monsters it destroys by battle: face-up on the field, its
    effects not negated (``Script.banishes_battle_destroyed``: Dark Magician of Chaos)."""
    c = s.cards[cid]
    sc = SCRIPTS.get(c.data.key)
    return (
        sc is not None
        and sc.banishes_battle_destroyed
        and c.zone == Zone.MONSTERS
        and c.face_up
        and not is_negated(s, c)
    )


def _leave(ctx: Ctx) -> None:
    s = ctx.s
    ctx.emit(ModifiersExpired(until=["end_of_damage_step", "damage_calculation"]))
    ctx.emit(AttackEnded(reason="damage_step_over"))
    ctx.emit(Priority(seat=s.turn_player, passes=0))


@dataclass(frozen=True)
class TimingRow:
    """One timing of the Damage Step (ruling DS-1)."""

    after: Callable[[Ctx], None]  # both players passed on an empty chain: the next timing
    holds_self_destruction: bool = False  # continuous self-destruction waits (ruling DS-3)
    one_chain: bool = False  # one chain only, then damage is calculated (ruling DS-5)


# the five timings, in order; each is entered by the ``after`` of the one before (``enter``
# begins with the first)
TIMINGS: Final[dict[Timing, TimingRow]] = {
    Timing.START: TimingRow(after=_before_calculation, holds_self_destruction=True),
    Timing.BEFORE_CALC: TimingRow(after=_during_calculation, holds_self_destruction=True),
    Timing.DURING_CALC: TimingRow(after=calculate, holds_self_destruction=True, one_chain=True),
    Timing.AFTER_CALC: TimingRow(after=_end_of_damage_step),
    Timing.END: TimingRow(after=_leave),
}
