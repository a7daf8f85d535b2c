"""Gladiator Beast Bestiari: "If this card is Special Summoned by the effect of a "Gladiator
Beast" monster: Target 1 Spell/Trap Card on the field; destroy that target. At the end of the
Battle Phase, if this card attacked or was attacked: You can shuffle it into the Deck; Special
Summon 1 "Gladiator Beast" monster from your Deck, except "Gladiator Beast Bestiari"."

The "Gladiator Beast" helpers it shares with Laquari are in ``common``: ``summoned_by_gladiator``
(the Special Summon happens while a "Gladiator Beast" monster's effect resolves) and ``tag_out``
(the end-of-Battle-Phase tag-out: ruling ES-1; SEL-1, SEL-3, CH-5, ES-2).
"""

from __future__ import annotations

from .api import (
    Card,
    Ctx,
    Effect,
    EventKind,
    Link,
    Script,
    State,
    by_name,
    destroy,
    register,
    summoned_by_gladiator,
    tag_out,
)


def _st_targets(s: State, card: Card, seat: int) -> list[list[int]]:
    return [[c.id] for sd in (seat, 1 - seat) for c in s.spells_traps(sd)] + [
        [f] for sd in (seat, 1 - seat) if (f := s.players[sd].field_zone) is not None
    ]


def _destroy_st(ctx: Ctx, link: Link) -> None:
    for t in link.targets:
        c = ctx.s.cards[t]
        if c.on_field:
            destroy(ctx, c, reason="effect", by=link.card)


register(
    by_name("Gladiator Beast Bestiari").code,
    Script(
        effects=(
            Effect(
                kind="trigger",
                speed=1,
                trigger_on=EventKind.SUMMONED,
                trigger_match=summoned_by_gladiator,
                optional=False,
                targets=_st_targets,
                resolve=_destroy_st,
                label="destroy 1 Spell/Trap",
            ),
            tag_out(),
        )
    ),
)
