"""Main Phase actions: Normal (Tribute) Summon, Set, Flip Summon, change of battle
position. They exist so that real duels can be played; the rules focus is the
Battle Phase. A monster that declared an attack cannot change its battle
position in Main Phase 2 (ruling BS-5; seed 002).
"""

from __future__ import annotations

from typing import Any

from .chain import field_snapshot, may_answer_summon, note_left_field, open_state, tribute_options
from .ctx import Ctx
from .effects.base import SCRIPTS
from .events import GameEvent
from .facts import ABSENT, Event, Flag, PositionChanged, Priority, Summoned, Used
from .ops import move, raise_event, send_to_grave
from .state import Card, State
from .stats import can_set, can_summon, cannot_normal_summon, free_zones, position_locked
from .types import MAIN_PHASES, CardFlag, EventKind, Position, WireAction, Zone, other


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
            settable = can_set(s, c, seat)
            if n == 0 or without_tributes(c):
                if free > 0:
                    out.append({"do": "summon", "card": cid})
                    if settable:
                        out.append({"do": "set", "card": cid})
            if n > 0:
                for trib in tribute_options(s, seat, n):
                    out.append({"do": "summon", "card": cid, "tribute": trib})
                    if settable:
                        out.append({"do": "set", "card": cid, "tribute": trib})
    if None in p.spells_traps:
        for cid in p.hand:
            c = s.cards[cid]
            if ((c.data.is_spell and c.data.prop != "field") or c.data.is_trap) and can_set(s, c, seat):
                out.append({"do": "set", "card": cid})
    for c in s.monsters(seat):
        if c.position_turn == s.turn or c.summoned_turn == s.turn or c.attacked_turn == s.turn:
            # a monster that declared an attack this turn changes its battle position no more,
            # not even by a Flip Summon (seed 002: even an attack that ended without battle)
            continue
        if position_locked(s, c):
            continue  # Thousand-Eyes Restrict, Creature Swap
        if not c.face_up:
            if can_summon(s, c, seat, "flip") and not position_locked(s, c):
                out.append({"do": "flip_summon", "card": c.id})
        elif not position_locked(s, c):
            out.append({"do": "change_position", "card": c.id})
    return out


def without_tributes(c: Card) -> bool:
    """ "You can Normal Summon or Set this card without Tributing" (Fusilier Dragon, the
    Dual-Mode Beast: ``Script.summon_without_tribute``)."""
    sc = SCRIPTS.get(c.data.key)
    return sc is not None and sc.summon_without_tribute


def summon(ctx: Ctx, seat: int, card: Card, tributes: list[int], face_up: bool) -> None:
    """A Normal or Tribute Summon, or a Set. The Tributes sent from the field open a "when ...
    sent to the Graveyard" window along with the summon's own (ruling LF-3). A Summon (not a
    Set) first opens the window in which the monster would be Summoned (``summoning``, ruling
    SUM-3): it is Summoned, and its ``summoned`` window opened, by ``complete_summon``."""
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
        would_be_summoned(ctx, seat, card, kind, was)
        return
    note_left_field(ctx, was, "tribute")
    ctx.emit(Priority(seat=seat, passes=0))


def would_be_summoned(ctx: Ctx, seat: int, card: Card, how: str, was: list[list[Any]]) -> None:
    """The monster is on the field and would be Summoned (``how``: normal, tribute, flip, special
    by its own procedure): the ``summoning`` window opens, the turn player first, if either player
    is given it (``chain.may_answer_summon``; ruling SUM-3); only an effect that negates the Summon
    may be activated in it (``chain._timing_ok``). Given to neither, the monster is Summoned at
    once."""
    s = ctx.s
    if not (may_answer_summon(s, s.turn_player) or may_answer_summon(s, other(s.turn_player))):
        _summoned(ctx, seat, card, how, was)
        return
    ctx.emit(Event(event={"kind": EventKind.SUMMONING.value, "card": card.id, "how": how, "seat": seat, "was": was}))
    ctx.emit(Priority(seat=s.turn_player, passes=0))


def complete_summon(ctx: Ctx) -> bool:
    """The ``summoning`` window closed: unless the Summon was negated (``ops.negate_summon`` closed
    the window), the monster is Summoned now (``_summoned``). False if no Summon was waiting."""
    s = ctx.s
    ev = s.event
    if ev is None or ev.get("kind") != EventKind.SUMMONING:
        return False
    card = s.cards[int(ev["card"])]
    ctx.emit(Event(event=None))
    if card.zone == Zone.MONSTERS and card.face_up:
        _summoned(ctx, int(ev.get("seat", s.turn_player)), card, str(ev.get("how")), list(ev.get("was", [])))
    else:
        ctx.emit(Priority(seat=s.turn_player, passes=0))
    return True


def _summoned(ctx: Ctx, seat: int, card: Card, how: str, was: list[list[Any]]) -> None:
    """The monster is Summoned: a Flip Summon flips it (its FLIP effect activates), the
    ``summoned`` trigger effects activate, the ``summoned`` window opens (with its Tributes'
    ``left_field`` one, ruling LF-3) and the summoning player has priority."""
    if how == "flip":
        raise_event(ctx, {"kind": "flipped", "card": card.id, "by_attack": False})
    if how == "special":
        # a Summon by the card's own procedure: properly Summoned, it may be revived later (SUM-1)
        ctx.emit(Used(key=f"proper_summon:{card.id}"))
    raise_event(ctx, {"kind": "summoned", "card": card.id, "how": how, "seat": seat})
    summoned: GameEvent = {"kind": "summoned", "card": card.id}
    if how == "special":
        summoned["how"] = how
    ctx.emit(Event(event=summoned))
    if was:
        note_left_field(ctx, was, "tribute")
    ctx.emit(Priority(seat=seat, passes=0))


def set_spell_trap(ctx: Ctx, seat: int, card: Card) -> None:
    move(ctx, card, "spells_traps", face_up=False)
    ctx.emit(Priority(seat=seat, passes=0))


def flip_summon(ctx: Ctx, seat: int, card: Card) -> None:
    """A Flip Summon: the monster is turned face-up in Attack Position and would be Summoned
    (``would_be_summoned``); its FLIP effect activates once the Summon is done."""
    ctx.emit(PositionChanged(card=card.id, code=card.code, position=Position.ATTACK, face_up=True))
    ctx.emit(Summoned(seat=seat, card=card.id, code=card.code, kind="flip", layout=Summoned.CODE_BEFORE_KIND))
    would_be_summoned(ctx, seat, card, "flip", [])


def change_position(ctx: Ctx, seat: int, card: Card) -> None:
    new = "defense" if card.position == Position.ATTACK else "attack"
    ctx.emit(PositionChanged(card=card.id, code=card.code, position=new, face_up=True))
    ctx.emit(Priority(seat=seat, passes=0))
