"""Tribe-Infecting Virus: "Discard 1 card from your hand and declare 1 Type of monster. Destroy all
face-up monsters of the declared Type on the field."

An Ignition effect (Spell Speed 1, ruling CH-1). Its cost discards 1 card from the hand; the Type
is declared as it is activated (``choose``: the text declares it with the cost, before the
effect), among the Types of the face-up monsters on the field then (ruling CARD-21: a Type no
face-up monster has would destroy nothing, ruling GEN-4). As it resolves it destroys every
face-up monster of that Type on the field, its own included, at the same time."""

from __future__ import annotations

from typing import Any

from .api import (
    Card,
    Ctx,
    Effect,
    Link,
    Script,
    State,
    by_name,
    destroy_all,
    discard_cost,
    discard_options,
    face_up_monsters,
    register,
)


def _types(s: State, card: Card, seat: int) -> list[list[Any]]:
    return [[t] for t in sorted({c.data.type for c in face_up_monsters(s)})]


def _resolve(ctx: Ctx, link: Link) -> None:
    declared = str(link.data.get("choose", [""])[0])
    hit = [c for c in face_up_monsters(ctx.s) if c.data.type == declared]
    destroy_all(ctx, hit, reason="effect", by=link.card)


register(
    by_name("Tribe-Infecting Virus").code,
    Script(
        effects=(
            Effect(
                kind="ignition",
                speed=1,
                cost_options=discard_options,
                cost=discard_cost,
                choices=_types,
                resolve=_resolve,
                label="declare a Type",
            ),
        )
    ),
)
