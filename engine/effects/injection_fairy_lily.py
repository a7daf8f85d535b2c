"""Injection Fairy Lily, in the wording of the duel's format (ruling FMT-5).

Today (the card's ``text``): "If this card attacks or is attacked, during damage calculation (in
either player's turn): You can pay 2000 Life Points once per battle; this card gains 3000 ATK
during that damage calculation only." (ruling DS-5; seed 003, Examples 1-3).

Goat (its ``text_goat``): "This card's effect can only be activated during the Damage Step of
either player's turn when this card battles. Pay 2000 Life Points to increase the ATK of this
monster by 3000 points during the Damage Step only." So in a Goat duel it may be activated at any
timing of the Damage Step at which an ATK change may be (its start, before and during damage
calculation: ``UP_TO_CALC``, ruling DS-2), and the 3000 ATK last until the end of the Damage Step.
Still once per battle: the rulings of that wording (edisonformat.com's pre-2008 rulings page)
allow one activation per Damage Step, not 4000 Life Points for 6000 ATK."""

from __future__ import annotations

from typing import Any

from .api import (
    UP_TO_CALC,
    Card,
    Ctx,
    Effect,
    Link,
    Script,
    State,
    Timing,
    by_name,
    gain,
    goat_wording,
    in_battle,
    pay_lp,
    register,
    still_face_up,
)


def _condition(s: State, card: Card, seat: int) -> bool:
    if not (in_battle(s, card) and s.players[seat].lp > 2000):
        return False
    # today during damage calculation only; the Goat wording: the whole Damage Step up to it
    return goat_wording(s) or s.damage_step == Timing.DURING_CALC


def _cost(ctx: Ctx, card: Card, seat: int, data: dict[str, Any]) -> None:
    pay_lp(ctx, seat, 2000)


def _resolve(ctx: Ctx, link: Link) -> None:
    c = ctx.s.cards[link.card]
    if still_face_up(c):
        gain(ctx, c, 3000, "end_of_damage_step" if goat_wording(ctx.s) else "damage_calculation", c.id)


register(
    by_name("Injection Fairy Lily").code,
    Script(
        effects=(
            Effect(
                kind="quick",
                speed=2,
                damage_step=UP_TO_CALC,
                condition=_condition,
                cost=_cost,
                resolve=_resolve,
                once_per="battle",
                only_in_damage_step=True,
            ),
        )
    ),
)
