"""Last Turn (Normal Trap): "This card can only be activated during your opponent's turn when
your Life Points are 1000 or less. Select 1 monster on your side of the field and send all other
cards on the field and in their respective owner's hands to their respective Graveyards. After
that, your opponent selects and Special Summons 1 monster from their Deck in face-up Attack
Position and attacks your selected monster. (Any Battle Damage from this battle is treated as
0.) The player whose monster remains alone on the field at the End Phase of this turn wins the
Duel. Any other case results in a DRAW."

Seed 000 names it among the cards that can give a turn several Battle Phases (the "special
Battle Phase" of its official rulings comes in addition to the normal one). As implemented:

1. Activation: the monster to keep is selected as the card is activated (``choose``; it is not
   a target). It cannot be activated in the End Phase (or, like any card that does not say so,
   in the Damage Step).
2. Resolution: every other card on the field (but this one, which then goes to the Graveyard as
   usual) and every card in both hands is sent to the Graveyard.
3. Once the whole chain has resolved, the turn player chooses a monster in their Deck (a
   resolution-time choice, ``choices.ANSWERS["last_turn"]``) that is Special Summoned in
   Attack Position. In the special Battle Phase it must attack the selected monster (its
   ``must_attack`` and ``attack_only`` flags); battle damage is 0 for both players until that
   Battle Phase ends. (The official rulings let the turn player pick among all their monsters;
   Summon restrictions are only those the card data shows.)
4. The special Battle Phase: it comes right after the Summon and then the turn goes on from
   the phase it interrupted (a ``resume_phase`` flag read by ``flow``); it counts as a Battle
   Phase, and if the turn's normal Battle Phase has not happened yet it still may (one extra
   Battle Phase is granted). Activated in the Start or Battle Step, the current Battle Phase is
   the one in which the attack happens; in the End Step, a new Battle Phase follows it (and
   then Main Phase 2 as usual). With no monster to Summon there is no special Battle Phase.
5. At the start of this turn's End Phase (rule bookkeeping in ``watch``): if exactly one
   monster is on the field, its controller wins; otherwise the Duel is a draw.
"""

from __future__ import annotations

from typing import Any

from ..cards import by_name
from ..ctx import Ctx
from ..ops import lingering_flag, send_to_grave, special_summon
from ..state import Card, Link, State
from ..types import Action, other
from .base import Effect, Script, register
from .choices import ANSWERS

PHASES = ("draw", "standby", "main1", "battle", "main2", "end")


def _condition(s: State, card: Card, seat: int) -> bool:
    return s.turn_player != seat and s.players[seat].lp <= 1000 and s.phase != "end"


def _choices(s: State, card: Card, seat: int) -> list[list[Any]]:
    return [[m.id] for m in s.monsters(seat)]


def _summonable(s: State, seat: int) -> list[int]:
    out = []
    for cid in s.players[seat].deck:
        d = s.cards[cid].data
        if d.is_monster and not d.extra_deck and "special-summon" not in d.monster_kinds and "ritual" not in d.monster_kinds:
            out.append(cid)
    return out


def _resolve(ctx: Ctx, link: Link) -> None:
    s = ctx.s
    me = link.controller
    keep = None
    for cid in link.data.get("choose", []):
        c = s.cards[cid]
        if c.zone == "monsters" and c.controller == me:
            keep = cid
    for c in list(s.field_cards()):
        if c.id not in (keep, link.card) and c.on_field:
            send_to_grave(ctx, c, reason="effect", by=link.card)
    for seat in (s.turn_player, other(s.turn_player)):
        for cid in list(s.players[seat].hand):
            send_to_grave(ctx, s.cards[cid], reason="effect", by=link.card)
    lingering_flag(ctx, "last_turn", me, "turn", link.card)
    tp = s.turn_player
    deck = _summonable(s, tp)
    if deck and not s.finished:
        ctx.emit(
            "choice",
            choice={"seat": tp, "kind": "cards", "cards": deck, "count": 1, "for": "last_turn", "source": link.card, "keep": keep},
        )


def _answer(ctx: Ctx, seat: int, action: Action, ch: dict[str, Any]) -> None:
    from ..battle import start_step  # local import: the battle package imports the effect framework

    s = ctx.s
    picked = [int(c) for c in action.get("cards", [])]
    source = int(ch["source"])
    if not picked or not special_summon(ctx, s.cards[picked[0]], seat, "attack"):
        return
    mon = s.cards[picked[0]]
    here = s.phase == "battle" and s.step in ("start", "battle")  # the attack happens in this one
    bp = [s.turn, s.battle_phases if here else s.battle_phases + 1]
    ctx.emit("flag", card=mon.id, name="must_attack", value=bp)
    if ch.get("keep") is not None:
        ctx.emit("flag", card=mon.id, name="attack_only", value=[*bp, int(ch["keep"])])
    for sd in (0, 1):
        lingering_flag(ctx, "no_battle_damage", sd, "end_of_battle_phase", source)
    if here:
        return
    if s.phase != "battle":
        lingering_flag(ctx, "resume_phase", PHASES.index(s.phase), "end_of_battle_phase", source)
        if s.phase in ("draw", "standby", "main1") and s.battle_phases <= s.extra_battle_phases:
            ctx.emit("extra_battle_phase", count=1)  # the normal Battle Phase may still follow
    start_step.enter(ctx)


ANSWERS["last_turn"] = _answer


def _watch(ctx: Ctx, card: Card, ev: dict[str, Any]) -> None:
    s = ctx.s
    if ev.get("kind") != "phase_start" or ev.get("phase") != "end" or s.finished:
        return
    if not any(m.op == "flag" and m.stat == "last_turn" and m.source == card.id for m in s.modifiers):
        return
    mons = [c for seat in (0, 1) for c in s.monsters(seat)]
    if len(mons) == 1:
        ctx.emit("duel_ended", winner=mons[0].controller, reason="last_turn")
    else:
        ctx.emit("duel_ended", winner="draw", reason="last_turn")


register(
    by_name("Last Turn").code,
    Script(
        effects=(Effect(kind="trap", speed=2, condition=_condition, choices=_choices, resolve=_resolve),),
        watch=_watch,
    ),
)
