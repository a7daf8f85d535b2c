"""Brain Control (Normal Spell), its Goat wording: "Pay 800 LP, then target 1 face-up monster your
opponent controls; take control of that target until the End Phase."

- Its cost is 800 Life Points (which its controller must have); it targets a face-up monster the
  opponent controls, with a Monster Zone of its controller free to receive it (ruling GEN-4). As
  it resolves, if the target is still face-up there, its controller takes control of it until
  the End Phase (``common.take_control_until_end_phase``; control returns as the End Phase
  starts). The monster may attack and be Tributed."""

from __future__ import annotations

from typing import Final

from .api import (
    Card,
    Effect,
    Script,
    State,
    by_name,
    can_pay_lp,
    each,
    face_up_monsters,
    free_monster_zone,
    lp_cost,
    other,
    register,
    take_control_until_end_phase,
)

COST: Final = 800


def _condition(s: State, card: Card, seat: int) -> bool:
    return can_pay_lp(s, seat, COST) and free_monster_zone(s, seat)


def _targets(s: State, card: Card, seat: int) -> list[list[int]]:
    return each(face_up_monsters(s, other(seat)))


register(
    by_name("Brain Control").code,
    Script(
        effects=(
            Effect(
                kind="spell",
                speed=1,
                condition=_condition,
                targets=_targets,
                cost=lp_cost(COST),
                resolve=take_control_until_end_phase,
            ),
        )
    ),
)
