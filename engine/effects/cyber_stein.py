"""Cyber-Stein: "Pay 5000 Life Points. Special Summon 1 Fusion Monster from your Fusion Deck to the
field in Attack Position." (card text).

- An Ignition effect (Spell Speed 1) of the face-up monster, with no limit per turn; its cost is
  5000 Life Points (which its controller must have). It needs a Fusion Monster in the Fusion
  Deck that may be Special Summoned from there and a free Monster Zone (ruling GEN-4).
- As it resolves, the Fusion Monster is selected (ruling SEL-1) and Special Summoned in face-up
  Attack Position: not a Fusion Summon, but its proper Summon (ruling SUM-31); not one that
  "must be Fusion Summoned and cannot be Special Summoned by other ways"."""

from __future__ import annotations

from typing import Final

from .api import (
    Card,
    Ctx,
    Effect,
    Link,
    Script,
    State,
    by_name,
    can_pay_lp,
    free_monster_zone,
    fusion_deck_candidates,
    lp_cost,
    register,
    summon_from_fusion_deck,
)

COST: Final = 5000


def _fusions(s: State, seat: int) -> list[int]:
    return fusion_deck_candidates(s, seat, lambda c: True)


def _condition(s: State, card: Card, seat: int) -> bool:
    return can_pay_lp(s, seat, COST) and free_monster_zone(s, seat) and bool(_fusions(s, seat))


def _resolve(ctx: Ctx, link: Link) -> None:
    summon_from_fusion_deck(ctx, link, _fusions(ctx.s, link.controller), positions=("attack",))


register(
    by_name("Cyber-Stein").code,
    Script(
        effects=(
            Effect(
                kind="ignition",
                speed=1,
                condition=_condition,
                cost=lp_cost(COST),
                resolve=_resolve,
                label="pay 5000 LP; Special Summon a Fusion Monster",
            ),
        )
    ),
)
