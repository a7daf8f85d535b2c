"""Scapegoat (Quick-Play Spell), its Goat text: "If you activate this card, you cannot Normal
Summon, Flip Summon or Special Summon during this turn. Special Summon 4 "Sheep Tokens"
(Beast-Type/EARTH/Level 1/ATK 0/DEF 0) in Defense Position to your side of the field. The
"Sheep Tokens" cannot be used as a Tribute for a Tribute Summon (or Set)."

- The lock applies from the activation on, for the rest of the turn (ruling SUM-30): no Normal
  Summon, Set, Flip Summon or Special Summon by its controller (a lingering ``NO_SUMMONS`` flag,
  ``stats.summons_locked``), even if the card is negated. It cannot be activated by a player who
  has Summoned or Set a monster this turn (``stats.summoned_this_turn``).
- It needs 4 free Monster Zones and 4 Tokens that may be Summoned (ruling GEN-4); as it
  resolves, all 4 are Special Summoned face-up in Defense Position, or none (ruling TOK-1: a
  Token ceases to exist when it leaves the field).
- The Tokens cannot be Tributed for a Tribute Summon or Set (``Script.no_tribute_summon``);
  they may be Tributed for a cost (Metamorphosis)."""

from __future__ import annotations

from typing import Any, Final

from .api import (
    Card,
    Ctx,
    Effect,
    LingeringFlag,
    Link,
    Script,
    State,
    by_name,
    can_summon_token,
    free_zones,
    lingering_flag,
    make_token,
    register,
    summoned_this_turn,
)

SHEEP: Final = by_name("Sheep Token").code
TOKENS: Final = 4


def _room(s: State, card: Card, seat: int) -> bool:
    return free_zones(s, seat) >= TOKENS and can_summon_token(s, SHEEP, seat, card.id)


def _condition(s: State, card: Card, seat: int) -> bool:
    return not summoned_this_turn(s, seat) and _room(s, card, seat)


def _lock(ctx: Ctx, card: Card, seat: int, data: dict[str, Any]) -> None:
    lingering_flag(ctx, LingeringFlag.NO_SUMMONS, seat, "turn", card.id)


def _resolve(ctx: Ctx, link: Link) -> None:
    s = ctx.s
    seat = link.controller
    if not _room(s, s.cards[link.card], seat):
        return
    for _ in range(TOKENS):
        make_token(ctx, SHEEP, seat, seat, "defense")


register(
    by_name("Scapegoat").code,
    Script(effects=(Effect(kind="spell", speed=2, condition=_condition, cost=_lock, resolve=_resolve),)),
)
register(SHEEP, Script(no_tribute_summon=True))
