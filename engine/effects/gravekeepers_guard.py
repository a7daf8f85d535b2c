"""Gravekeeper's Guard: "FLIP: Select 1 monster your opponent controls and return it to the hand."

A mandatory FLIP effect that targets 1 monster its controller's opponent controls (ruling SEL-1:
an old text that "selects" a card chosen as it is activated means a target), face-up or face-down,
and returns it to its owner's hand if it is still there (ruling CH-3); a Fusion Monster goes back
to the Extra Deck (ruling LF-1). With none, it does not activate (ruling GEN-4)."""

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
    each,
    other,
    register,
    target_ok,
    to_hand,
)


def _flipped(s: State, card: Card, ev: GameEvent) -> bool:
    return ev.get("card") == card.id


def _targets(s: State, card: Card, seat: int) -> list[list[int]]:
    return each(s.monsters(other(seat)))


def _bounce(ctx: Ctx, link: Link) -> None:
    for t in link.targets:
        if target_ok(ctx.s, t) and ctx.s.cards[t].controller != link.controller:
            to_hand(ctx, ctx.s.cards[t])


register(
    by_name("Gravekeeper's Guard").code,
    Script(
        effects=(
            Effect(
                kind="flip",
                speed=1,
                trigger_on=EventKind.FLIPPED,
                trigger_match=_flipped,
                optional=False,
                targets=_targets,
                resolve=_bounce,
                label="return a monster to the hand",
            ),
        )
    ),
)
