"""Soul Release (Normal Spell): "Target up to 5 cards in any Graveyard(s); banish them." (card text;
ruling GEN-1).

The targets, 1 to 5 cards of either player's Graveyard, are chosen as it is activated (ruling
SEL-1): the first with the activation, then up to 4 more one at a time, or none
(``Effect.more_targets``; every combination of up to 5 would be too many actions to offer). As it
resolves, each target still in its Graveyard is banished (ruling CH-3)."""

from __future__ import annotations

from .api import Card, Ctx, Effect, Link, Script, State, Zone, banish, by_name, register, target_ok


def _targets(s: State, card: Card, seat: int) -> list[list[int]]:
    return [[cid] for sd in (seat, 1 - seat) for cid in s.players[sd].graveyard]


def _resolve(ctx: Ctx, link: Link) -> None:
    for t in link.targets:
        if target_ok(ctx.s, t, zone=Zone.GRAVEYARD):
            banish(ctx, ctx.s.cards[t])


register(
    by_name("Soul Release").code,
    Script(effects=(Effect(kind="spell", speed=1, targets=_targets, more_targets=4, resolve=_resolve),)),
)
