"""Book of Moon: "Target 1 face-up monster on the field; change that target to face-down
Defense Position." Not in the Damage Step; after the attack-declaration chain it may still
start a new chain in the Battle Step (ruling CH-6; seed 002, Example 2)."""

from __future__ import annotations

from .api import (
    Card,
    Ctx,
    Effect,
    Link,
    Script,
    State,
    by_name,
    each,
    face_up_monsters,
    flip_face_down,
    register,
)


def _targets(s: State, card: Card, seat: int) -> list[list[int]]:
    return each(face_up_monsters(s))


def _resolve(ctx: Ctx, link: Link) -> None:
    for t in link.targets:
        flip_face_down(ctx, t)  # its Equip Cards are destroyed (ruling EQ-2)


register(
    by_name("Book of Moon").code,
    Script(effects=(Effect(kind="spell", speed=2, targets=_targets, resolve=_resolve),)),
)
