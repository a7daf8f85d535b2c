"""Divine Wrath: "When a monster effect is activated: Discard 1 card; negate the
activation, and if you do, destroy that monster." During damage calculation it may answer
Injection Fairy Lily; damage calculation then stops (ruling DS-6; seed 003, Example 2)."""

from __future__ import annotations

from .api import (
    ALL_DS,
    Card,
    Effect,
    Script,
    State,
    by_name,
    discard_cost,
    discard_options,
    link_is_monster_effect,
    negate_previous,
    register,
)


def _condition(s: State, card: Card, seat: int) -> bool:
    return bool(s.chain) and link_is_monster_effect(s, s.chain[-1])


register(
    by_name("Divine Wrath").code,
    Script(
        effects=(
            Effect(
                kind="trap",
                speed=3,
                condition=_condition,
                cost_options=discard_options,
                cost=discard_cost,
                resolve=negate_previous,
                negates=True,
                damage_step=ALL_DS,
            ),
        )
    ),
)
