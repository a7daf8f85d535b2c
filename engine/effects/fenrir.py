"""Fenrir: "This card cannot be Normal Summoned or Set. This card can only be Special Summoned by
removing 2 WATER monsters in your Graveyard from play. When this card destroys an opponent's
monster as a result of battle, your opponent skips his/her next Draw Phase."

- Its Special Summon is a procedure from the hand (a Main Phase action that does not start a
  chain): ``summon`` with ``cost: [two WATER monsters in the Graveyard]`` (banished).
- The battle effect needs no "and sends it to the Graveyard": it activates at the end of the
  Damage Step even if the destroyed monster is banished instead (Macro Cosmos) (ruling DS-9; seed 003, TCG
  "Substep 7"). Mandatory; Fenrir must still be on the field."""

from __future__ import annotations

from itertools import combinations

from .api import (
    Card,
    Ctx,
    Effect,
    EventKind,
    GameEvent,
    Link,
    Script,
    State,
    Zone,
    banish,
    by_name,
    delay,
    destroyed_by_this,
    free_monster_zone,
    other,
    register,
)


def _procedure(s: State, card: Card, seat: int) -> list[list[int]]:
    if card.zone != Zone.HAND or not free_monster_zone(s, seat):
        return []
    water = [
        cid
        for cid in s.players[seat].graveyard
        if s.cards[cid].data.is_monster and s.cards[cid].data.attribute == "WATER"
    ]
    return [list(c) for c in combinations(water, 2)]


def _procedure_cost(ctx: Ctx, card: Card, seat: int, cost: list[int]) -> None:
    for cid in cost:
        banish(ctx, ctx.s.cards[cid], reason="cost")


def _match(s: State, card: Card, ev: GameEvent) -> bool:
    return destroyed_by_this(s, card, ev, to_grave=False)


def _resolve(ctx: Ctx, link: Link) -> None:
    delay(ctx, other(link.controller), skip="draw")


register(
    by_name("Fenrir").code,
    Script(
        effects=(
            Effect(
                kind="trigger",
                speed=1,
                optional=False,
                trigger_on=EventKind.DESTROYED,
                trigger_match=_match,
                resolve=_resolve,
            ),
        ),
        procedure=_procedure,
        procedure_cost=_procedure_cost,
    ),
)
