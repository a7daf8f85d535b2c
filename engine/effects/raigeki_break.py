"""Raigeki Break: "Discard 1 card, then target 1 card on the field; destroy it."
(ruling CH-3; seed 002, Example 4: it destroys the attack target before Enemy Controller resolves)."""

from __future__ import annotations

from .api import Card, Ctx, Effect, Link, Script, State, by_name, destroy, discard_cost, discard_options, register


def _targets(s: State, card: Card, seat: int) -> list[list[int]]:
    return [[c.id] for c in s.field_cards() if c.id != card.id]


def _resolve(ctx: Ctx, link: Link) -> None:
    for t in link.targets:
        c = ctx.s.cards[t]
        if c.on_field:
            destroy(ctx, c, by=link.card)


register(
    by_name("Raigeki Break").code,
    Script(
        effects=(
            Effect(
                kind="trap",
                speed=2,
                targets=_targets,
                cost_options=discard_options,
                cost=discard_cost,
                resolve=_resolve,
            ),
        )
    ),
)
