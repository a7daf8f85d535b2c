"""Just Desserts (Normal Trap): "Inflict 500 points of damage to your opponent's Life Points for each
monster on your opponent's side of the field." (card text; ruling GEN-1).

The monsters are counted as it resolves, face-up or face-down; it needs one there to be activated
(ruling GEN-4)."""

from __future__ import annotations

from .api import Card, Ctx, Effect, Link, Script, State, by_name, damage, other, register


def _condition(s: State, card: Card, seat: int) -> bool:
    return bool(s.monsters(other(seat)))


def _resolve(ctx: Ctx, link: Link) -> None:
    opp = other(link.controller)
    damage(ctx, opp, 500 * len(ctx.s.monsters(opp)))


register(
    by_name("Just Desserts").code,
    Script(effects=(Effect(kind="trap", speed=2, condition=_condition, resolve=_resolve),)),
)
