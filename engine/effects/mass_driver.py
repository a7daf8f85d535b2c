"""Mass Driver (Continuous Spell): "Tribute 1 monster on your side of the field to inflict 400
points of damage to your opponent's Life Points." (card text; ruling GEN-1).

Its activation does nothing else; once it is face-up on the field (ruling CH-7), its effect is
an Ignition effect (Spell Speed 1: its controller's Main Phase, an empty chain, ruling CH-1) that
may be used any number of times: Tributing 1 monster its controller controls (face-up or
face-down) is the cost, 400 damage to the opponent the effect. Goat priority does not apply to
it: only a monster's Ignition effect has it (ruling PRI-1)."""

from __future__ import annotations

from .api import Card, Ctx, Effect, Link, Script, State, by_name, damage, other, register, tribute_cost


def _tributes(s: State, card: Card, seat: int) -> list[list[int]]:
    return [[c.id] for c in s.monsters(seat)]


def _burn(ctx: Ctx, link: Link) -> None:
    damage(ctx, other(link.controller), 400)


register(
    by_name("Mass Driver").code,
    Script(
        effects=(
            Effect(kind="spell", speed=1),
            Effect(
                kind="ignition",
                speed=1,
                cost_options=_tributes,
                cost=tribute_cost,
                resolve=_burn,
                label="Tribute 1 monster: 400 damage",
            ),
        )
    ),
)
