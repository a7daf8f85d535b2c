"""Earthbound Immortal Uru: "There can only be 1 face-up "Earthbound Immortal" monster on the
field. If there is no face-up Field Spell Card on the field, destroy this card. Your opponent
cannot select this card as an attack target. This card can attack your opponent directly. Once
per turn, you can Tribute 1 monster, except this card, to select and take control of 1 face-up
monster your opponent controls, until the End Phase."

- It cannot be chosen as an attack target: when it is the opponent's only monster they have no
  valid attack target, may still enter the Battle Phase (seed 000, "Entering the Battle Phase"),
  and cannot attack directly (they control a monster).
- It may attack directly even while the opponent controls monsters.
- Without a face-up Field Spell on the field it destroys itself (continuous).
- The control effect is an Ignition Effect: the Tribute is its cost, the monster is chosen
  (targeted) at activation, control returns in the End Phase (``ops.take_control``).
- "There can only be 1 face-up Earthbound Immortal monster on the field" (ruling SUM-2), for
  any "Earthbound Immortal" of either player (the card pool holds Uru only, so two copies show
  it): while one is face-up on the field, another cannot be Normal, Flip or Special Summoned
  (``Script.unique_face_up``, read by ``stats.can_summon``; it may be Set); one flipped
  face-up all the same (by an effect or by an attack) is destroyed, the one that was face-up
  first stays (rule bookkeeping: the ``face_up_at`` flag records when each became face-up)."""

from __future__ import annotations

from typing import Final

from .api import (
    Card,
    Ctx,
    Effect,
    EventKind,
    Flag,
    GameEvent,
    Script,
    State,
    by_name,
    each,
    face_up_monsters,
    other,
    register,
    still_face_up,
    take_control_until_end_phase,
    tributable,
    tribute_cost,
)

UNIQUE: Final = "Earthbound Immortal"


def _face_up_at(c: Card) -> int:
    return int(c.flags.get("face_up_at", 0))


def _self_destroy(s: State, card: Card) -> bool:
    if not any(s.cards[f].face_up for seat in (0, 1) if (f := s.players[seat].field_zone) is not None):
        return True
    return any(
        c.id != card.id and c.face_up and UNIQUE in c.data.name and _face_up_at(c) < _face_up_at(card)
        for sd in (0, 1)
        for c in s.monsters(sd)
    )


def _watch(ctx: Ctx, card: Card, ev: GameEvent) -> None:
    if ev.get("card") == card.id and ev.get("kind") in (EventKind.FLIPPED, EventKind.SUMMONED) and still_face_up(card):
        ctx.emit(Flag(card=card.id, name="face_up_at", value=ctx.s.seq))


def _can_be_attacked(s: State, src: Card, target: Card, attacker: Card) -> bool:
    return not (target.id == src.id and attacker.controller != src.controller)


def _direct(s: State, src: Card, attacker: Card) -> bool:
    return attacker.id == src.id


def _targets(s: State, card: Card, seat: int) -> list[list[int]]:
    return each(face_up_monsters(s, other(seat)))


def _tribute_options(s: State, card: Card, seat: int) -> list[list[int]]:
    return [[c.id] for c in s.monsters(seat) if c.id != card.id and tributable(s, c)]


register(
    by_name("Earthbound Immortal Uru").code,
    Script(
        effects=(
            Effect(
                kind="ignition",
                speed=1,
                once_per="turn",
                targets=_targets,
                cost_options=_tribute_options,
                cost=tribute_cost,
                resolve=take_control_until_end_phase,
                label="take control",
            ),
        ),
        self_destroy=_self_destroy,
        can_be_attacked=_can_be_attacked,
        direct_attack=_direct,
        watch=_watch,
        watch_on=frozenset({EventKind.FLIPPED, EventKind.SUMMONED}),
        unique_face_up=UNIQUE,
    ),
)
