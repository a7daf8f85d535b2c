"""Creature Swap (Normal Spell): "Each player chooses 1 monster they control and switches control of
those monsters with each other. Those monsters cannot change their battle positions for the rest
of this turn." (card text).

- It does not target: as it resolves each player chooses 1 monster they control, face-up or
  face-down (ruling SEL-1), the turn player first (SEL-2); then control of the two is switched
  at once, for good, each in its position (a face-down monster received may be looked at by its
  new controller, ruling GEN-30). If a player has no monster by then, nothing is switched.
- It can be activated only while each player controls a monster (ruling GEN-4).
- Neither monster can have its battle position changed by its controller for the rest of the
  turn (``CardFlag.NO_POSITION_CHANGE``; no Flip Summon either); card effects may still change
  it."""

from __future__ import annotations

from typing import Any

from .api import (
    Answer,
    Card,
    Ctx,
    Effect,
    Link,
    Script,
    State,
    Zone,
    ask_cards,
    by_name,
    continuation,
    forbid_position_change_this_turn,
    other,
    register,
    swap_control,
)


def _condition(s: State, card: Card, seat: int) -> bool:
    return bool(s.monsters(seat)) and bool(s.monsters(other(seat)))


def _resolve(ctx: Ctx, link: Link) -> None:
    first = ctx.s.turn_player
    _next(ctx, {"source": link.card, "order": [first, other(first)], "picked": []})


def _next(ctx: Ctx, d: dict[str, Any]) -> None:
    order = list(d["order"])
    if not order:
        _swap(ctx, d)
        return
    seat = int(order[0])
    mons = [c.id for c in ctx.s.monsters(seat)]
    ask_cards(ctx, seat, mons, "creature_swap.pick", {**d, "order": order[1:]}, source=int(d["source"]))


@continuation("creature_swap.pick")
def _picked(ctx: Ctx, seat: int, answer: Answer, d: dict[str, Any]) -> None:
    picked = [*d["picked"], *([[seat, answer[0]]] if isinstance(answer, list) and answer else [])]
    _next(ctx, {**d, "picked": picked})


def _swap(ctx: Ctx, d: dict[str, Any]) -> None:
    s = ctx.s
    picked = [(int(seat), s.cards[int(cid)]) for seat, cid in d["picked"]]
    if len(picked) != 2 or any(c.zone != Zone.MONSTERS or c.controller != seat for seat, c in picked):
        return
    swap_control(ctx, picked[0][1], picked[1][1])
    for _, c in picked:
        forbid_position_change_this_turn(ctx, c)


register(
    by_name("Creature Swap").code,
    Script(effects=(Effect(kind="spell", speed=1, condition=_condition, resolve=_resolve),)),
)
