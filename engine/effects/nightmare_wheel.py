"""Nightmare Wheel (Continuous Trap): "Activate this card by targeting 1 monster your opponent
controls; it cannot attack or change its battle position. When it leaves the field, destroy this
card. During each of your Standby Phases: Inflict 500 damage to your opponent. That monster must be
on the field to activate and to resolve this effect." (card text; ruling GEN-1).

As its activation resolves (target still on the field, ruling CH-3) the card keeps that monster in
its ``wheel`` flag. While it is face-up (ruling CH-7): the monster cannot declare an attack
(``Script.can_attack``) and its controller cannot change its battle position, by a Flip Summon
neither (``Script.no_position_change``; a card effect still may). When the monster leaves the field,
Nightmare Wheel is destroyed (its ``watch`` on the card leaving). At the start of each of its
controller's Standby Phases, a mandatory trigger effect inflicts 500 damage to the opponent, if the
monster is on the field as it activates and as it resolves."""

from __future__ import annotations

from typing import Final

from .api import (
    Card,
    Ctx,
    Effect,
    EventKind,
    Flag,
    GameEvent,
    Link,
    Phase,
    Script,
    State,
    Zone,
    by_name,
    damage,
    destroy,
    each,
    other,
    register,
    target_ok,
)

WHEEL: Final = "wheel"


def _held(s: State, card: Card) -> Card | None:
    """The monster this face-up Nightmare Wheel holds, while it is on the field."""
    cid = card.flags.get(WHEEL)
    if cid is None or not (card.zone == Zone.SPELLS_TRAPS and card.face_up):
        return None
    c = s.cards[int(cid)]
    return c if c.zone == Zone.MONSTERS else None


def _targets(s: State, card: Card, seat: int) -> list[list[int]]:
    return each(s.monsters(other(seat)))


def _resolve(ctx: Ctx, link: Link) -> None:
    if ctx.s.cards[link.card].flags.get(WHEEL) is not None:
        ctx.emit(Flag(card=link.card, name=WHEEL, value=None))  # a monster held by an earlier activation
    for t in link.targets:
        if target_ok(ctx.s, t) and ctx.s.cards[t].controller != link.controller:
            ctx.emit(Flag(card=link.card, name=WHEEL, value=t))


def _can_attack(s: State, src: Card, attacker: Card) -> bool:
    held = _held(s, src)
    return held is None or held.id != attacker.id


def _locks_position(s: State, src: Card, monster: Card) -> bool:
    held = _held(s, src)
    return held is not None and held.id == monster.id


def _watch(ctx: Ctx, card: Card, ev: GameEvent) -> None:
    if ev.get("kind") != EventKind.CARD_LEFT_FIELD:
        return
    if card.zone == Zone.SPELLS_TRAPS and card.face_up and card.flags.get(WHEEL) == ev.get("card"):
        destroy(ctx, card, reason="effect", by=card.id)


def _my_standby(s: State, card: Card, ev: GameEvent) -> bool:
    return ev.get("phase") == Phase.STANDBY and s.turn_player == card.controller and _held(s, card) is not None


def _still_held(s: State, card: Card, seat: int) -> bool:
    return _held(s, card) is not None


def _burn(ctx: Ctx, link: Link) -> None:
    if _held(ctx.s, ctx.s.cards[link.card]) is not None:
        damage(ctx, other(link.controller), 500)


register(
    by_name("Nightmare Wheel").code,
    Script(
        effects=(
            Effect(kind="trap", speed=2, targets=_targets, resolve=_resolve),
            Effect(
                kind="trigger",
                speed=1,
                trigger_on=EventKind.PHASE_START,
                trigger_match=_my_standby,
                condition=_still_held,
                optional=False,
                resolve=_burn,
                label="500 damage",
            ),
        ),
        can_attack=_can_attack,
        stops_attacks=False,
        no_position_change=_locks_position,
        watch=_watch,
        watch_on=frozenset({EventKind.CARD_LEFT_FIELD}),
    ),
)
