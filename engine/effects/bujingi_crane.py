"""Bujingi Crane: "During damage calculation (in either player's turn), if a Beast-Warrior-Type
"Bujin" monster you control battles an opponent's monster: You can send this card from your
hand to the Graveyard; the ATK of your monster becomes double its original ATK, during that
damage calculation only."

An ATK changer that says "during damage calculation", so it may be activated then and only
then (ruling DS-5; seed 003, OCG Damage Step, "During damage calculation": "cards like Bujingi Crane and
Prideful Roar that specifically note they can be activated during damage calculation can
be")."""

from __future__ import annotations

from typing import Any

from .api import (
    DURING_CALC,
    Card,
    Ctx,
    Effect,
    Link,
    Modifier,
    Script,
    State,
    Zone,
    battling_opponent,
    by_name,
    my_battling_monster,
    original,
    register,
    send_self_cost,
    still_face_up,
)


def _bujin(s: State, seat: int) -> Card | None:
    m = my_battling_monster(s, seat)
    if m is None or not m.face_up or m.data.type != "Beast-Warrior" or "Bujin" not in m.data.name:
        return None
    opp = battling_opponent(s, m)
    if opp is None or opp.zone != Zone.MONSTERS:
        return None
    return m


def _condition(s: State, card: Card, seat: int) -> bool:
    return _bujin(s, seat) is not None  # the timing: damage_step=DURING_CALC


def _cost(ctx: Ctx, card: Card, seat: int, data: dict[str, Any]) -> None:
    m = _bujin(ctx.s, seat)
    data["monster"] = m.id if m is not None else None
    send_self_cost(ctx, card, seat, data)


def _resolve(ctx: Ctx, link: Link) -> None:
    s = ctx.s
    mid = link.data.get("monster")
    if mid is None:
        return
    m = s.cards[int(mid)]
    if still_face_up(m) and m.controller == link.controller:
        ctx.emit(
            Modifier(
                card=m.id,
                stat="atk",
                op="set",
                value=2 * original(s, m, "atk"),
                until="damage_calculation",
                source=link.card,
            )
        )


register(
    by_name("Bujingi Crane").code,
    Script(
        effects=(
            Effect(
                kind="quick",
                speed=2,
                from_hand=True,
                damage_step=DURING_CALC,
                only_in_damage_step=True,
                condition=_condition,
                cost=_cost,
                resolve=_resolve,
            ),
        )
    ),
)
