"""Prideful Roar (Normal Trap): "Activate only during damage calculation, if your monster
battles an opponent's monster with a higher ATK: Pay Life Points equal to the difference in
ATK; your monster gains ATK equal to that difference +300, during damage calculation only."

An ATK changer that says it is activated during damage calculation, so it may be (ruling DS-5; seed 003,
OCG Damage Step, "During damage calculation": "cards like Bujingi Crane and Prideful Roar that
specifically note they can be activated during damage calculation can be"); it may not be
activated before damage calculation. The difference is measured and paid at activation; the
gain uses that paid difference. The opponent's monster must show its ATK: face-up (ruling
DS-13)."""

from __future__ import annotations

from typing import Any

from .api import (
    DURING_CALC,
    Card,
    Ctx,
    Effect,
    Link,
    Script,
    State,
    Zone,
    atk,
    battling_opponent,
    by_name,
    gain,
    my_battling_monster,
    pay_lp,
    register,
    still_face_up,
)


def _pair(s: State, seat: int) -> tuple[Card, Card] | None:
    mine = my_battling_monster(s, seat)
    if mine is None or not mine.face_up:
        return None
    opp = battling_opponent(s, mine)
    if opp is None or opp.zone != Zone.MONSTERS or opp.controller == seat or not opp.face_up:
        return None
    return mine, opp


def _condition(s: State, card: Card, seat: int) -> bool:
    pair = _pair(s, seat)
    if pair is None:
        return False
    diff = atk(s, pair[1]) - atk(s, pair[0])
    return diff > 0 and s.players[seat].lp >= diff


def _cost(ctx: Ctx, card: Card, seat: int, data: dict[str, Any]) -> None:
    pair = _pair(ctx.s, seat)
    assert pair is not None
    diff = atk(ctx.s, pair[1]) - atk(ctx.s, pair[0])
    data["monster"] = pair[0].id
    data["difference"] = diff
    pay_lp(ctx, seat, diff)


def _resolve(ctx: Ctx, link: Link) -> None:
    m = ctx.s.cards[int(link.data["monster"])]
    if still_face_up(m) and m.controller == link.controller:
        gain(ctx, m, int(link.data["difference"]) + 300, "damage_calculation", link.card)


register(
    by_name("Prideful Roar").code,
    Script(
        effects=(
            Effect(
                kind="trap",
                speed=2,
                damage_step=DURING_CALC,
                only_in_damage_step=True,
                condition=_condition,
                cost=_cost,
                resolve=_resolve,
            ),
        )
    ),
)
