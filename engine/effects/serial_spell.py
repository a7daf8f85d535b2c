"""Serial Spell (Quick-Play Spell): "Activate only when you activate one of your Normal Spell Cards.
Discard all the cards in your hand to the Graveyard. The effect of this card becomes the same as
the Normal Spell Card." (card text; ruling GEN-1).

It answers, as the next chain link, the activation of a Normal Spell Card its controller just
activated. Discarding the whole hand (at least 1 card) is its cost; the Spell it copies is noted in
its link (``copies``). Its targets are those the copied Spell's effect could choose now, and its
activation needs the copied effect's condition to hold for it (ruling GEN-4); the copied Spell's
cost is not paid again. As it resolves it applies the copied Spell's effect as its own (resolving
first, before the Spell it copies, ruling CH-3), whatever happened to that Spell meanwhile (ruling CARD-3)."""

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
    link_is_card_activation,
    register,
    script_of,
    send_to_grave,
)


def _copied(s: State, seat: int) -> tuple[Card, Effect] | None:
    """The Normal Spell Card its controller activated as the top chain link, and that effect."""
    if not s.chain:
        return None
    top = s.chain[-1]
    spell = s.cards[top.card]
    if top.controller != seat or spell.data.prop != "normal" or not link_is_card_activation(s, top, "spell"):
        return None
    sc = script_of(spell)
    if sc is None or not 1 <= top.effect <= len(sc.effects):
        return None
    return spell, sc.effects[top.effect - 1]


def _condition(s: State, card: Card, seat: int) -> bool:
    got = _copied(s, seat)
    if got is None or not any(cid != card.id for cid in s.players[seat].hand):
        return False
    spell, eff = got
    return eff.condition(s, spell, seat)


def _targets(s: State, card: Card, seat: int) -> list[list[int]]:
    got = _copied(s, seat)
    if got is None:
        return []
    spell, eff = got
    return eff.targets(s, spell, seat)


def _cost(ctx: Ctx, card: Card, seat: int, data: dict[str, Any]) -> None:
    if ctx.s.chain and _copied(ctx.s, seat) is not None:
        top = ctx.s.chain[-1]
        data["copies"] = [top.card, top.effect]
    for cid in list(ctx.s.players[seat].hand):
        send_to_grave(ctx, ctx.s.cards[cid], reason="cost")


def _resolve(ctx: Ctx, link: Link) -> None:
    copied = link.data.get("copies")
    if not copied:
        return
    sc = script_of(ctx.s.cards[int(copied[0])])
    if sc is not None and 1 <= int(copied[1]) <= len(sc.effects):
        sc.effects[int(copied[1]) - 1].resolve(ctx, link)


register(
    by_name("Serial Spell").code,
    Script(
        effects=(Effect(kind="spell", speed=2, condition=_condition, targets=_targets, cost=_cost, resolve=_resolve),)
    ),
)
