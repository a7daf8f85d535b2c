"""Ring of Destruction (Normal Trap), its Goat-era text: "Target 1 face-up monster; Destroy it, and
if you do, inflict damage to both players equal to its ATK." (``text_goat``; ruling GEN-1).

Goat plays the old text (engine/data/goat/README.md): any face-up monster, either player's, in
either player's turn, whatever its ATK and the players' LP, as many Rings per turn as one has. The
target is chosen at activation (ruling SEL-1) and checked again as it resolves (ruling CH-3: one
no longer face-up on the field is not destroyed, and nobody takes damage). The damage is the ATK
the monster had on the field just before it was destroyed, dealt to both players at the same time
(``ops.damage_both``): both at 0 LP is a draw (ruling GEN-2). A monster that is not destroyed (it
cannot be destroyed by card effects) deals no damage."""

from __future__ import annotations

from .api import (
    Card,
    Ctx,
    Effect,
    Link,
    Script,
    State,
    Zone,
    atk,
    by_name,
    damage_both,
    destroy,
    each,
    face_up_monsters,
    register,
    target_ok,
)


def _targets(s: State, card: Card, seat: int) -> list[list[int]]:
    return each(face_up_monsters(s, seat) + face_up_monsters(s, 1 - seat))


def _resolve(ctx: Ctx, link: Link) -> None:
    for t in link.targets:
        if not target_ok(ctx.s, t, face_up=True):
            continue
        c = ctx.s.cards[t]
        amount = max(0, atk(ctx.s, c))
        destroy(ctx, c, reason="effect", by=link.card)
        if c.zone != Zone.MONSTERS:
            damage_both(ctx, amount, first=link.controller)


register(
    by_name("Ring of Destruction").code,
    Script(effects=(Effect(kind="trap", speed=2, targets=_targets, resolve=_resolve),)),
)
