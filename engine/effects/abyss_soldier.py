"""Abyss Soldier: "Once per turn: You can discard 1 WATER monster to the Graveyard to target 1 card
on the field; return it to the hand."

An Ignition effect (Spell Speed 1, ruling CH-1), once per turn for each copy. Its cost discards a
WATER monster from the hand; it targets any card on the field (either side, face-up or face-down,
itself included) and returns it to its owner's hand if it is still on the field (ruling CH-3); a
Fusion Monster goes back to the Extra Deck (ruling LF-1)."""

from __future__ import annotations

from .api import (
    Card,
    Ctx,
    Effect,
    Link,
    Script,
    State,
    by_name,
    discard_cost,
    each,
    hand_candidates,
    register,
    to_hand,
)


def _water_monsters(s: State, card: Card, seat: int) -> list[list[int]]:
    water = hand_candidates(s, seat, lambda c: c.data.is_monster and c.data.attribute == "WATER")
    return [[cid] for cid in water]


def _targets(s: State, card: Card, seat: int) -> list[list[int]]:
    return each(s.field_cards())


def _bounce(ctx: Ctx, link: Link) -> None:
    for t in link.targets:
        c = ctx.s.cards[t]
        if c.on_field:
            to_hand(ctx, c)


register(
    by_name("Abyss Soldier").code,
    Script(
        effects=(
            Effect(
                kind="ignition",
                speed=1,
                once_per="turn",
                cost_options=_water_monsters,
                cost=discard_cost,
                targets=_targets,
                resolve=_bounce,
                label="return a card to the hand",
            ),
        )
    ),
)
