"""Trap Jammer: "When your opponent activates a Trap Card during the Battle Phase: Negate
the activation, and if you do, destroy it." (ruling CH-4; seed 002, Examples 1 and 2)."""

from __future__ import annotations

from .api import ALL_DS, Card, Effect, Phase, Script, State, by_name, link_is_card_activation, negate_previous, register


def _condition(s: State, card: Card, seat: int) -> bool:
    if s.phase != Phase.BATTLE or not s.chain:
        return False
    top = s.chain[-1]
    return top.controller != seat and link_is_card_activation(s, top, "trap")


register(
    by_name("Trap Jammer").code,
    Script(
        effects=(
            Effect(
                kind="trap", speed=3, condition=_condition, resolve=negate_previous, negates=True, damage_step=ALL_DS
            ),
        )
    ),
)
