"""Ninja Grandmaster Sasuke: "At the start of the Damage Step, if this card attacks a face-up
Defense Position monster: Destroy that monster."

A mandatory trigger at the start of the Damage Step (ruling DS-1) of its attack on a face-up
Defense Position monster (not a face-down one: it is flipped only before damage calculation,
ruling DS-3). It destroys that monster if it is still on the field; the battle then has no damage
calculation (ruling DS-4: a battling monster left the field)."""

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
)


def _attacks_face_up_defense(s: State, card: Card, ev: GameEvent) -> bool:
    target = ev.get("target")
    if ev.get("attacker") != card.id or target is None:
        return False
    t = s.cards[target]
    return t.zone == Zone.MONSTERS and t.face_up and t.position == Position.DEFENSE


def _destroy(ctx: Ctx, link: Link) -> None:
    a = ctx.s.attack
    if a is None or a.target is None:
        return
    t = ctx.s.cards[a.target]
    if t.zone == Zone.MONSTERS and t.controller != link.controller:
        destroy(ctx, t, reason="effect", by=link.card)


register(
    by_name("Ninja Grandmaster Sasuke").code,
    Script(
        effects=(
            Effect(
                kind="trigger",
                speed=1,
                trigger_on=EventKind.DAMAGE_STEP_START,
                trigger_match=_attacks_face_up_defense,
                optional=False,
                resolve=_destroy,
                label="destroy the face-up Defense Position monster",
            ),
        )
    ),
)
