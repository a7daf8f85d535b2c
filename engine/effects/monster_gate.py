"""Monster Gate (Normal Spell), its Goat text: "Offer 1 monster on your side of the field as a
Tribute. Pick up cards from your Deck until you pick up a monster than can be Normal Summoned,
and Special Summon it. Send any other cards picked up to the Graveyard."

- The Tribute is its cost, paid at activation (a monster that may be Tributed). It needs a
  monster that can be Normal Summoned in the Deck (ruling GEN-4: a Tribute Summon monster too,
  not a Fusion Monster nor one that "cannot be Normal Summoned").
- As it resolves, cards are picked up from the top of the Deck down to the first such monster,
  each shown to both players (a public ``note``, what ``excavated``; ruling CARD-31); the other
  cards go to the Graveyard together, then the monster is Special Summoned face-up in the
  position its controller picks (SEL-3); one that cannot be Special Summoned goes to the
  Graveyard too."""

from __future__ import annotations

from .api import (
    Card,
    Ctx,
    Effect,
    Link,
    Script,
    State,
    by_name,
    excavate,
    excavation,
    free_monster_zone,
    may_special_summon,
    register,
    send_all_to_grave,
    summon_choosing_position,
    tributable,
    tribute_cost,
)


def _tributes(s: State, card: Card, seat: int) -> list[list[int]]:
    if excavation(s, seat)[1] is None:
        return []
    return [[m.id] for m in s.monsters(seat) if tributable(s, m)]


def _resolve(ctx: Ctx, link: Link) -> None:
    s = ctx.s
    seat = link.controller
    cards, monster = excavate(ctx, seat)
    others = [s.cards[cid] for cid in cards if cid != monster]
    send_all_to_grave(ctx, others, reason="effect")
    if monster is None:
        return
    m = s.cards[monster]
    if may_special_summon(s, m, seat) and free_monster_zone(s, seat):
        summon_choosing_position(ctx, monster, seat, source=link.card)
    else:
        send_all_to_grave(ctx, [m], reason="effect")


register(
    by_name("Monster Gate").code,
    Script(effects=(Effect(kind="spell", speed=1, cost_options=_tributes, cost=tribute_cost, resolve=_resolve),)),
)
