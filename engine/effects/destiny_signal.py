"""Destiny Signal (Normal Trap): "When a monster you control is destroyed by battle and sent to
the Graveyard: Special Summon 1 Level 4 or lower "Destiny HERO" monster from your hand or
Deck."

It answers the sending at the end of the Damage Step, in the chain that starts then (ruling
DS-9, seed 003 TCG "Substep 7"; the engine's ``left_field`` window). It can be activated only if
such a monster that may be Special Summoned is in the hand or Deck (ruling GEN-4); which one is
selected as it resolves (ruling SEL-1): a card in the hand, or one in the Deck (the copy nearest
the top). It is Special Summoned in the
face-up position its controller picks (ruling SEL-3)."""

from __future__ import annotations

from .api import (
    END_OF_DS,
    Card,
    Ctx,
    Effect,
    EventKind,
    Link,
    Script,
    State,
    by_name,
    deck_candidates,
    destroyed_by_battle_to_grave,
    hand_candidates,
    register,
    summon_one_of,
    summonable,
)


def _is_small_destiny_hero(c: Card) -> bool:
    d = c.data
    return d.is_monster and d.name.startswith("Destiny HERO") and 1 <= d.level <= 4 and not d.extra_deck


def _candidates(s: State, seat: int) -> list[int]:
    return hand_candidates(s, seat, _is_small_destiny_hero) + deck_candidates(s, seat, _is_small_destiny_hero)


def _condition(s: State, card: Card, seat: int) -> bool:
    mine = any(int(e["controller"]) == seat for e in destroyed_by_battle_to_grave(s))
    return mine and bool(summonable(s, seat, _candidates(s, seat)))


def _resolve(ctx: Ctx, link: Link) -> None:
    summon_one_of(ctx, link, _candidates(ctx.s, link.controller))


register(
    by_name("Destiny Signal").code,
    Script(
        effects=(
            Effect(
                kind="trap",
                speed=2,
                event=EventKind.LEFT_FIELD,
                damage_step=END_OF_DS,
                condition=_condition,
                resolve=_resolve,
            ),
        )
    ),
)
