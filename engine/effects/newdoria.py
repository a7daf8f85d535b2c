"""Newdoria: "When this card is destroyed by battle and sent to the Graveyard: Target 1 monster on
the field; destroy that target."

A mandatory trigger at the end of the Damage Step (ruling DS-9), from the Graveyard (not if it was
banished instead), targeting any monster on the field, either side, face-up or face-down (the
monster that destroyed it too); the target is destroyed if it is still there (ruling CH-3). With no
monster on the field it does not activate (ruling GEN-4)."""

from __future__ import annotations

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
    destroy,
    each,
    register,
    target_ok,
)


def _match(s: State, card: Card, ev: GameEvent) -> bool:
    return (
        ev.get("card") == card.id
        and ev.get("reason") == "battle"
        and ev.get("to") == Zone.GRAVEYARD
        and card.zone == Zone.GRAVEYARD
    )


def _targets(s: State, card: Card, seat: int) -> list[list[int]]:
    return each([c for sd in (0, 1) for c in s.monsters(sd)])


def _destroy(ctx: Ctx, link: Link) -> None:
    for t in link.targets:
        if target_ok(ctx.s, t):
            destroy(ctx, ctx.s.cards[t], reason="effect", by=link.card)


register(
    by_name("Newdoria").code,
    Script(
        effects=(
            Effect(
                kind="trigger",
                speed=1,
                trigger_on=EventKind.DESTROYED,
                trigger_match=_match,
                optional=False,
                targets=_targets,
                resolve=_destroy,
                label="destroy a monster",
            ),
        )
    ),
)
