"""Dark Blade the Dragon Knight (Fusion Monster): ""Dark Blade" + "Pitch-Dark Dragon" / Each time
this card inflicts Battle Damage to your opponent, you can select up to 3 Monster Cards from your
opponent's Graveyard and remove them from play." (card text).

- An optional trigger effect when battle damage is inflicted to its controller's opponent by a
  battle it is in (ruling DS-8: right after damage calculation, Flashbang first), while a monster
  is in the opponent's Graveyard. "Select" means targets (ruling SEL-1): 1 to 3 monsters of the
  opponent's Graveyard; those still there as it resolves are removed from play (CH-3).
- Metamorphosis (Level 6) and Cyber-Stein may Special Summon it (ruling SUM-31)."""

from __future__ import annotations

from itertools import combinations
from typing import Final

from .api import (
    Card,
    Ctx,
    Effect,
    EventKind,
    GameEvent,
    Link,
    Script,
    State,
    banish,
    by_name,
    inflicted_battle_damage,
    other,
    register,
    target_ok,
)

MOST: Final = 3


def _damage_by_me(s: State, card: Card, ev: GameEvent) -> bool:
    return inflicted_battle_damage(s, card, ev)


def _monsters(s: State, seat: int) -> list[int]:
    cards = s.cards
    return [cid for cid in s.players[other(seat)].graveyard if cards[cid].data.is_monster]


def _targets(s: State, card: Card, seat: int) -> list[list[int]]:
    mons = _monsters(s, seat)
    return [list(c) for n in range(1, min(MOST, len(mons)) + 1) for c in combinations(mons, n)]


def _resolve(ctx: Ctx, link: Link) -> None:
    for t in link.targets:
        if target_ok(ctx.s, t, zone="graveyard"):
            banish(ctx, ctx.s.cards[t])


register(
    by_name("Dark Blade the Dragon Knight").code,
    Script(
        effects=(
            Effect(
                kind="trigger",
                speed=1,
                trigger_on=EventKind.BATTLE_DAMAGE,
                trigger_match=_damage_by_me,
                targets=_targets,
                resolve=_resolve,
                label="remove from play up to 3 monsters of the opponent's Graveyard",
            ),
        )
    ),
)
