"""Metamorphosis (Normal Spell): "Tribute 1 monster. Special Summon 1 Fusion Monster from your
Extra Deck with the same Level as the Tributed monster." (card text).

- The Tribute is its cost, paid at activation (face-up or face-down, a Token too: a Sheep
  Token's Level 1 gives Thousand-Eyes Restrict); only a monster whose Level a Fusion Monster of
  the Fusion Deck shares, one that may be Special Summoned from there, can be Tributed (ruling
  GEN-4). Its Level, as it was on the field, is kept with the activation.
- As it resolves, the Fusion Monster is selected among those of that Level then (ruling SEL-1)
  and Special Summoned face-up in the position its controller picks (SEL-3). It is not a Fusion
  Summon, but a Special Summon from the Fusion Deck that counts as the monster's proper Summon
  (ruling SUM-31): any Fusion Monster but one that "must be Fusion Summoned and cannot be Special
  Summoned by other ways", and it may be revived later (SUM-1)."""

from __future__ import annotations

from typing import Any

from .api import (
    Card,
    Ctx,
    Effect,
    Link,
    Script,
    State,
    by_name,
    fusion_deck_candidates,
    register,
    summon_from_fusion_deck,
    tributable,
    tribute_cost,
)


def _of_level(s: State, seat: int, level: int) -> list[int]:
    return fusion_deck_candidates(s, seat, lambda f: f.data.level == level)


def _tributes(s: State, card: Card, seat: int) -> list[list[int]]:
    return [[m.id] for m in s.monsters(seat) if tributable(s, m) and _of_level(s, seat, m.data.level)]


def _cost(ctx: Ctx, card: Card, seat: int, data: dict[str, Any]) -> None:
    tributed = [ctx.s.cards[cid] for cid in data.get("cost", [])]
    data["level"] = tributed[0].data.level if tributed else 0
    tribute_cost(ctx, card, seat, data)


def _resolve(ctx: Ctx, link: Link) -> None:
    summon_from_fusion_deck(ctx, link, _of_level(ctx.s, link.controller, int(link.data.get("level", 0))))


register(
    by_name("Metamorphosis").code,
    Script(effects=(Effect(kind="spell", speed=1, cost_options=_tributes, cost=_cost, resolve=_resolve),)),
)
