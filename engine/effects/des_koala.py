"""Des Koala: "FLIP: Inflict 400 damage to your opponent for each card in their hand."

A mandatory FLIP effect; the damage counts the cards in the opponent's hand as it resolves. With an
empty hand it would inflict nothing, so it does not activate (ruling GEN-4)."""

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
    damage,
    other,
    register,
)


def _flipped(s: State, card: Card, ev: GameEvent) -> bool:
    return ev.get("card") == card.id


def _opponent_holds(s: State, card: Card, seat: int) -> bool:
    return bool(s.players[other(seat)].hand)


def _burn(ctx: Ctx, link: Link) -> None:
    opp = other(link.controller)
    damage(ctx, opp, 400 * len(ctx.s.players[opp].hand))


register(
    by_name("Des Koala").code,
    Script(
        effects=(
            Effect(
                kind="flip",
                speed=1,
                trigger_on=EventKind.FLIPPED,
                trigger_match=_flipped,
                optional=False,
                condition=_opponent_holds,
                resolve=_burn,
                label="400 damage per card in hand",
            ),
        )
    ),
)
