"""Jurrac Velo: "When this face-up Attack Position card attacks or is attacked, and it is
destroyed by battle and sent to the Graveyard, you can Special Summon 1 "Jurrac" monster with
1700 or less ATK from your Deck." A trigger of the end of the Damage Step (ruling DS-9, seed 003
TCG "Substep 7"), from the Graveyard; not if it battled in Defense Position or was banished
instead. The monster is selected in the Deck as it resolves (ruling SEL-1) and Summoned in the
position its controller picks (SEL-3)."""

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
    can_summon_from_deck,
    is_small_jurrac,
    register,
    summon_from_deck,
)


def _match(s: State, card: Card, ev: GameEvent) -> bool:
    return (
        ev.get("card") == card.id
        and ev.get("reason") == "battle"
        and ev.get("to") == Zone.GRAVEYARD
        and ev.get("position") == "attack"
        and card.zone == Zone.GRAVEYARD
    )


def _resolve(ctx: Ctx, link: Link) -> None:
    summon_from_deck(ctx, link, is_small_jurrac)


register(
    by_name("Jurrac Velo").code,
    Script(
        effects=(
            Effect(
                kind="trigger",
                speed=1,
                trigger_on=EventKind.DESTROYED,
                trigger_match=_match,
                condition=can_summon_from_deck(is_small_jurrac),
                resolve=_resolve,
            ),
        )
    ),
)
