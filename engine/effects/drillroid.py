"""Drillroid: "Before damage calculation, if this card attacks a Defense Position monster:
Destroy that monster."

A mandatory trigger when the Damage Step reaches "before damage calculation", after a
face-down target has been flipped (so a face-down target counts as a Defense Position
monster). With the target gone, damage calculation is skipped; the rest of the Damage Step
goes on (ruling DS-4; seed 003, TCG "Substep 3": "The effects of cards like Drillroid and Ehren, Lightsworn
Monk activate at this time ... damage calculation will not occur")."""

from __future__ import annotations

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
    destroy,
    register,
    still_face_up,
    target_ok,
)


def _match(s: State, card: Card, ev: GameEvent) -> bool:
    t = ev.get("target")
    if ev.get("attacker") != card.id or t is None or not still_face_up(card):
        return False
    target = s.cards[t]
    return target.zone == Zone.MONSTERS and target.position == Position.DEFENSE


def _resolve(ctx: Ctx, link: Link) -> None:
    t = link.data.get("event", {}).get("target")
    if t is not None and target_ok(ctx.s, int(t)):
        destroy(ctx, ctx.s.cards[int(t)], reason="effect", by=link.card)


register(
    by_name("Drillroid").code,
    Script(
        effects=(
            Effect(
                kind="trigger",
                speed=1,
                trigger_on=EventKind.BEFORE_DAMAGE_CALCULATION,
                trigger_match=_match,
                optional=False,
                resolve=_resolve,
            ),
        )
    ),
)
