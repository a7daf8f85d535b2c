"""Byser Shock: "When this card is Normal Summoned, Flip Summoned, or Special Summoned, return all
Set cards on the field to their owner's respective hands."

A mandatory trigger on any of its Summons face-up (not on being Set, nor flipped by an attack or an
effect: those are no Summon; Special Summoned face-down by Cyber Jar, it activates nothing). As it
resolves every face-down card on the field then, monsters and Spells/Traps, on both sides, goes
back to its owner's hand (no target). With no Set card on the field it does not activate (ruling
GEN-4). Mandatory, it never misses its timing (ruling CH-12)."""

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
    by_name,
    register,
    still_face_up,
    to_hand,
)


def _summoned(s: State, card: Card, ev: GameEvent) -> bool:
    summoned = ev.get("how") in ("normal", "tribute", "flip", "special")
    return ev.get("card") == card.id and summoned and still_face_up(card)


def _set_cards(s: State) -> list[Card]:
    return [c for c in s.field_cards() if not c.face_up]


def _any_set(s: State, card: Card, seat: int) -> bool:
    return bool(_set_cards(s))


def _resolve(ctx: Ctx, link: Link) -> None:
    for c in _set_cards(ctx.s):
        to_hand(ctx, c)


register(
    by_name("Byser Shock").code,
    Script(
        effects=(
            Effect(
                kind="trigger",
                speed=1,
                trigger_on=EventKind.SUMMONED,
                trigger_match=_summoned,
                optional=False,
                condition=_any_set,
                resolve=_resolve,
                label="return every Set card",
            ),
        )
    ),
)
