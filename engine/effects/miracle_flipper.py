"""Miracle Flipper: "If you control a "Miracle Flipper", you cannot Summon this card. Your
opponent cannot select another face-up monster as an attack target. If this card is destroyed
by battle, Special Summon it to your opponent's side of the field at the end of the Battle
Phase. If this card is destroyed by the effect of a Spell or Trap Card, destroy 1 monster your
opponent controls."

- While a face-up Miracle Flipper is controlled, its controller cannot Summon another
  (``Script.cannot_summon``; a face-down one is not seen by continuous effects).
- The opponent may attack it, or face-down monsters, but no other face-up monster.
- Destroyed by battle (sent to the Graveyard, or banished instead under Macro Cosmos: the text
  needs no Graveyard, ruling DS-9; seed 003, TCG Substep 7, Apprentice Magician): rule
  bookkeeping (``watch``) records the Battle Phase and the side it goes to; "at the end of the
  Battle Phase" is the End Step (seed 003, TCG End Step, names Miracle Flipper; multiple
  chains are allowed there, then Main Phase 2): a mandatory trigger Special Summons it to the
  other side, in the face-up position its owner (who summons it) picks (ruling SEL-3).
- Destroyed by a Spell/Trap effect: a mandatory trigger destroys 1 monster of the opponent; it
  does not target, the monster is selected as the effect resolves (ruling SEL-1). The trigger
  belongs to the card's owner (it is in
  their Graveyard): if an opponent controlled it when it was destroyed, "your opponent" is
  still taken from the owner's side (a documented simplification)."""

from __future__ import annotations

from typing import Any, Final

from .api import (
    POSITIONS,
    Answer,
    Card,
    Ctx,
    Effect,
    EventKind,
    Flag,
    GameEvent,
    Link,
    Script,
    State,
    Zone,
    ask_cards,
    ask_option,
    by_name,
    continuation,
    destroy,
    free_monster_zone,
    other,
    register,
    special_summon,
    summonable,
)

NAME: Final = "Miracle Flipper"
# destroyed by battle, it is Special Summoned from where it went: the Graveyard, or banished
# instead (Macro Cosmos; ruling DS-9)
_WHERE_IT_WENT: Final = frozenset({Zone.GRAVEYARD, Zone.BANISHED})


def _cannot_summon(s: State, src: Card, monster: Card, seat: int, how: str) -> bool:
    return seat == src.controller and monster.data.name == NAME


def _can_be_attacked(s: State, src: Card, target: Card, attacker: Card) -> bool:
    if attacker.controller == src.controller or target.controller != src.controller:
        return True
    return target.id == src.id or not target.face_up


def _watch(ctx: Ctx, card: Card, ev: GameEvent) -> None:
    if ev.get("kind") != EventKind.DESTROYED or ev.get("card") != card.id:
        return
    if ev.get("reason") == "battle" and card.zone in _WHERE_IT_WENT:
        s = ctx.s
        ctx.emit(Flag(card=card.id, name="mf_return", value=[s.turn, s.battle_phases, other(int(ev["controller"]))]))


def _return_match(s: State, card: Card, ev: GameEvent) -> bool:
    rec = card.flags.get("mf_return")
    return card.zone in _WHERE_IT_WENT and isinstance(rec, list) and rec[:2] == [s.turn, s.battle_phases]


def _can_return(s: State, card: Card, seat: int) -> bool:
    """The other side has a free Monster Zone and may Special Summon it (not while it controls a
    face-up Miracle Flipper: its own lock); otherwise the effect does nothing (ruling GEN-4)."""
    rec = card.flags.get("mf_return")
    if not isinstance(rec, list):
        return False
    side = int(rec[2])
    return free_monster_zone(s, side) and bool(summonable(s, side, [card.id]))


def _return(ctx: Ctx, link: Link) -> None:
    s = ctx.s
    me = s.cards[link.card]
    rec = me.flags.get("mf_return")
    if me.zone not in _WHERE_IT_WENT or not isinstance(rec, list):
        return
    ctx.emit(Flag(card=me.id, name="mf_return", value=None))
    if free_monster_zone(s, int(rec[2])):
        ask_option(
            ctx,
            link.controller,
            list(POSITIONS),
            "miracle_flipper.return",
            {"card": me.id, "side": int(rec[2])},
            source=me.id,
        )


@continuation("miracle_flipper.return")
def _return_in(ctx: Ctx, seat: int, answer: Answer, d: dict[str, Any]) -> None:
    me = ctx.s.cards[int(d["card"])]
    if me.zone in _WHERE_IT_WENT:
        special_summon(ctx, me, int(d["side"]), str(answer))


def _spell_trap_match(s: State, card: Card, ev: GameEvent) -> bool:
    by = ev.get("by")
    if ev.get("card") != card.id or ev.get("reason") != "effect" or by not in s.cards:
        return False
    d = s.cards[by].data
    return d.is_spell or d.is_trap


def _opponent_has_monster(s: State, card: Card, seat: int) -> bool:
    return bool(s.monsters(other(seat)))


def _destroy_one(ctx: Ctx, link: Link) -> None:
    mons = [m.id for m in ctx.s.monsters(other(link.controller))]
    ask_cards(ctx, link.controller, mons, "miracle_flipper.destroy", {"source": link.card}, source=link.card)


@continuation("miracle_flipper.destroy")
def _destroy_picked(ctx: Ctx, seat: int, answer: Answer, d: dict[str, Any]) -> None:
    for cid in answer if isinstance(answer, list) else []:
        c = ctx.s.cards[cid]
        if c.zone == Zone.MONSTERS and c.controller != seat:
            destroy(ctx, c, reason="effect", by=int(d["source"]))


register(
    by_name(NAME).code,
    Script(
        effects=(
            Effect(
                kind="trigger",
                speed=1,
                trigger_on=EventKind.BATTLE_PHASE_END,
                trigger_match=_return_match,
                optional=False,
                condition=_can_return,
                resolve=_return,
                label="to the opponent's side",
            ),
            Effect(
                kind="trigger",
                speed=1,
                trigger_on=EventKind.DESTROYED,
                trigger_match=_spell_trap_match,
                optional=False,
                condition=_opponent_has_monster,
                resolve=_destroy_one,
                label="destroy 1 monster",
            ),
        ),
        can_be_attacked=_can_be_attacked,
        cannot_summon=_cannot_summon,
        watch=_watch,
        watch_on=frozenset({EventKind.DESTROYED}),
    ),
)
