"""Last Turn (Normal Trap): "This card can only be activated during your opponent's turn when
your Life Points are 1000 or less. Select 1 monster on your side of the field and send all other
cards on the field and in their respective owner's hands to their respective Graveyards. After
that, your opponent selects and Special Summons 1 monster from their Deck in face-up Attack
Position and attacks your selected monster. (Any Battle Damage from this battle is treated as
0.) The player whose monster remains alone on the field at the End Phase of this turn wins the
Duel. Any other case results in a DRAW."

Ruling CARD-1 (the card's official FAQ), in full:

1. Activation: during the opponent's turn, with 1000 Life Points or less, while its controller
   controls a monster (the one to select); not in the End Phase (the special Battle Phase and
   the victory check need the turn to go on), nor in the Damage Step (it does not say so).
2. Resolution does only this: the activating player selects 1 monster they control (a selection
   at resolution, ruling SEL-1), and every other card on the field and in both hands is sent to
   the Graveyard at the same time (under Macro Cosmos, banished; Macro Cosmos itself is not,
   ruling LF-2). Last Turn then goes to the Graveyard like any Normal Trap.
3. Only once the whole chain has resolved (after the links below it, e.g. a Ceasefire it was
   chained to), the turn player selects a monster in their Deck that can be Special Summoned
   (not an Extra Deck, Ritual or Summon-by-procedure-only monster, nor one that "cannot be
   Special Summoned") and Special Summons it in face-up Attack Position. With none, there is no
   special Battle Phase, but the victory check still applies.
4. The special Battle Phase follows at once; it is a Battle Phase like any other (Start, Battle,
   Damage and End Steps) but in addition to the turn's normal one, which stays possible later
   (one extra Battle Phase is granted when the normal one has not happened yet); afterwards the
   turn goes on from the phase it interrupted (``resume_phase``). In it the Summoned monster must
   attack the selected monster and nothing else (``ops.restrict_attack``, no direct attack);
   battle damage is 0 for both players until it ends. Activated in the Start or Battle
   Step of a Battle Phase, that Battle Phase is the one in which the attack happens; in its End
   Step, a new Battle Phase follows.
5. At the start of this turn's End Phase (rule bookkeeping in ``watch``): if exactly one monster
   is on the field, its controller wins; otherwise the Duel is a draw.
"""

from __future__ import annotations

from typing import Any, Final

from .api import (
    Answer,
    Card,
    Ctx,
    DuelEnded,
    Effect,
    EventKind,
    ExtraBattlePhase,
    GameEvent,
    LingeringFlag,
    Link,
    Phase,
    Script,
    State,
    Step,
    Used,
    Zone,
    ask_cards,
    by_name,
    continuation,
    lingering_flag,
    may_special_summon,
    other,
    register,
    restrict_attack,
    send_all_to_grave,
    special_summon,
    start_battle_phase,
)

KEEP: Final = "last_turn_keep"  # lingering flag: the selected monster (value), waiting for the Summon


def _condition(s: State, card: Card, seat: int) -> bool:
    return s.turn_player != seat and s.players[seat].lp <= 1000 and s.phase != Phase.END and bool(s.monsters(seat))


def _summonable(s: State, seat: int) -> list[int]:
    out = []
    for cid in s.players[seat].deck:
        c = s.cards[cid]
        d = c.data
        if not d.is_monster or "ritual" in d.monster_kinds or "special-summon" in d.monster_kinds:
            continue
        if may_special_summon(s, c, seat):
            out.append(cid)
    return out


def _resolve(ctx: Ctx, link: Link) -> None:
    me = link.controller
    mons = [c.id for c in ctx.s.monsters(me)]
    ask_cards(ctx, me, mons, "last_turn.keep", {"source": link.card}, source=link.card)


@continuation("last_turn.keep")
def _keep(ctx: Ctx, seat: int, answer: Answer, d: dict[str, Any]) -> None:
    s = ctx.s
    source = int(d["source"])
    keep = int(answer[0]) if isinstance(answer, list) and answer else None
    others = [c for c in s.field_cards() if c.id not in (keep, source)]
    others += [s.cards[cid] for sd in (s.turn_player, other(s.turn_player)) for cid in s.players[sd].hand]
    send_all_to_grave(ctx, others, reason="effect", by=source)
    lingering_flag(ctx, "last_turn", seat, "turn", source)
    lingering_flag(ctx, KEEP, keep if keep is not None else -1, "turn", source)


def _watch(ctx: Ctx, card: Card, ev: GameEvent) -> None:
    s = ctx.s
    if s.finished:
        return
    kind = ev.get("kind")
    if kind == EventKind.CHAIN_RESOLVED:
        keep = [m.value for m in s.modifiers if m.op == "flag" and m.stat == KEEP and m.source == card.id]
        done = f"last_turn_summon:{card.id}:{s.turn}"
        if keep and done not in s.used:
            ctx.emit(Used(key=done))
            tp = s.turn_player
            ask_cards(
                ctx, tp, _summonable(s, tp), "last_turn.summon", {"source": card.id, "keep": keep[0]}, source=card.id
            )
    elif kind == EventKind.PHASE_START and ev.get("phase") == Phase.END:
        if not any(m.op == "flag" and m.stat == "last_turn" and m.source == card.id for m in s.modifiers):
            return
        mons = [c for seat in (0, 1) for c in s.monsters(seat)]
        if len(mons) == 1:
            ctx.emit(DuelEnded(winner=mons[0].controller, reason="last_turn"))
        else:
            ctx.emit(DuelEnded(winner="draw", reason="last_turn"))


@continuation("last_turn.summon")
def _summon(ctx: Ctx, seat: int, answer: Answer, d: dict[str, Any]) -> None:
    s = ctx.s
    source = int(d["source"])
    if not isinstance(answer, list) or not answer or not special_summon(ctx, s.cards[answer[0]], seat, "attack"):
        return
    mon = s.cards[answer[0]]
    here = s.phase == Phase.BATTLE and s.step in (Step.START, Step.BATTLE)  # the attack happens in this one
    bp = [s.turn, s.battle_phases if here else s.battle_phases + 1]
    keep = int(d["keep"])
    restrict_attack(ctx, mon, bp, keep, must=keep >= 0 and s.cards[keep].zone == Zone.MONSTERS)
    for sd in (0, 1):
        lingering_flag(ctx, LingeringFlag.NO_BATTLE_DAMAGE, sd, "end_of_battle_phase", source)
    if here:
        return
    if s.phase != Phase.BATTLE:
        lingering_flag(ctx, LingeringFlag.RESUME_PHASE, tuple(Phase).index(s.phase), "end_of_battle_phase", source)
        if s.phase in (Phase.DRAW, Phase.STANDBY, Phase.MAIN1) and s.battle_phases <= s.extra_battle_phases:
            ctx.emit(ExtraBattlePhase(count=1))  # the normal Battle Phase may still follow
    start_battle_phase(ctx)


register(
    by_name("Last Turn").code,
    Script(
        effects=(Effect(kind="trap", speed=2, condition=_condition, resolve=_resolve),),
        watch=_watch,
        watch_on=frozenset({EventKind.CHAIN_RESOLVED, EventKind.PHASE_START}),
    ),
)
