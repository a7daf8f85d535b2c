"""Phoenix Wing Wind Blast (Normal Trap): "Discard 1 card to target 1 card your opponent controls;
return that target to the top of the Deck." (card text; ruling GEN-1).

Discarding is the cost; the target is any card the opponent controls on the field, face-up or
face-down, checked again as it resolves (ruling CH-3). It goes on top of its owner's Deck (a Fusion
Monster to the Fusion Deck, ruling LF-1); a face-down card stays unknown to the player who did not
control it."""

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
    discard_options,
    each,
    move,
    opponents_cards,
    register,
)


def _targets(s: State, card: Card, seat: int) -> list[list[int]]:
    return each(opponents_cards(s, seat))


def _resolve(ctx: Ctx, link: Link) -> None:
    for t in link.targets:
        c = ctx.s.cards[t]
        if c.on_field and c.controller != link.controller:
            move(ctx, c, "deck", top=True, reason="return")


register(
    by_name("Phoenix Wing Wind Blast").code,
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
