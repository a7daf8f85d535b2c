"""Sacred Crane: "If this card is Special Summoned: Draw 1 card."

A mandatory "If" trigger on its Special Summon face-up, by any effect or procedure (never a Normal
or Flip Summon; Special Summoned face-down, by Cyber Jar, it activates nothing); mandatory, it
never misses its timing (ruling CH-12). Its controller draws 1; with an empty Deck it does not
activate (ruling GEN-4)."""

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
    draw,
    register,
    still_face_up,
)


def _special(s: State, card: Card, ev: GameEvent) -> bool:
    return ev.get("card") == card.id and ev.get("how") in ("special", "fusion") and still_face_up(card)


def _can_draw(s: State, card: Card, seat: int) -> bool:
    return bool(s.players[seat].deck)


def _draw(ctx: Ctx, link: Link) -> None:
    draw(ctx, link.controller, 1)


register(
    by_name("Sacred Crane").code,
    Script(
        effects=(
            Effect(
                kind="trigger",
                speed=1,
                trigger_on=EventKind.SUMMONED,
                trigger_match=_special,
                optional=False,
                condition=_can_draw,
                resolve=_draw,
                label="draw 1",
            ),
        )
    ),
)
