"""Dekoichi the Battlechanted Locomotive: "FLIP: Draw 1 card, then draw 1 additional card for each
face-up "Bokoichi the Freightening Car" you control."

A mandatory FLIP effect: its controller draws 1, then 1 more per face-up "Bokoichi the
Freightening Car" they control as it resolves (a card outside the pool, counted by its name). With
an empty Deck it does not activate (ruling GEN-4: no card to draw)."""

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
    draw,
    face_up_monsters,
    register,
)

BOKOICHI: Final = "Bokoichi the Freightening Car"


def _flipped(s: State, card: Card, ev: GameEvent) -> bool:
    return ev.get("card") == card.id


def _can_draw(s: State, card: Card, seat: int) -> bool:
    return bool(s.players[seat].deck)


def _resolve(ctx: Ctx, link: Link) -> None:
    seat = link.controller
    draw(ctx, seat, 1)
    extra = sum(1 for c in face_up_monsters(ctx.s, seat) if c.data.name == BOKOICHI)
    if extra:
        draw(ctx, seat, extra)


register(
    by_name("Dekoichi the Battlechanted Locomotive").code,
    Script(
        effects=(
            Effect(
                kind="flip",
                speed=1,
                trigger_on=EventKind.FLIPPED,
                trigger_match=_flipped,
                optional=False,
                condition=_can_draw,
                resolve=_resolve,
                label="draw",
            ),
        )
    ),
)
