"""Goyo Guardian: "When this card destroys an opponent's monster by battle and sends it to the
Graveyard, you can Special Summon that monster to your side of the field in face-up Defense
Position." A monster destroyed by a card effect during damage calculation was not destroyed by
battle, so it does not activate (ruling DS-6; seed 003, Example 2); nor when Goyo Guardian was
destroyed in the same battle (``destroyed_by_this``, ruling DS-14)."""

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
    Zone,
    by_name,
    destroyed_by_this,
    free_monster_zone,
    may_special_summon,
    register,
    special_summon,
)


def _match(s: State, card: Card, ev: GameEvent) -> bool:
    victim = s.cards.get(int(ev.get("card", -1)))
    return (
        destroyed_by_this(s, card, ev, to_grave=True)
        and victim is not None
        and may_special_summon(s, victim, card.controller)
    )


def _condition(s: State, card: Card, seat: int) -> bool:
    """A Monster Zone of its controller is free (ruling GEN-4); ``_match`` has already checked that
    the monster may be Special Summoned (not Flame Wingman: ruling SUM-1)."""
    return free_monster_zone(s, seat)


def _resolve(ctx: Ctx, link: Link) -> None:
    ev = link.data.get("event", {})
    c = ctx.s.cards[ev.get("card", -1)] if ev.get("card") in ctx.s.cards else None
    if c is not None and c.zone == Zone.GRAVEYARD:
        special_summon(ctx, c, link.controller, "defense")


register(
    by_name("Goyo Guardian").code,
    Script(
        effects=(
            Effect(
                kind="trigger",
                speed=1,
                trigger_on=EventKind.DESTROYED,
                trigger_match=_match,
                condition=_condition,
                resolve=_resolve,
            ),
        )
    ),
)
