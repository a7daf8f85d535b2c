"""Ceasefire (Normal Trap): "Change all face-down Defense Position monsters on the field to face-up
Defense Position (Flip Effects are not activated), also inflict 500 damage to your opponent for
each Effect Monster on the field." (card text; ruling GEN-1).

Both players' face-down monsters are turned face-up in Defense Position without their FLIP
effects (``ops.flip_face_up(flip_effects=False)``); then the Effect Monsters on the field, the
ones just turned face-up among them, are counted, 500 damage each to its controller's opponent. It
needs a face-down monster or an Effect Monster on the field to be activated (ruling GEN-4)."""

from __future__ import annotations

from .api import Card, Ctx, Effect, Link, Script, State, by_name, damage, flip_face_up, other, register


def _monsters(s: State) -> list[Card]:
    return s.monsters(s.turn_player) + s.monsters(other(s.turn_player))


def _effect_monsters(s: State) -> int:
    return sum(1 for c in _monsters(s) if c.face_up and "effect" in c.data.monster_kinds)


def _condition(s: State, card: Card, seat: int) -> bool:
    return any(not c.face_up for c in _monsters(s)) or _effect_monsters(s) > 0


def _resolve(ctx: Ctx, link: Link) -> None:
    for c in _monsters(ctx.s):
        if not c.face_up:
            flip_face_up(ctx, c, "defense", flip_effects=False)
    damage(ctx, other(link.controller), 500 * _effect_monsters(ctx.s))


register(
    by_name("Ceasefire").code,
    Script(effects=(Effect(kind="trap", speed=2, condition=_condition, resolve=_resolve),)),
)
