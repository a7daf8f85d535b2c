"""Mask of Darkness: "FLIP: Target 1 Trap Card in your Graveyard; add that target to your hand."

A mandatory FLIP effect (flipped by a Flip Summon, by an attack after damage calculation, ruling
DS-3, or by an effect) that targets as it is activated: with several Traps its controller picks
one, with none it does not activate (ruling GEN-4); a target gone from the Graveyard when it
resolves is not added (ruling CH-3)."""

from __future__ import annotations

from .api import (
    Card,
    Effect,
    EventKind,
    GameEvent,
    Script,
    State,
    by_name,
    grave_targets,
    register,
    return_target_to_hand,
)


def _flipped(s: State, card: Card, ev: GameEvent) -> bool:
    return ev.get("card") == card.id


def _targets(s: State, card: Card, seat: int) -> list[list[int]]:
    return grave_targets(s, seat, lambda c: c.data.is_trap)


register(
    by_name("Mask of Darkness").code,
    Script(
        effects=(
            Effect(
                kind="flip",
                speed=1,
                trigger_on=EventKind.FLIPPED,
                trigger_match=_flipped,
                optional=False,
                targets=_targets,
                resolve=return_target_to_hand,
                label="add a Trap from the Graveyard",
            ),
        )
    ),
)
