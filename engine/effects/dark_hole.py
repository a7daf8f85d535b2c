"""Dark Hole (Normal Spell): "Destroy all monsters on the field." (card text). Not a
targeting effect; it needs at least 1 monster on the field to be activated."""

from __future__ import annotations

from .api import Card, Ctx, Effect, Link, Script, State, by_name, destroy_all, register


def _condition(s: State, card: Card, seat: int) -> bool:
    return bool(s.monsters(0) or s.monsters(1))


def _resolve(ctx: Ctx, link: Link) -> None:
    s = ctx.s
    destroy_all(ctx, [c for seat in (s.turn_player, 1 - s.turn_player) for c in s.monsters(seat)], by=link.card)


register(
    by_name("Dark Hole").code,
    Script(effects=(Effect(kind="spell", speed=1, condition=_condition, resolve=_resolve),)),
)
