"""The Shallow Grave (Normal Spell): "Each player selects 1 monster in their Graveyard and Special
Summons it in face-down Defense Position." (card text).

- It does not target: each player selects as it resolves (ruling SEL-1), the turn player first,
  then the other (SEL-2), among the monsters of their own Graveyard they may Special Summon (not
  a Fusion Monster never properly Summoned, SUM-1); both are then Special Summoned at the same
  time in face-down Defense Position. A player with no such monster or no free Monster Zone
  Summons nothing.
- It can be activated only while each player has a monster in their Graveyard they could
  Special Summon and a free Monster Zone (ruling CARD-30, GEN-4)."""

from __future__ import annotations

from typing import Any

from .api import (
    Answer,
    Card,
    Ctx,
    Effect,
    Link,
    Position,
    Script,
    State,
    Zone,
    ask_cards,
    by_name,
    continuation,
    free_monster_zone,
    may_special_summon,
    other,
    register,
    special_summon,
)


def _candidates(s: State, seat: int) -> list[int]:
    if not free_monster_zone(s, seat):
        return []
    cards = s.cards
    return [cid for cid in s.players[seat].graveyard if may_special_summon(s, cards[cid], seat)]


def _condition(s: State, card: Card, seat: int) -> bool:
    return bool(_candidates(s, seat)) and bool(_candidates(s, other(seat)))


def _resolve(ctx: Ctx, link: Link) -> None:
    first = ctx.s.turn_player
    d = {"source": link.card, "order": [first, other(first)], "picked": []}
    _next(ctx, d)


def _next(ctx: Ctx, d: dict[str, Any]) -> None:
    order = list(d["order"])
    if not order:
        _summon_all(ctx, d)
        return
    seat = int(order[0])
    d = {**d, "order": order[1:]}
    ask_cards(ctx, seat, _candidates(ctx.s, seat), "the_shallow_grave.pick", d, source=int(d["source"]))


@continuation("the_shallow_grave.pick")
def _picked(ctx: Ctx, seat: int, answer: Answer, d: dict[str, Any]) -> None:
    picked = [*d["picked"], *([[seat, answer[0]]] if isinstance(answer, list) and answer else [])]
    _next(ctx, {**d, "picked": picked})


def _summon_all(ctx: Ctx, d: dict[str, Any]) -> None:
    s = ctx.s
    for seat, cid in d["picked"]:
        c = s.cards[int(cid)]
        if c.zone == Zone.GRAVEYARD:
            special_summon(ctx, c, int(seat), Position.DEFENSE, face_up=False)


register(
    by_name("The Shallow Grave").code,
    Script(effects=(Effect(kind="spell", speed=1, condition=_condition, resolve=_resolve),)),
)
