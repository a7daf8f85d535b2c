"""Monster Reborn (Normal Spell): "Target 1 monster in either player's Graveyard; Special Summon
it." (card text). The target is chosen at activation; the face-up battle position is picked
as it resolves (rulings SEL-1, SEL-3: ``{do: choose, option: attack}`` or ``defense``). Only a
monster it may Special Summon can be targeted (``common.may_special_summon``): not one that
"cannot be Special Summoned", nor one that must be properly Summoned first (a Fusion Monster,
Fenrir) and was not (ruling SUM-1), nor a second face-up Earthbound Immortal (ruling SUM-2)."""

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
    free_monster_zone,
    may_special_summon,
    register,
    summon_choosing_position,
)


def _targets(s: State, card: Card, seat: int) -> list[list[int]]:
    if not free_monster_zone(s, seat):
        return []
    out: list[list[int]] = []
    for sd in (seat, 1 - seat):
        for cid in s.players[sd].graveyard:
            c = s.cards[cid]
            if c.data.is_monster and may_special_summon(s, c, seat):
                out.append([cid])
    return out


def _resolve(ctx: Ctx, link: Link) -> None:
    s = ctx.s
    for t in link.targets:
        c = s.cards[t]
        if (
            c.zone == Zone.GRAVEYARD
            and may_special_summon(s, c, link.controller)
            and free_monster_zone(s, link.controller)
        ):
            summon_choosing_position(ctx, c.id, link.controller, source=link.card)


register(
    by_name("Monster Reborn").code,
    Script(
        effects=(Effect(kind="spell", speed=1, targets=_targets, resolve=_resolve),),
    ),
)
