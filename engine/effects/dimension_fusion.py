"""Dimension Fusion (Normal Spell): "Pay 2000 Life Points. Both players Special Summon as many of
their removed from play monsters as possible." (card text).

- Its cost is 2000 Life Points (which its controller must have). It needs a removed-from-play
  monster that some player may Special Summon, with a free Monster Zone on their side (ruling
  GEN-4).
- As it resolves, each player, the turn player first (SEL-2), selects which of their own
  removed-from-play monsters they Special Summon when they have more than free Monster Zones
  (as many as possible: no fewer), then picks each one's face-up position (SEL-3); all of them
  are then Special Summoned at the same time. A monster that must be properly Summoned first
  and was not (a Fusion Monster banished from the Fusion Deck) is not Summoned (ruling SUM-1)."""

from __future__ import annotations

from typing import Any, Final

from .api import (
    POSITIONS,
    Answer,
    Card,
    Ctx,
    Effect,
    Link,
    Script,
    State,
    Zone,
    ask_cards,
    ask_option,
    by_name,
    can_pay_lp,
    continuation,
    free_zones,
    lp_cost,
    may_special_summon,
    other,
    register,
    special_summon,
)

COST: Final = 2000


def _banished(s: State, seat: int) -> list[int]:
    cards = s.cards
    return [cid for cid in s.players[seat].banished if may_special_summon(s, cards[cid], seat)]


def _room(s: State, seat: int) -> int:
    return free_zones(s, seat)


def _condition(s: State, card: Card, seat: int) -> bool:
    return can_pay_lp(s, seat, COST) and any(_banished(s, sd) and _room(s, sd) for sd in (seat, other(seat)))


def _resolve(ctx: Ctx, link: Link) -> None:
    first = ctx.s.turn_player
    _select(ctx, {"source": link.card, "order": [first, other(first)], "picked": [], "queue": []})


def _select(ctx: Ctx, d: dict[str, Any]) -> None:
    """The next player selects what they Summon (nothing to select when all fit)."""
    order = list(d["order"])
    if not order:
        _positions(ctx, {**d, "queue": list(d["picked"]), "picked": []})
        return
    seat = int(order[0])
    d = {**d, "order": order[1:]}
    cands = _banished(ctx.s, seat)
    n = min(len(cands), _room(ctx.s, seat))
    ask_cards(ctx, seat, cands, "dimension_fusion.select", {**d, "seat": seat}, count=n, source=int(d["source"]))


@continuation("dimension_fusion.select")
def _selected(ctx: Ctx, seat: int, answer: Answer, d: dict[str, Any]) -> None:
    picked = [*d["picked"], *([int(d["seat"]), cid] for cid in (answer if isinstance(answer, list) else []))]
    _select(ctx, {**d, "picked": picked})


def _positions(ctx: Ctx, d: dict[str, Any]) -> None:
    """Each monster's position, picked by its summoner in turn; then all are Summoned together."""
    queue = list(d["queue"])
    if not queue:
        for seat, cid, position in d["picked"]:
            c = ctx.s.cards[int(cid)]
            if c.zone == Zone.BANISHED:
                special_summon(ctx, c, int(seat), str(position))
        return
    seat, cid = queue[0]
    ask_option(ctx, int(seat), list(POSITIONS), "dimension_fusion.position", {**d, "queue": queue}, source=int(cid))


@continuation("dimension_fusion.position")
def _position(ctx: Ctx, seat: int, answer: Answer, d: dict[str, Any]) -> None:
    queue = list(d["queue"])
    first_seat, cid = queue[0]
    _positions(ctx, {**d, "queue": queue[1:], "picked": [*d["picked"], [first_seat, cid, str(answer)]]})


register(
    by_name("Dimension Fusion").code,
    Script(effects=(Effect(kind="spell", speed=1, condition=_condition, cost=lp_cost(COST), resolve=_resolve),)),
)
