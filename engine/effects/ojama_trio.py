"""Ojama Trio (Normal Trap): "Special Summon 3 "Ojama Tokens" (Beast-Type/LIGHT/Level 2/ATK 0/DEF
1000) in Defense Position on your opponent's side of the field. The tokens cannot be Tributed for
a Tribute Summon. When an "Ojama Token" is destroyed, the controller of that token takes 300
points of damage." (card text).

- Its controller Special Summons the 3 Tokens, face-up in Defense Position, to the opponent's
  side (ruling TOK-1); it needs 3 free Monster Zones there, and Tokens its controller may
  Summon (ruling GEN-4). All 3 or none.
- The Tokens cannot be Tributed for a Tribute Summon or Set (``Script.no_tribute_summon``).
- When an Ojama Token is destroyed (by battle or by an effect), its controller then takes 300
  damage at once, without a chain (rule bookkeeping on the Token, ``Script.watch``)."""

from __future__ import annotations

from typing import Final

from .api import (
    Card,
    Ctx,
    Effect,
    EventKind,
    GameEvent,
    Link,
    Script,
    State,
    by_name,
    can_summon_token,
    damage,
    free_zones,
    make_token,
    other,
    register,
)

OJAMA: Final = by_name("Ojama Token").code
TOKENS: Final = 3
DAMAGE: Final = 300


def _room(s: State, card: Card, seat: int) -> bool:
    side = other(seat)
    return free_zones(s, side) >= TOKENS and can_summon_token(s, OJAMA, side, card.id, seat)


def _resolve(ctx: Ctx, link: Link) -> None:
    s = ctx.s
    if not _room(s, s.cards[link.card], link.controller):
        return
    for _ in range(TOKENS):
        make_token(ctx, OJAMA, other(link.controller), link.controller, "defense")


def _token_destroyed(ctx: Ctx, card: Card, ev: GameEvent) -> None:
    if ev.get("kind") == EventKind.DESTROYED and ev.get("card") == card.id:
        damage(ctx, int(ev.get("controller", card.owner)), DAMAGE)


register(
    by_name("Ojama Trio").code,
    Script(effects=(Effect(kind="trap", speed=2, condition=_room, resolve=_resolve),)),
)
register(
    OJAMA,
    Script(no_tribute_summon=True, watch=_token_destroyed, watch_on=frozenset({EventKind.DESTROYED})),
)
