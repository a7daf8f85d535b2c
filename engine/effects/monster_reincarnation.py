"""Monster Reincarnation (Normal Spell): "Discard 1 card, then target 1 monster in your Graveyard;
add it to your hand." (card text; ruling GEN-1).

Discarding is the cost; the target is chosen after it, so a monster just discarded may be the
target (ruling SEL-4, ``Effect.fits``). As it resolves, a target no longer in the Graveyard is not added (ruling
CH-3)."""

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
    register,
    target_ok,
    to_hand,
)


def _targets(s: State, card: Card, seat: int) -> list[list[int]]:
    cands = list(s.players[seat].graveyard) + [h for h in s.players[seat].hand if h != card.id]
    return [[cid] for cid in cands if s.cards[cid].data.is_monster]


def _fits(s: State, card: Card, seat: int, targets: list[int], cost: list[int]) -> bool:
    return all(s.cards[t].zone == Zone.GRAVEYARD or t in cost for t in targets)


def _resolve(ctx: Ctx, link: Link) -> None:
    for t in link.targets:
        if target_ok(ctx.s, t, zone=Zone.GRAVEYARD):
            to_hand(ctx, ctx.s.cards[t])


register(
    by_name("Monster Reincarnation").code,
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
