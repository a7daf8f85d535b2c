"""Widespread Ruin (Normal Trap): "Activate only when your opponent declares an attack. Destroy the
Attack Position monster your opponent controls with the highest ATK. (If it's a tie, you get to
choose.)" (card text; ruling GEN-1).

It answers the opponent's attack declaration in the chain right after it (ruling CH-4). It does
not target: as it resolves, the opponent's face-up Attack Position monsters are compared (the
attacker is not necessarily the one destroyed) and on a tie its controller selects one
(``common.destroy_the_highest``, ruling SEL-1)."""

from __future__ import annotations

from .api import (
    Card,
    Ctx,
    Effect,
    EventKind,
    Link,
    Position,
    Script,
    State,
    by_name,
    destroy_the_highest,
    face_up_monsters,
    other,
    register,
)


def _candidates(s: State, seat: int) -> list[Card]:
    return [c for c in face_up_monsters(s, other(seat)) if c.position == Position.ATTACK]


def _condition(s: State, card: Card, seat: int) -> bool:
    a = s.attack
    return a is not None and s.cards[a.attacker].controller != seat and bool(_candidates(s, seat))


def _resolve(ctx: Ctx, link: Link) -> None:
    destroy_the_highest(ctx, link, _candidates(ctx.s, link.controller), "atk")


register(
    by_name("Widespread Ruin").code,
    Script(
        effects=(Effect(kind="trap", speed=2, event=EventKind.ATTACK_DECLARED, condition=_condition, resolve=_resolve),)
    ),
)
