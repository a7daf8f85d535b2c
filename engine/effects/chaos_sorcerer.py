"""Chaos Sorcerer: "Cannot be Normal Summoned/Set. Must first be Special Summoned (from your hand)
by banishing 1 LIGHT and 1 DARK monster from your Graveyard. Once per turn: You can target 1
face-up monster on the field; banish that target. This card cannot attack the turn you activate
this effect." (card text).

- Its Summon is a procedure from the hand (``summon`` with ``procedure: true`` and ``cost``: a
  LIGHT and a DARK monster of its controller's Graveyard, banished), a Main Phase action that
  starts no chain, like Fenrir's; it cannot be Normal Summoned or Set (``stats.
  cannot_normal_summon``). Once properly Summoned, another effect may revive it (ruling SUM-1).
- The Ignition effect (Spell Speed 1, once per turn) targets a face-up monster on either side
  (itself too) and banishes it as it resolves if it is still face-up there (ruling CH-3). "This
  card cannot attack the turn you activate this effect" applies from the activation, even if it
  is negated; the effect may be activated after it attacked (in Main Phase 2)."""

from __future__ import annotations

from typing import Any

from .api import (
    Card,
    Ctx,
    Effect,
    Link,
    Script,
    State,
    banish,
    banish_procedure_cost,
    by_name,
    each,
    face_up_monsters,
    forbid_attack_this_turn,
    light_and_dark_in_grave,
    register,
    target_ok,
)


def _targets(s: State, card: Card, seat: int) -> list[list[int]]:
    return each(face_up_monsters(s))


def _no_attack(ctx: Ctx, card: Card, seat: int, data: dict[str, Any]) -> None:
    forbid_attack_this_turn(ctx, card)


def _resolve(ctx: Ctx, link: Link) -> None:
    for t in link.targets:
        if target_ok(ctx.s, t, face_up=True):
            banish(ctx, ctx.s.cards[t])


register(
    by_name("Chaos Sorcerer").code,
    Script(
        effects=(
            Effect(
                kind="ignition",
                speed=1,
                once_per="turn",
                targets=_targets,
                cost=_no_attack,
                resolve=_resolve,
                label="banish a face-up monster",
            ),
        ),
        procedure=light_and_dark_in_grave,
        procedure_cost=banish_procedure_cost,
    ),
)
