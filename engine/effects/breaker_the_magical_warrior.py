"""Breaker the Magical Warrior: "If this card is Normal Summoned: Place 1 Spell Counter on it
(max. 1). Gains 300 ATK for each Spell Counter on it. You can remove 1 Spell Counter from this
card, then target 1 Spell/Trap on the field; destroy that target." (card text; the Spell
Counter holder of Apprentice Magician's scenarios, ruling GEN-1; seed 003).

Mandatory trigger on its Normal Summon; a continuous ATK gain; an Ignition effect whose cost is
the counter."""

from __future__ import annotations

from typing import Any

from .api import (
    Card,
    Counter,
    Ctx,
    Effect,
    EventKind,
    GameEvent,
    Link,
    Script,
    State,
    Zone,
    by_name,
    destroy,
    register,
    set_counters,
    still_face_up,
)


def _normal_summoned(s: State, card: Card, ev: GameEvent) -> bool:
    return ev.get("card") == card.id and ev.get("how") in ("normal", "tribute") and still_face_up(card)


def _place(ctx: Ctx, link: Link) -> None:
    c = ctx.s.cards[link.card]
    if still_face_up(c) and c.counters.get(Counter.SPELL, 0) < 1:
        set_counters(ctx, c, Counter.SPELL, 1)


def _stat(s: State, src: Card, c: Card) -> tuple[int, int]:
    if c.id != src.id:
        return 0, 0
    return 300 * c.counters.get(Counter.SPELL, 0), 0


def _has_counter(s: State, card: Card, seat: int) -> bool:
    return card.counters.get(Counter.SPELL, 0) > 0


def _remove_counter(ctx: Ctx, card: Card, seat: int, data: dict[str, Any]) -> None:
    set_counters(ctx, card, Counter.SPELL, card.counters.get(Counter.SPELL, 0) - 1)


def _targets(s: State, card: Card, seat: int) -> list[list[int]]:
    return [[c.id] for c in s.field_cards() if c.zone in (Zone.SPELLS_TRAPS, Zone.FIELD)]


def _destroy(ctx: Ctx, link: Link) -> None:
    for t in link.targets:
        c = ctx.s.cards[t]
        if c.zone in (Zone.SPELLS_TRAPS, Zone.FIELD):
            destroy(ctx, c, reason="effect", by=link.card)


register(
    by_name("Breaker the Magical Warrior").code,
    Script(
        effects=(
            Effect(
                kind="trigger",
                speed=1,
                optional=False,
                trigger_on=EventKind.SUMMONED,
                trigger_match=_normal_summoned,
                resolve=_place,
                label="Spell Counter",
            ),
            Effect(
                kind="ignition",
                speed=1,
                condition=_has_counter,
                cost=_remove_counter,
                targets=_targets,
                resolve=_destroy,
                label="destroy a Spell/Trap",
            ),
        ),
        stat=_stat,
        spell_counters=1,
    ),
)
