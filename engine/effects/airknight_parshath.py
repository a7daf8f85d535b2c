"""Airknight Parshath: "If this card attacks a Defense Position monster, inflict piercing battle
damage to your opponent. When this card inflicts battle damage to your opponent: Draw 1 card."

- Piercing (``Script.piercing``, as Bladedge: damage calculation, ruling DS-7).
- A mandatory trigger when the battle it takes part in deals battle damage to its controller's
  opponent (piercing damage too, or a direct attack), after damage calculation (ruling DS-8):
  its controller draws 1. With an empty Deck it does not activate (ruling GEN-4)."""

from __future__ import annotations

from .api import (
    Card,
    Ctx,
    Effect,
    EventKind,
    Link,
    Script,
    State,
    by_name,
    draw,
    inflicted_battle_damage,
    register,
)


def _can_draw(s: State, card: Card, seat: int) -> bool:
    return bool(s.players[seat].deck)


def _draw(ctx: Ctx, link: Link) -> None:
    draw(ctx, link.controller, 1)


register(
    by_name("Airknight Parshath").code,
    Script(
        effects=(
            Effect(
                kind="trigger",
                speed=1,
                trigger_on=EventKind.BATTLE_DAMAGE,
                trigger_match=inflicted_battle_damage,
                optional=False,
                condition=_can_draw,
                resolve=_draw,
                label="draw 1",
            ),
        ),
        piercing=True,
    ),
)
