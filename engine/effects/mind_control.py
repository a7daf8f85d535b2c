"""Mind Control (Normal Spell): "Target 1 monster your opponent controls; until the End Phase, take
control of that target, but it cannot declare an attack or be Tributed." (card text).

- It targets a monster the opponent controls, face-up or face-down, with a Monster Zone of its
  controller free to receive it (ruling GEN-4). As it resolves, if the target is still there,
  its controller takes control of it in its position until the End Phase (``ops.take_control``;
  control returns as the End Phase starts). A face-down monster taken stays face-down; its new
  controller may look at it (ruling GEN-30).
- For the rest of the turn the monster cannot declare an attack (ruling BS-7) nor be Tributed,
  for a Tribute Summon or a cost (``stats.tributable``)."""

from __future__ import annotations

from .api import (
    Card,
    Ctx,
    Effect,
    Link,
    Script,
    State,
    by_name,
    each,
    forbid_attack_this_turn,
    forbid_tribute_this_turn,
    free_monster_zone,
    other,
    register,
    take_control,
    target_ok,
)


def _targets(s: State, card: Card, seat: int) -> list[list[int]]:
    return each(s.monsters(other(seat))) if free_monster_zone(s, seat) else []


def _resolve(ctx: Ctx, link: Link) -> None:
    s = ctx.s
    seat = link.controller
    for t in link.targets:
        c = s.cards[t]
        if target_ok(s, t) and c.controller != seat and free_monster_zone(s, seat):
            take_control(ctx, c, seat)
            forbid_attack_this_turn(ctx, c)
            forbid_tribute_this_turn(ctx, c)


register(
    by_name("Mind Control").code,
    Script(effects=(Effect(kind="spell", speed=1, targets=_targets, resolve=_resolve),)),
)
