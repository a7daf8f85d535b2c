"""Enemy Controller (Quick-Play Spell), two effects:
1. Target 1 face-up monster your opponent controls; change that target's battle position.
2. Tribute 1 monster, then target 1 face-up monster your opponent controls; take control of
   that target until the End Phase.
Seed 002, Example 4: when its target is destroyed first (Raigeki Break), it resolves
without effect, and the attack replays."""

from __future__ import annotations

from .api import (
    Card,
    Ctx,
    Effect,
    Link,
    Position,
    PositionChanged,
    Script,
    State,
    by_name,
    each,
    face_up_monsters,
    other,
    register,
    take_control_until_end_phase,
    target_ok,
    tributable,
    tribute_cost,
)


def _targets(s: State, card: Card, seat: int) -> list[list[int]]:
    return each(face_up_monsters(s, other(seat)))


def _change(ctx: Ctx, link: Link) -> None:
    for t in link.targets:
        if target_ok(ctx.s, t, face_up=True):
            c = ctx.s.cards[t]
            new = "defense" if c.position == Position.ATTACK else "attack"
            ctx.emit(PositionChanged(card=t, code=c.code, position=new, face_up=True, by_player=False))


def _tribute_options(s: State, card: Card, seat: int) -> list[list[int]]:
    return [[c.id] for c in s.monsters(seat) if tributable(s, c)]


register(
    by_name("Enemy Controller").code,
    Script(
        effects=(
            Effect(kind="spell", speed=2, targets=_targets, resolve=_change, label="change battle position"),
            Effect(
                kind="spell",
                speed=2,
                targets=_targets,
                cost_options=_tribute_options,
                cost=tribute_cost,
                resolve=take_control_until_end_phase,
                label="take control",
            ),
        )
    ),
)
