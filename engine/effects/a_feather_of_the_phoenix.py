"""A Feather of the Phoenix (Normal Spell): "Discard 1 card. Select 1 card from your Graveyard and
return it to the top of your Deck." (card text; ruling GEN-1).

Discarding is the cost; the card of the Graveyard is a target (an older text's "Select 1 ...",
ruling SEL-1), chosen after the cost, so it may be the card just discarded (ruling SEL-4, ``Effect.fits``). As it
resolves, a target no longer in the Graveyard is not returned (ruling CH-3); the returned card is
put on top of its owner's Deck face-down (everyone saw which card it was)."""

from __future__ import annotations

from .api import (
    Card,
    Ctx,
    Effect,
    Link,
    Script,
    State,
    Zone,
    by_name,
    discard_cost,
    discard_options,
    move,
    register,
    target_ok,
)


def _targets(s: State, card: Card, seat: int) -> list[list[int]]:
    here = list(s.players[seat].graveyard)
    return [[cid] for cid in here + [h for h in s.players[seat].hand if h != card.id]]


def _fits(s: State, card: Card, seat: int, targets: list[int], cost: list[int]) -> bool:
    return all(s.cards[t].zone == Zone.GRAVEYARD or t in cost for t in targets)


def _resolve(ctx: Ctx, link: Link) -> None:
    for t in link.targets:
        if target_ok(ctx.s, t, zone=Zone.GRAVEYARD):
            move(ctx, ctx.s.cards[t], "deck", top=True, reason="effect")


register(
    by_name("A Feather of the Phoenix").code,
    Script(
        effects=(
            Effect(
                kind="spell",
                speed=1,
                targets=_targets,
                cost_options=discard_options,
                cost=discard_cost,
                fits=_fits,
                resolve=_resolve,
            ),
        )
    ),
)
