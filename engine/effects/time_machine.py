"""Time Machine (Normal Trap): "When exactly 1 monster is destroyed by battle and sent to the
Graveyard: Special Summon that monster to the same side of the field it was on, in the same
battle position it was in when destroyed."

It answers the sending of the monsters destroyed by battle at the end of the Damage Step, in
the chain that starts then (ruling DS-9; seed 003, TCG "Substep 7": it "may be activated/chained at this
time"; the engine's ``left_field`` window). Not if two monsters were destroyed by battle and
sent to the Graveyard, not if the monster was banished instead (Macro Cosmos). The monster is
remembered at activation (not a target); it is summoned face-up under the control of the
player who controlled it."""

from __future__ import annotations

from typing import Any

from .api import (
    END_OF_DS,
    Card,
    Ctx,
    Effect,
    EventKind,
    LeftCard,
    Link,
    Script,
    State,
    Zone,
    by_name,
    destroyed_by_battle_to_grave,
    may_special_summon,
    register,
    special_summon,
)


def _the_one(s: State) -> LeftCard | None:
    sent = destroyed_by_battle_to_grave(s)
    if len(sent) != 1 or s.cards[int(sent[0]["card"])].zone != Zone.GRAVEYARD:
        return None
    if not may_special_summon(s, s.cards[int(sent[0]["card"])], int(sent[0]["controller"])):
        return None  # it cannot be Special Summoned (rulings SUM-1, SUM-2)
    return sent[0]


def _condition(s: State, card: Card, seat: int) -> bool:
    return _the_one(s) is not None


def _remember(ctx: Ctx, card: Card, seat: int, data: dict[str, Any]) -> None:
    one = _the_one(ctx.s)
    if one is not None:
        data["monster"] = dict(one)


def _resolve(ctx: Ctx, link: Link) -> None:
    m = link.data.get("monster")
    if not m:
        return
    c = ctx.s.cards[int(m["card"])]
    if c.zone == Zone.GRAVEYARD:
        special_summon(ctx, c, int(m["controller"]), str(m.get("position", "attack")))


register(
    by_name("Time Machine").code,
    Script(
        effects=(
            Effect(
                kind="trap",
                speed=2,
                event=EventKind.LEFT_FIELD,
                damage_step=END_OF_DS,
                condition=_condition,
                cost=_remember,
                resolve=_resolve,
            ),
        )
    ),
)
