"""Premature Burial (Equip Spell): "Activate this card by paying 800 LP, then target 1 monster in
your Graveyard; Special Summon that target in face-up Attack Position and equip it with this
card. When this card is destroyed, destroy the equipped monster." (card text).

- Activated from the hand (Spell Speed 1): its cost is 800 Life Points (which its controller
  must have), its target a monster of its controller's Graveyard that may be Special Summoned
  (not a Fusion Monster never properly Summoned, ruling SUM-1), with a Monster Zone free (ruling
  GEN-4).
- As it resolves, the target, if still in the Graveyard, is Special Summoned in face-up Attack
  Position and this card is equipped to it; if it cannot be, this card equips nothing and goes to
  the Graveyard (ruling EQ-30).
- "When this card is destroyed, destroy the equipped monster": no chain (rule bookkeeping,
  ``Script.watch``), at once, if that monster is still face-up in its Monster Zone. When the
  monster leaves the field first, this card is destroyed (EQ-2) and destroys nothing. When the
  monster is turned face-down (Book of Moon), this card is destroyed because an Equip Card needs
  a face-up monster, and equips none as it is destroyed: the monster stays, face-down (ruling
  EQ-30; the Goat ruling anketsu.com's Empty Jar article states)."""

from __future__ import annotations

from typing import Any, Final

from .api import (
    Card,
    Ctx,
    Effect,
    EventKind,
    GameEvent,
    Link,
    Position,
    Script,
    State,
    Zone,
    by_name,
    can_pay_lp,
    destroy,
    equip,
    free_monster_zone,
    may_special_summon,
    pay_lp,
    register,
    special_summon,
)

COST: Final = 800


def _condition(s: State, card: Card, seat: int) -> bool:
    return can_pay_lp(s, seat, COST)


def _targets(s: State, card: Card, seat: int) -> list[list[int]]:
    if not free_monster_zone(s, seat):
        return []
    cards = s.cards
    return [[cid] for cid in s.players[seat].graveyard if may_special_summon(s, cards[cid], seat)]


def _pay(ctx: Ctx, card: Card, seat: int, data: dict[str, Any]) -> None:
    pay_lp(ctx, seat, COST)


def _resolve(ctx: Ctx, link: Link) -> None:
    s = ctx.s
    me = s.cards[link.card]
    for t in link.targets:
        target = s.cards[t]
        if target.zone != Zone.GRAVEYARD or not me.on_field:
            continue
        if special_summon(ctx, target, link.controller, Position.ATTACK):
            equip(ctx, me, target)


def _watch(ctx: Ctx, card: Card, ev: GameEvent) -> None:
    if ev.get("kind") != EventKind.DESTROYED or ev.get("card") != card.id:
        return
    monster = ctx.s.cards.get(int(ev.get("equipped_to", -1)))
    if monster is not None and monster.zone == Zone.MONSTERS and monster.face_up:
        destroy(ctx, monster, by=card.id)


register(
    by_name("Premature Burial").code,
    Script(
        effects=(Effect(kind="spell", speed=1, condition=_condition, targets=_targets, cost=_pay, resolve=_resolve),),
        watch=_watch,
        watch_on=frozenset({EventKind.DESTROYED}),
    ),
)
