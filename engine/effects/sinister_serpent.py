"""Sinister Serpent, its Goat wording: "During your Standby Phase, if there is a "Sinister
Serpent" in your Graveyard: you can add this card from your Graveyard to your hand."

An optional trigger of the card in its owner's Graveyard as their Standby Phase begins; each copy
there has its own, with no once-per-turn limit and nothing banished later (the Goat text has
neither). It returns the card to the hand if it is still in the Graveyard (ruling CH-3)."""

from __future__ import annotations

from .api import (
    Card,
    Ctx,
    Effect,
    EventKind,
    GameEvent,
    Link,
    Phase,
    Script,
    State,
    Zone,
    by_name,
    register,
    to_hand,
)


def _match(s: State, card: Card, ev: GameEvent) -> bool:
    return ev.get("phase") == Phase.STANDBY and ev.get("seat") == card.owner and card.zone == Zone.GRAVEYARD


def _resolve(ctx: Ctx, link: Link) -> None:
    c = ctx.s.cards[link.card]
    if c.zone == Zone.GRAVEYARD:
        to_hand(ctx, c)


register(
    by_name("Sinister Serpent").code,
    Script(
        effects=(
            Effect(
                kind="trigger",
                speed=1,
                trigger_on=EventKind.PHASE_START,
                trigger_match=_match,
                resolve=_resolve,
                label="return to the hand",
            ),
        )
    ),
)
