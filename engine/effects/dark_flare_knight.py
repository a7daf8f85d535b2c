"""Dark Flare Knight (Fusion Monster): ""Dark Magician" + "Flame Swordsman" / Any damage to this
card's controller caused as a result of battle involving this monster becomes 0. When this card
is destroyed and sent to the Graveyard as a result of battle, Special Summon 1 "Mirage Knight"
from your hand or Deck." (card text).

- While it is face-up on the field, its controller takes no battle damage from a battle it is in
  (``Script.shields_controller``, read at damage calculation: ruling DS-7).
- When it is destroyed by battle and sent to the Graveyard (not banished instead, ruling DS-9), a
  mandatory trigger Special Summons a "Mirage Knight" from its controller's hand or Deck, in the
  face-up position they pick (SEL-3). "Mirage Knight" is in no list of the pool, so with none in
  the hand or Deck the trigger does not activate (ruling GEN-4); it is written by name all the same.
- Metamorphosis (Level 6) and Cyber-Stein may Special Summon it (ruling SUM-31)."""

from __future__ import annotations

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
    Zone,
    by_name,
    deck_candidates,
    free_monster_zone,
    hand_candidates,
    register,
    summon_one_of,
    summonable,
)

MIRAGE: Final = "Mirage Knight"


def _is_mirage(c: Card) -> bool:
    return c.data.name == MIRAGE


def _mirages(s: State, seat: int) -> list[int]:
    return hand_candidates(s, seat, _is_mirage) + deck_candidates(s, seat, _is_mirage)


def _destroyed_by_battle(s: State, card: Card, ev: GameEvent) -> bool:
    return ev.get("card") == card.id and ev.get("reason") == "battle" and ev.get("to") == Zone.GRAVEYARD


def _condition(s: State, card: Card, seat: int) -> bool:
    return free_monster_zone(s, seat) and bool(summonable(s, seat, _mirages(s, seat)))


def _resolve(ctx: Ctx, link: Link) -> None:
    summon_one_of(ctx, link, _mirages(ctx.s, link.controller))


register(
    by_name("Dark Flare Knight").code,
    Script(
        effects=(
            Effect(
                kind="trigger",
                speed=1,
                optional=False,
                trigger_on=EventKind.DESTROYED,
                trigger_match=_destroyed_by_battle,
                condition=_condition,
                resolve=_resolve,
                label='Special Summon 1 "Mirage Knight"',
            ),
        ),
        shields_controller=True,
    ),
)
