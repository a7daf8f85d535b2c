"""Defense Draw (Normal Trap): "Activate only during damage calculation during your opponent's
turn. The Battle Damage you would receive becomes 0. Draw 1 card."

One of the cards ruling DS-5; seed 003 names as activatable during damage calculation (OCG Damage Step,
"During damage calculation": "Defense Draw, Injection Fairy Lily, and Kuriboh"); never before
it, nor in the Battle Step. It draws 1 card, so it needs a card in its controller's Deck (ruling GEN-4)."""

from __future__ import annotations

from .api import (
    DURING_CALC,
    Card,
    Ctx,
    Effect,
    LingeringFlag,
    Link,
    Script,
    State,
    by_name,
    draw,
    lingering_flag,
    register,
)


def _condition(s: State, card: Card, seat: int) -> bool:
    return s.turn_player != seat and s.attack is not None and bool(s.players[seat].deck)  # timing: DURING_CALC


def _resolve(ctx: Ctx, link: Link) -> None:
    lingering_flag(ctx, LingeringFlag.NO_BATTLE_DAMAGE, link.controller, "end_of_damage_step", link.card)
    draw(ctx, link.controller, 1)


register(
    by_name("Defense Draw").code,
    Script(
        effects=(
            Effect(
                kind="trap",
                speed=2,
                damage_step=DURING_CALC,
                only_in_damage_step=True,
                condition=_condition,
                resolve=_resolve,
            ),
        )
    ),
)
