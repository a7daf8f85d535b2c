"""Legendary Jujitsu Master: "If this Defense Position card battled a monster, at the end of the
Damage Step: Place that monster on the top of the Deck."

A mandatory trigger at the end of the Damage Step of an attack on it, if it was in Defense
Position when damage was calculated (recorded then by ``watch``: an attack stopped before damage
calculation is no battle, ruling DS-12); the attacking monster, if it is still on the field, goes
to the top of its owner's Deck (a Fusion Monster to the Extra Deck, ruling LF-1). It activates even
if Jujitsu Master itself was destroyed by that battle (ruling CARD-25)."""

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
    Used,
    Zone,
    by_name,
    move,
    register,
)


def _key(s: State, card: Card) -> str:
    return f"jujitsu:{card.id}:{s.turn}:{s.battle_phases}"


def _watch(ctx: Ctx, card: Card, ev: GameEvent) -> None:
    s = ctx.s
    if (
        ev.get("kind") == EventKind.AFTER_DAMAGE_CALCULATION
        and ev.get("target") == card.id
        and ev.get("calculated")
        and card.zone == Zone.MONSTERS
        and card.position == Position.DEFENSE
    ):
        ctx.emit(Used(key=_key(s, card)))


def _match(s: State, card: Card, ev: GameEvent) -> bool:
    a = s.attack
    return ev.get("target") == card.id and a is not None and _key(s, card) in s.used


def _resolve(ctx: Ctx, link: Link) -> None:
    attacker = link.data.get("event", {}).get("attacker")
    if attacker is None:
        return
    c = ctx.s.cards[int(attacker)]
    if c.zone == Zone.MONSTERS:
        move(ctx, c, "deck", top=True, reason="effect")


register(
    by_name("Legendary Jujitsu Master").code,
    Script(
        effects=(
            Effect(
                kind="trigger",
                speed=1,
                trigger_on=EventKind.DAMAGE_STEP_END,
                trigger_match=_match,
                optional=False,
                resolve=_resolve,
                label="place the attacker on top of the Deck",
            ),
        ),
        watch=_watch,
        watch_on=frozenset({EventKind.AFTER_DAMAGE_CALCULATION}),
    ),
)
