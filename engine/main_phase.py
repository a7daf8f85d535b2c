"""Main Phase actions: Normal (Tribute) Summon, Set, Flip Summon, change of battle
position. They exist so that real duels can be played; the rules focus is the
Battle Phase. A monster that declared an attack cannot change its battle
position in Main Phase 2 (ruling BS-5; seed 002).
"""

from __future__ import annotations

from .chain import field_snapshot, note_left_field, open_state, tribute_options
from .ctx import Ctx
from .effects.base import SCRIPTS
from .facts import ABSENT, Event, Flag, PositionChanged, Priority, Summoned
from .ops import move, raise_event, send_to_grave
from .state import Card, State
from .stats import can_summon, cannot_normal_summon, free_zones, position_locked
from .types import MAIN_PHASES, CardFlag, Position, WireAction


def _main_open(s: State, seat: int) -> bool:
    return seat == s.turn_player and s.priority == seat and s.phase in MAIN_PHASES and open_state(s)


def summon_actions(s: State, seat: int) -> list[WireAction]:
    if not _main_open(s, seat):
        return []
    out: list[WireAction] = []
    p = s.players[seat]
    free = free_zones(s, seat)
    if not p.normal_summoned:
        for cid in p.hand:
            c = s.cards[cid]
            if not c.data.is_monster or c.data.extra_deck or cannot_normal_summon(c.data):
                continue
            n = c.data.tributes_needed
            if n == 0 or without_tributes(c):
                if free > 0:
                    out.append({"do": "summon", "card": cid})
                    out.append({"do": "set", "card": cid})
            if n > 0:
                for trib in tribute_options(s, seat, n):
                    out.append({"do": "summon", "card": cid, "tribute": trib})
                    out.append({"do": "set", "card": cid, "tribute": trib})
    if None in p.spells_traps:
        for cid in p.hand:
            c = s.cards[cid]
            if (c.data.is_spell and c.data.prop != "field") or c.data.is_trap:
                out.append({"do": "set", "card": cid})
    for c in s.monsters(seat):
        if c.position_turn == s.turn or c.summoned_turn == s.turn or c.attacked_turn == s.turn:
            # a monster that declared an attack this turn changes its battle position no more,
            # not even by a Flip Summon (seed 002: even an attack that ended without battle)
            continue
        if position_locked(s, c):
            continue  # Thousand-Eyes Restrict, Creature Swap
        if not c.face_up:
            if can_summon(s, c, seat, "flip"):
                out.append({"do": "flip_summon", "card": c.id})
        else:
            out.append({"do": "change_position", "card": c.id})
    return out


def without_tributes(c: Card) -> bool:
    """ "You can Normal Summon or Set this card without Tributing" (Fusilier Dragon, the
    Dual-Mode Beast: ``Script.summon_without_tribute``)."""
    sc = SCRIPTS.get(c.data.key)
    return sc is not None and sc.summon_without_tribute


def summon(ctx: Ctx, seat: int, card: Card, tributes: list[int], face_up: bool) -> None:
    """A Normal or Tribute Summon, or a Set. The Tributes sent from the field open a "when ...
    sent to the Graveyard" window along with the summon's own (ruling LF-3)."""
    s = ctx.s
    was = field_snapshot(s)
    for t in tributes:
        send_to_grave(ctx, s.cards[t], reason="tribute")
    kind = ("tribute" if tributes else "normal") if face_up else "set"
    if face_up:
        move(ctx, card, "monsters", position=Position.ATTACK, face_up=True)
    else:
        move(ctx, card, "monsters", position=Position.DEFENSE, face_up=False)
    if not tributes and card.data.tributes_needed > 0:
        # Summoned or Set without the Tributes its Level needs (Fusilier Dragon): its original
        # ATK and DEF are halved while it stays on the field
        ctx.emit(Flag(card=card.id, name=CardFlag.HALVED_ORIGINAL, value=True))
    ctx.emit(Summoned(seat=seat, card=card.id, kind=kind, code=card.code if face_up else ABSENT))
    if face_up:
        raise_event(ctx, {"kind": "summoned", "card": card.id, "how": kind, "seat": seat})
        ctx.emit(Event(event={"kind": "summoned", "card": card.id}))
    note_left_field(ctx, was, "tribute")
    ctx.emit(Priority(seat=seat, passes=0))


def set_spell_trap(ctx: Ctx, seat: int, card: Card) -> None:
    move(ctx, card, "spells_traps", face_up=False)
    ctx.emit(Priority(seat=seat, passes=0))


def flip_summon(ctx: Ctx, seat: int, card: Card) -> None:
    ctx.emit(PositionChanged(card=card.id, code=card.code, position=Position.ATTACK, face_up=True))
    ctx.emit(Summoned(seat=seat, card=card.id, code=card.code, kind="flip", layout=Summoned.CODE_BEFORE_KIND))
    raise_event(ctx, {"kind": "flipped", "card": card.id, "by_attack": False})
    raise_event(ctx, {"kind": "summoned", "card": card.id, "how": "flip", "seat": seat})
    ctx.emit(Event(event={"kind": "summoned", "card": card.id}))
    ctx.emit(Priority(seat=seat, passes=0))


def change_position(ctx: Ctx, seat: int, card: Card) -> None:
    new = "defense" if card.position == Position.ATTACK else "attack"
    ctx.emit(PositionChanged(card=card.id, code=card.code, position=new, face_up=True))
    ctx.emit(Priority(seat=seat, passes=0))
