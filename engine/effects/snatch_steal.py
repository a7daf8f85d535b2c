"""Snatch Steal (Equip Spell): "Take control of a monster on your opponent's side of the field that
is equipped with this card. Increase your opponent's Life Points by 1000 points during each of
their Standby Phases." (card text).

- Activated from the hand (Spell Speed 1), it targets a face-up monster the opponent controls
  (an Equip Card is equipped to a face-up monster, EQ-2), with a Monster Zone of its controller
  free to receive it (ruling GEN-4). As it resolves, if the target is still there, it is equipped
  and its controller takes control of the monster, in its position; with the target gone, it
  equips nothing and goes to the Graveyard (ruling EQ-30).
- Control lasts while it is equipped: when it leaves the field (destroyed, or because its
  monster was turned face-down, EQ-2), control returns to the monster's owner (ruling EQ-30;
  rule bookkeeping, ``Script.watch``).
- In each Standby Phase of its controller's opponent, while it is face-up on the field, a
  mandatory trigger effect gives that player 1000 Life Points."""

from __future__ import annotations

from typing import Final

from .api import (
    Card,
    Ctx,
    Effect,
    EventKind,
    GameEvent,
    Link,
    Phase,
    Script,
    State,
    Zone,
    by_name,
    control_to,
    each,
    equip,
    face_up_monsters,
    free_monster_zone,
    gain_lp,
    other,
    register,
    return_control,
    target_ok,
)

GAIN: Final = 1000


def _targets(s: State, card: Card, seat: int) -> list[list[int]]:
    return each(face_up_monsters(s, other(seat))) if free_monster_zone(s, seat) else []


def _resolve(ctx: Ctx, link: Link) -> None:
    s = ctx.s
    me = s.cards[link.card]
    seat = link.controller
    for t in link.targets:
        if not (target_ok(s, t, face_up=True) and me.on_field and free_monster_zone(s, seat)):
            continue
        monster = s.cards[t]
        if monster.controller == seat:
            continue
        equip(ctx, me, monster)
        control_to(ctx, monster, seat, face_up=True)


def _watch(ctx: Ctx, card: Card, ev: GameEvent) -> None:
    if ev.get("kind") != EventKind.CARD_LEFT_FIELD or ev.get("card") != card.id:
        return
    monster = ctx.s.cards.get(int(ev.get("equipped_to", -1)))
    if monster is not None:
        return_control(ctx, monster)


def _opponents_standby(s: State, card: Card, ev: GameEvent) -> bool:
    return (
        ev.get("phase") == Phase.STANDBY
        and ev.get("seat") == other(card.controller)
        and card.zone == Zone.SPELLS_TRAPS
        and card.face_up
        and card.equipped_to is not None
    )


def _gain(ctx: Ctx, link: Link) -> None:
    gain_lp(ctx, other(link.controller), GAIN)


register(
    by_name("Snatch Steal").code,
    Script(
        effects=(
            Effect(kind="spell", speed=1, targets=_targets, resolve=_resolve),
            Effect(
                kind="trigger",
                speed=1,
                optional=False,
                trigger_on=EventKind.PHASE_START,
                trigger_match=_opponents_standby,
                resolve=_gain,
                label="the opponent gains 1000 LP",
            ),
        ),
        watch=_watch,
        watch_on=frozenset({EventKind.CARD_LEFT_FIELD}),
    ),
)
