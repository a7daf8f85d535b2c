"""Cipher Soldier (OCG "Kinetic Soldier"): "During damage calculation, if this card battles a
Warrior-Type monster: This card gains 2000 ATK and DEF during damage calculation only."

A Compulsory (mandatory) trigger effect that activates during damage calculation (ruling DS-5; seed 003,
OCG Damage Step, "During damage calculation": "Compulsory Effects that activate during damage
calculation will activate, such as Kinetic Soldier"). It starts the one chain of that timing;
"during damage calculation" cards may still be chained to it."""

from __future__ import annotations

from .api import (
    Card,
    Ctx,
    Effect,
    EventKind,
    GameEvent,
    Link,
    Script,
    State,
    battling_opponent,
    by_name,
    gain,
    register,
    still_face_up,
)


def _match(s: State, card: Card, ev: GameEvent) -> bool:
    if not still_face_up(card):
        return False
    opp = battling_opponent(s, card)
    return opp is not None and still_face_up(opp) and opp.data.type == "Warrior"


def _resolve(ctx: Ctx, link: Link) -> None:
    c = ctx.s.cards[link.card]
    if still_face_up(c):
        gain(ctx, c, 2000, "damage_calculation", c.id, stat="atk")
        gain(ctx, c, 2000, "damage_calculation", c.id, stat="def")


register(
    by_name("Cipher Soldier").code,
    Script(
        effects=(
            Effect(
                kind="trigger",
                speed=1,
                trigger_on=EventKind.DAMAGE_CALCULATION,
                trigger_match=_match,
                optional=False,
                resolve=_resolve,
            ),
        )
    ),
)
