"""Hydrogeddon: "When this card destroys an opponent's monster by battle and sends it to the GY:
You can Special Summon 1 "Hydrogeddon" from your Deck." (ruling DS-9, seed 003 TCG "Substep 7": it
activates at the end of the Damage Step, when the destroyed monster is sent to the Graveyard).

Hydrogeddon must still be on the field then: not if it was destroyed in the same battle, and
not if the destroyed monster was banished instead (Macro Cosmos). The copy is selected in the
Deck as the effect resolves (ruling SEL-1) and Special Summoned in the face-up position its
controller picks (ruling SEL-3)."""

from __future__ import annotations

from typing import Final

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
    can_summon_from_deck,
    destroyed_by_this,
    register,
    summon_from_deck,
)

CODE: Final = by_name("Hydrogeddon").code


def _match(s: State, card: Card, ev: GameEvent) -> bool:
    return destroyed_by_this(s, card, ev, to_grave=True)


def _resolve(ctx: Ctx, link: Link) -> None:
    summon_from_deck(ctx, link, lambda c: c.code == CODE)


register(
    CODE,
    Script(
        effects=(
            Effect(
                kind="trigger",
                speed=1,
                trigger_on=EventKind.DESTROYED,
                trigger_match=_match,
                condition=can_summon_from_deck(lambda c: c.code == CODE),
                resolve=_resolve,
            ),
        )
    ),
)
