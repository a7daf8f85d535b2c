"""Kycoo the Ghost Destroyer: "When this card inflicts battle damage to your opponent: You can
target up to 2 monsters in their Graveyard; banish those targets. Your opponent cannot banish cards
from either player's Graveyard."

- An optional trigger when the battle it takes part in deals battle damage to its controller's
  opponent (after damage calculation, ruling DS-8), targeting 1 or 2 monsters in the opponent's
  Graveyard as it is activated; those still there are banished (ruling CH-3). With none there, or
  while its controller may not banish from a Graveyard (an opposing Kycoo), it is not offered
  (ruling GEN-4). A "When ... You can" trigger (ruling CH-12), never left behind: battle damage
  is the last thing that happened.
- While it is face-up, its controller's opponent cannot banish cards from either Graveyard
  (``Script.forbids_banish_from_grave``; costs and effects that banish from a Graveyard ask
  ``may_banish_from_grave``: Black Luster Soldier, Chaos Sorcerer)."""

from __future__ import annotations

from itertools import combinations

from .api import (
    Card,
    Ctx,
    Effect,
    EventKind,
    Link,
    Script,
    State,
    Zone,
    banish,
    by_name,
    inflicted_battle_damage,
    may_banish_from_grave,
    other,
    register,
    target_ok,
)


def _targets(s: State, card: Card, seat: int) -> list[list[int]]:
    if not may_banish_from_grave(s, seat):
        return []
    mons = [cid for cid in s.players[other(seat)].graveyard if s.cards[cid].data.is_monster]
    return [[m] for m in mons] + [list(pair) for pair in combinations(mons, 2)]


def _banish(ctx: Ctx, link: Link) -> None:
    for t in link.targets:
        if target_ok(ctx.s, t, Zone.GRAVEYARD):
            banish(ctx, ctx.s.cards[t])


def _forbids(s: State, src: Card, seat: int) -> bool:
    return seat != src.controller


register(
    by_name("Kycoo the Ghost Destroyer").code,
    Script(
        effects=(
            Effect(
                kind="trigger",
                speed=1,
                trigger_on=EventKind.BATTLE_DAMAGE,
                trigger_match=inflicted_battle_damage,
                targets=_targets,
                resolve=_banish,
                misses_timing=True,
                label="banish up to 2 monsters",
            ),
        ),
        forbids_banish_from_grave=_forbids,
    ),
)
