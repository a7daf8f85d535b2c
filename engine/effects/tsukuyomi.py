"""Tsukuyomi: "This card cannot be Special Summoned. This card returns to the owner's hand during
the End Phase of the turn it is Normal Summoned or flipped face-up. When this card is Normal
Summoned or flipped face-up, flip 1 face-up monster on the field into face-down Defense Position."

- A Spirit monster: it cannot be Special Summoned (``Script.cannot_special_summon``; ruling SUM-1
  names such monsters); in the End Phase of the turn it was Normal Summoned or flipped face-up
  (a Flip Summon too), if it is still face-up, a mandatory trigger returns it to its owner's hand
  (``families.spirit_return``).
- Its Normal Summon (not a Set) or its flip face-up (a Flip Summon, an attack after damage
  calculation, an effect) triggers a mandatory effect that targets 1 face-up monster on the
  field, itself included (the card's later wording, "Target 1 face-up monster on the field",
  says it targets; ruling SEL-1: an old text that picks one card means a target), and changes it
  to face-down Defense Position if it is still face-up (ruling CH-3)."""

from __future__ import annotations

from collections.abc import Callable

from .api import (
    SPIRIT_WATCH_ON,
    Card,
    Ctx,
    Effect,
    EventKind,
    GameEvent,
    Link,
    Script,
    State,
    by_name,
    each,
    face_up_monsters,
    flip_face_down,
    register,
    spirit_return,
    spirit_watch,
    still_face_up,
)


def _normal_summoned(s: State, card: Card, ev: GameEvent) -> bool:
    return ev.get("card") == card.id and ev.get("how") in ("normal", "tribute") and still_face_up(card)


def _flipped(s: State, card: Card, ev: GameEvent) -> bool:
    return ev.get("card") == card.id and still_face_up(card)


def _targets(s: State, card: Card, seat: int) -> list[list[int]]:
    return each(face_up_monsters(s))


def _resolve(ctx: Ctx, link: Link) -> None:
    for t in link.targets:
        flip_face_down(ctx, t)


def _flip_one(trigger_on: EventKind, match: Callable[[State, Card, GameEvent], bool]) -> Effect:
    return Effect(
        kind="trigger",
        speed=1,
        trigger_on=trigger_on,
        trigger_match=match,
        optional=False,
        targets=_targets,
        resolve=_resolve,
        label="flip 1 monster face-down",
    )


register(
    by_name("Tsukuyomi").code,
    Script(
        effects=(
            _flip_one(EventKind.SUMMONED, _normal_summoned),
            _flip_one(EventKind.FLIPPED, _flipped),
            spirit_return(),
        ),
        cannot_special_summon=True,
        watch=spirit_watch,
        watch_on=SPIRIT_WATCH_ON,
    ),
)
