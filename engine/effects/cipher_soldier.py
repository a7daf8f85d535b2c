"""Cipher Soldier (TCG "Kinetic Soldier"), in the wording of the duel's format (ruling FMT-5).

Today (the card's ``text``): "During damage calculation, if this card battles a Warrior-Type
monster: This card gains 2000 ATK and DEF during damage calculation only." A Compulsory
(mandatory) trigger effect that activates during damage calculation (ruling DS-5; seed 003, OCG
Damage Step, "During damage calculation": "Compulsory Effects that activate during damage
calculation will activate, such as Kinetic Soldier"). It starts the one chain of that timing;
"during damage calculation" cards may still be chained to it.

Goat (its ``text_goat``): "When this card battles with a Warrior-Type monster, increase the ATK
and DEF of this monster by 2000 points only during damage calculation." That wording names no
activation: in a Goat duel it is a continuous effect that applies while damage is calculated
(as Skyscraper's, ruling DS-10), no chain link and nothing to respond to (the ruling this project
decided, FMT-5)."""

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
    Timing,
    battling_opponent,
    by_name,
    gain,
    goat_wording,
    register,
    still_face_up,
)


def _against_a_warrior(s: State, card: Card) -> bool:
    if not still_face_up(card):
        return False
    opp = battling_opponent(s, card)
    return opp is not None and still_face_up(opp) and opp.data.type == "Warrior"


def _match(s: State, card: Card, ev: GameEvent) -> bool:
    return not goat_wording(s) and _against_a_warrior(s, card)


def _resolve(ctx: Ctx, link: Link) -> None:
    c = ctx.s.cards[link.card]
    if still_face_up(c):
        gain(ctx, c, 2000, "damage_calculation", c.id, stat="atk")
        gain(ctx, c, 2000, "damage_calculation", c.id, stat="def")


def _stat(s: State, src: Card, c: Card) -> tuple[int, int]:
    """The Goat wording: 2000 ATK and DEF while damage is calculated against a Warrior."""
    if c.id != src.id or s.damage_step != Timing.DURING_CALC or not goat_wording(s):
        return 0, 0
    return (2000, 2000) if _against_a_warrior(s, c) else (0, 0)


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
        ),
        stat=_stat,
    ),
)
