"""Tiras, Keeper of Genesis (Xyz): "This card's effects can only be applied/resolved while it
has Xyz Material. This card cannot be destroyed by card effects. At the end of the Battle Phase,
if this card attacked or was attacked: Target 1 card your opponent controls; destroy that
target. During each of your End Phases: Detach 1 Xyz Material from this card."

- Indestructible by card effects while it has material (``Script.effect_indestructible``,
  honoured by ``ops.destroy``).
- "At the end of the Battle Phase" is the End Step (ruling ES-1; seed 003, TCG End Step, names Tiras): a
  mandatory trigger when the Battle Phase ends, if it declared an attack or was chosen as an
  attack target in this Battle Phase (its ``battled`` flag). With several cards to target, its
  controller picks the target.
- In each of its controller's End Phases a mandatory trigger detaches 1 material."""

from __future__ import annotations

from .api import (
    Card,
    CardFlag,
    Ctx,
    Effect,
    EventKind,
    GameEvent,
    Link,
    Phase,
    Script,
    State,
    by_name,
    destroy,
    detach,
    other,
    register,
    still_face_up,
)


def _has_material(card: Card) -> bool:
    return still_face_up(card) and bool(card.materials)


def _indestructible(s: State, src: Card, c: Card) -> bool:
    return c.id == src.id and _has_material(src)


def _battled_match(s: State, card: Card, ev: GameEvent) -> bool:
    return _has_material(card) and card.flags.get(CardFlag.BATTLED) == [s.turn, s.battle_phases]


def _targets(s: State, card: Card, seat: int) -> list[list[int]]:
    return [[c.id] for c in s.field_cards(other(seat))]


def _destroy(ctx: Ctx, link: Link) -> None:
    s = ctx.s
    if not _has_material(s.cards[link.card]):
        return
    for t in link.targets:
        c = s.cards[t]
        if c.on_field and c.controller != link.controller:
            destroy(ctx, c, reason="effect", by=link.card)


def _end_phase_match(s: State, card: Card, ev: GameEvent) -> bool:
    return ev.get("phase") == Phase.END and s.turn_player == card.controller and _has_material(card)


def _detach(ctx: Ctx, link: Link) -> None:
    me = ctx.s.cards[link.card]
    if _has_material(me):
        detach(ctx, me, 1)


register(
    by_name("Tiras, Keeper of Genesis").code,
    Script(
        effects=(
            Effect(
                kind="trigger",
                speed=1,
                trigger_on=EventKind.BATTLE_PHASE_END,
                trigger_match=_battled_match,
                optional=False,
                targets=_targets,
                resolve=_destroy,
                label="destroy 1 card",
            ),
            Effect(
                kind="trigger",
                speed=1,
                trigger_on=EventKind.PHASE_START,
                trigger_match=_end_phase_match,
                optional=False,
                resolve=_detach,
                label="detach",
            ),
        ),
        effect_indestructible=_indestructible,
    ),
)
