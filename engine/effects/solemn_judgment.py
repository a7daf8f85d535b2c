"""Solemn Judgment (Counter Trap): "When a monster would be Summoned, OR a Spell/Trap Card is
activated: Pay half your Life Points; negate the Summon or activation, and if you do, destroy that
card." (card text; ruling GEN-1).

Two ways to activate it, one effect:

* in the window in which a monster would be Summoned (a Normal, Tribute or Flip Summon, or a
  Special Summon by the monster's own procedure; not a Summon by a card effect), as the first
  link of its chain (ruling SUM-3: ``Effect(negates_summon=True)``); it negates the Summon and
  destroys the monster (``ops.negate_summon``);
* in answer to the activation of a Spell or Trap Card (either player's), as the next link
  (``common.link_is_card_activation``; not a monster's effect, nor the effect of a face-up
  Continuous card, ruling CH-8); it negates the activation and destroys the card
  (``common.negate_previous``). A Counter Trap, it may answer a chain in the Damage Step too
  (ruling DS-2).

The cost is half its controller's Life Points, rounded down (``ops.pay_half_lp``)."""

from __future__ import annotations

from typing import Any

from .api import (
    ALL_DS,
    Card,
    Ctx,
    Effect,
    EventKind,
    Link,
    Script,
    State,
    by_name,
    link_is_card_activation,
    negate_previous,
    negate_summon,
    pay_half_lp,
    register,
)


def _summoning(s: State) -> Card | None:
    """The monster that would be Summoned now, if the chain is still empty."""
    ev = s.event
    if s.chain or ev is None or ev.get("kind") != EventKind.SUMMONING:
        return None
    return s.cards.get(int(ev.get("card", -1)))


def _condition(s: State, card: Card, seat: int) -> bool:
    if _summoning(s) is not None:
        return True
    if not s.chain:
        return False
    top = s.chain[-1]
    return link_is_card_activation(s, top, "spell") or link_is_card_activation(s, top, "trap")


def _cost(ctx: Ctx, card: Card, seat: int, data: dict[str, Any]) -> None:
    pay_half_lp(ctx, seat)


def _resolve(ctx: Ctx, link: Link) -> None:
    if int(link.data.get("answers", 0)) == 0:
        ev = ctx.s.event
        if ev is not None and ev.get("kind") == EventKind.SUMMONING:
            negate_summon(ctx, ctx.s.cards[int(ev["card"])], by=link.card)
        return
    negate_previous(ctx, link)


register(
    by_name("Solemn Judgment").code,
    Script(
        effects=(
            Effect(
                kind="trap",
                speed=3,
                condition=_condition,
                cost=_cost,
                resolve=_resolve,
                negates=True,
                negates_summon=True,
                damage_step=ALL_DS,
            ),
        )
    ),
)
