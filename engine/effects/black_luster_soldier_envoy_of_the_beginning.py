"""Black Luster Soldier - Envoy of the Beginning, its Goat text: "This card cannot be Normal Summoned
or Set. This card can only be Special Summoned by removing from play 1 LIGHT and 1 DARK monster
in your Graveyard. Once during each of your turns, you can select and activate 1 of the
following effects: ● Remove from play 1 monster on the field. If you activate this effect, this
card cannot attack during this turn. ● If this card destroyed your opponent's monster as a
result of battle, it can attack once again in a row."

- Its Summon is a procedure from the hand (``summon`` with ``procedure: true`` and ``cost``: a
  LIGHT and a DARK monster of its controller's Graveyard, removed from play), a Main Phase action
  that starts no chain; it cannot be Normal Summoned or Set. Once properly Summoned, another
  effect may revive it (ruling SUM-1).
- "Once during each of your turns ... 1 of the following effects": the two effects share one
  limit (``used: [1]`` in a scenario marks both), and only in its controller's turn.
- 1: an Ignition effect (Spell Speed 1). "Select" means a target (ruling SEL-1): 1 monster on
  the field, face-up or face-down, either side; it is removed from play as the effect resolves
  if it is still there (CH-3). It cannot attack this turn from the activation on.
- 2: an optional trigger effect, when, attacking in its controller's turn, it destroys an
  opponent's monster by battle: it activates at the end of the Damage Step (ruling DS-9; the
  destroyed monster need not reach the Graveyard) if it is still face-up on the field (DS-14).
  It may then declare a second attack in this Battle Phase, right after this one: the second
  attack is lost once another monster attacks (ruling BS-30).
- Under the Goat format's priority rule its controller may banish right after its Summon,
  before the opponent responds (docs/formats.md)."""

from __future__ import annotations

from typing import Any

from .api import (
    Card,
    Ctx,
    Effect,
    EventKind,
    GameEvent,
    Link,
    Script,
    State,
    allow_second_attack,
    banish,
    banish_procedure_cost,
    by_name,
    destroyed_by_this,
    each,
    forbid_attack_this_turn,
    light_and_dark_in_grave,
    mark_used,
    other,
    register,
    still_face_up,
    target_ok,
    used_this_turn,
)


def _my_turn(s: State, card: Card, seat: int) -> bool:
    return s.turn_player == seat


def _targets(s: State, card: Card, seat: int) -> list[list[int]]:
    return each([m for sd in (seat, other(seat)) for m in s.monsters(sd)])


def _no_attack(ctx: Ctx, card: Card, seat: int, data: dict[str, Any]) -> None:
    forbid_attack_this_turn(ctx, card)


def _banish(ctx: Ctx, link: Link) -> None:
    for t in link.targets:
        if target_ok(ctx.s, t):
            banish(ctx, ctx.s.cards[t])


def _destroyed_attacking(s: State, card: Card, ev: GameEvent) -> bool:
    a = s.attack
    return (
        a is not None
        and a.attacker == card.id
        and s.turn_player == card.controller
        and destroyed_by_this(s, card, ev, to_grave=False)
    )


def _second_condition(s: State, card: Card, seat: int) -> bool:
    return not used_this_turn(s, card, 1)


def _share_limit(ctx: Ctx, card: Card, seat: int, data: dict[str, Any]) -> None:
    mark_used(ctx, card, 1)


def _second_attack(ctx: Ctx, link: Link) -> None:
    me = ctx.s.cards[link.card]
    if still_face_up(me):
        allow_second_attack(ctx, me)


register(
    by_name("Black Luster Soldier - Envoy of the Beginning").code,
    Script(
        effects=(
            Effect(
                kind="ignition",
                speed=1,
                once_per="turn",
                condition=_my_turn,
                targets=_targets,
                cost=_no_attack,
                resolve=_banish,
                label="remove from play 1 monster on the field",
            ),
            Effect(
                kind="trigger",
                speed=1,
                trigger_on=EventKind.DESTROYED,
                trigger_match=_destroyed_attacking,
                condition=_second_condition,
                cost=_share_limit,
                resolve=_second_attack,
                label="attack once again in a row",
            ),
        ),
        procedure=light_and_dark_in_grave,
        procedure_cost=banish_procedure_cost,
    ),
)
