"""Honest: (1) "During your Main Phase: You can return this face-up card from the field to the
hand." (2) "During either player's Damage Step, when a LIGHT monster you control battles: You
can send this card from your hand to the Graveyard; that monster gains ATK equal to the ATK of
the opponent's monster it is battling, until the end of this turn."
By ruling it may be activated from the start of the Damage Step up to and including damage
calculation (ruling DS-11; seed 003, "Honest issues", Example 4: Honest vs Honest)."""

from __future__ import annotations

from typing import Any

from ..cards import by_name
from ..ops import to_hand
from ..state import Card, Link, State
from ..stats import atk
from .base import Effect, Script, register
from .common import Ctx, battling_opponent, gain, my_battling_monster, send_self_cost

DS = frozenset({"start_of_damage_step", "before_damage_calculation", "during_damage_calculation"})


def _return_ok(s: State, card: Card, seat: int) -> bool:
    return s.phase in ("main1", "main2") and s.turn_player == seat


def _return(ctx: Ctx, link: Link) -> None:
    c = ctx.s.cards[link.card]
    if c.zone == "monsters" and c.face_up:
        to_hand(ctx, c)


def _battle_ok(s: State, card: Card, seat: int) -> bool:
    m = my_battling_monster(s, seat)
    return m is not None and m.face_up and m.data.attribute == "LIGHT" and battling_opponent(s, m) is not None


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
    if m.zone == "monsters" and m.face_up and opp is not None and opp.zone == "monsters":
        gain(ctx, m, atk(s, opp), "turn", link.card)


register(
    by_name("Honest").code,
    Script(
        effects=(
            Effect(kind="ignition", speed=1, condition=_return_ok, resolve=_return, label="return to hand"),
            Effect(kind="quick", speed=2, from_hand=True, damage_step=DS, condition=_battle_ok, cost=_remember, resolve=_gain, label="gain ATK", only_in_damage_step=True),
        )
    ),
)
