"""Honest: (1) "During your Main Phase: You can return this face-up card from the field to the
hand." (2) "During either player's Damage Step, when a LIGHT monster you control battles: You
can send this card from your hand to the Graveyard; that monster gains ATK equal to the ATK of
the opponent's monster it is battling, until the end of this turn."
By ruling it may be activated from the start of the Damage Step up to and including damage
calculation (ruling DS-11; seed 003, "Honest issues", Example 4: Honest vs Honest), but only once
the opponent's monster is face-up: a face-down attack target shows no ATK to copy (ruling DS-13;
seed 003, OCG Substep 1: at the start of the Damage Step it is still face-down)."""

from __future__ import annotations

from typing import Any

from .api import (
    UP_TO_CALC,
    Card,
    Ctx,
    Effect,
    Link,
    Script,
    State,
    Zone,
    battling_opponent,
    by_name,
    gain,
    my_battling_monster,
    register,
    send_self_cost,
    shown_atk,
    still_face_up,
    to_hand,
)


def _return(ctx: Ctx, link: Link) -> None:
    c = ctx.s.cards[link.card]
    if still_face_up(c):
        to_hand(ctx, c)


def _battle_ok(s: State, card: Card, seat: int) -> bool:
    m = my_battling_monster(s, seat)
    if m is None or not m.face_up or m.data.attribute != "LIGHT":
        return False
    opp = battling_opponent(s, m)
    return opp is not None and shown_atk(s, opp) is not None


def _remember(ctx: Ctx, card: Card, seat: int, data: dict[str, Any]) -> None:
    m = my_battling_monster(ctx.s, seat)
    data["monster"] = m.id if m is not None else None
    send_self_cost(ctx, card, seat, data)


def _gain(ctx: Ctx, link: Link) -> None:
    s = ctx.s
    mid = link.data.get("monster")
    if mid is None:
        return
    m = s.cards[mid]
    opp = battling_opponent(s, m)
    shown = shown_atk(s, opp) if opp is not None and opp.zone == Zone.MONSTERS else None
    if still_face_up(m) and shown is not None:
        gain(ctx, m, shown, "turn", link.card)


register(
    by_name("Honest").code,
    Script(
        effects=(
            Effect(kind="ignition", speed=1, resolve=_return, label="return to hand"),
            Effect(
                kind="quick",
                speed=2,
                from_hand=True,
                damage_step=UP_TO_CALC,
                condition=_battle_ok,
                cost=_remember,
                resolve=_gain,
                label="gain ATK",
                only_in_damage_step=True,
            ),
        )
    ),
)
