"""Ryu Senshi (Fusion Monster): ""Warrior Dai Grepher" + "Spirit Ryu" / A Fusion Summon of this
monster can only be conducted with the above Fusion Material Monsters. As long as this card
remains face-up on the field, negate the effect of a Normal Trap Card by paying 1000 Life Points.
Negate the effect of a Spell Card that targets this card and destroy it." (card text).

- Its Fusion Summon condition names its materials only: Metamorphosis (Level 6) and Cyber-Stein
  may Special Summon it (ruling SUM-31).
- "Negate the effect of a Normal Trap Card by paying 1000 Life Points": a Quick effect (Spell
  Speed 2) of the face-up monster, chained right to the activation of a Normal Trap Card (either
  player's, ruling CH-4), its cost 1000 Life Points (which its controller must have): the Trap's
  effect is negated, not its activation (CH-8).
- A Spell Card's effect that targets it is negated as it starts to resolve, and the Spell Card
  destroyed (``Script.on_targeted``), while Ryu Senshi is face-up on the field: no chain."""

from __future__ import annotations

from typing import Final

from .api import (
    Card,
    Effect,
    Script,
    State,
    answers_card_activation,
    by_name,
    can_pay_lp,
    lp_cost,
    negate_previous_effect,
    negate_targeting,
    register,
)

COST: Final = 1000


def _condition(s: State, card: Card, seat: int) -> bool:
    return answers_card_activation(s, "trap", "normal") and can_pay_lp(s, seat, COST)


register(
    by_name("Ryu Senshi").code,
    Script(
        effects=(
            Effect(
                kind="quick",
                speed=2,
                condition=_condition,
                cost=lp_cost(COST),
                resolve=negate_previous_effect,
                label="negate a Normal Trap Card's effect",
            ),
        ),
        on_targeted=negate_targeting("spell"),
    ),
)
