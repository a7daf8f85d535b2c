"""Nutrient Z (Normal Trap): "This card can only be activated during your opponent's Damage
Step. During this turn, if you take Battle Damage of 2000 points or more, increase your Life
Points by 4000 points before the damage is subtracted from your Life Points."

Any timing of the opponent's Damage Step, damage calculation included (ruling DS-2; seed 003, OCG Damage
Step, "During damage calculation": "You can activate Nutrient Z"); not in the Battle Step.
The effect leaves the lingering flag ``nutrient_z`` for its controller until the end of the
turn; its rule (``Script.lingering``, ``before_battle_damage``) is applied by damage calculation
just before the battle damage is subtracted (ruling DS-7), even once the card has left the
field."""

from __future__ import annotations

from typing import Final

from .api import ALL_DS, Card, Ctx, Effect, Lingering, Link, Script, State, by_name, gain_lp, lingering_flag, register

FLAG: Final = "nutrient_z"


def _condition(s: State, card: Card, seat: int) -> bool:
    return s.turn_player != seat and s.attack is not None  # the timing: only_in_damage_step, ALL_DS


def _resolve(ctx: Ctx, link: Link) -> None:
    lingering_flag(ctx, FLAG, link.controller, "turn", link.card)


def _before_battle_damage(ctx: Ctx, seat: int, amount: int) -> None:
    """ "If you take Battle Damage of 2000 points or more, increase your Life Points by 4000
    points before the damage is subtracted"."""
    if amount >= 2000:
        gain_lp(ctx, seat, 4000)


register(
    by_name("Nutrient Z").code,
    Script(
        effects=(
            Effect(
                kind="trap",
                speed=2,
                damage_step=ALL_DS,
                only_in_damage_step=True,
                condition=_condition,
                resolve=_resolve,
            ),
        ),
        lingering=(Lingering(FLAG, before_battle_damage=_before_battle_damage),),
    ),
)
