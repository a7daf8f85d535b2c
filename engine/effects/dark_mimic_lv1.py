"""Dark Mimic LV1, its Goat wording: "FLIP: Draw 1 card from your Deck. Also, during your Standby
Phase, send this face-up card to the Graveyard to Special Summon 1 "Dark Mimic LV3" from your hand
or Deck."

- A mandatory FLIP effect: its controller draws 1 (with an empty Deck it does not activate,
  ruling GEN-4).
- Its level-up: an optional trigger as its controller's Standby Phase begins, while it is face-up
  on the field; its cost sends it to the Graveyard, and a "Dark Mimic LV3" from the hand or Deck
  is Special Summoned in the position its controller picks (ruling SEL-3). It needs a "Dark Mimic
  LV3" there (ruling GEN-4). "Dark Mimic LV3" is not among the engine's cards (the Goat lists
  play none), so in the engine's pool this effect is never offered (ruling CARD-23)."""

from __future__ import annotations

from typing import Any, Final

from .api import (
    Card,
    Ctx,
    Effect,
    EventKind,
    GameEvent,
    Link,
    Phase,
    Script,
    State,
    by_name,
    draw,
    hand_candidates,
    register,
    send_to_grave,
    still_face_up,
    summon_one_of,
    summonable,
)

LV3: Final = "Dark Mimic LV3"


def _flipped(s: State, card: Card, ev: GameEvent) -> bool:
    return ev.get("card") == card.id


def _can_draw(s: State, card: Card, seat: int) -> bool:
    return bool(s.players[seat].deck)


def _draw(ctx: Ctx, link: Link) -> None:
    draw(ctx, link.controller, 1)


def _lv3s(s: State, seat: int) -> list[int]:
    def is_lv3(c: Card) -> bool:
        return c.data.name == LV3

    deck = [cid for cid in s.players[seat].deck if is_lv3(s.cards[cid])]
    return summonable(s, seat, hand_candidates(s, seat, is_lv3) + deck)


def _standby(s: State, card: Card, ev: GameEvent) -> bool:
    return ev.get("phase") == Phase.STANDBY and ev.get("seat") == card.controller and still_face_up(card)


def _has_lv3(s: State, card: Card, seat: int) -> bool:
    return bool(_lv3s(s, seat))  # its own zone frees as it is sent: a zone is always there


def _send_self(ctx: Ctx, card: Card, seat: int, data: dict[str, Any]) -> None:
    send_to_grave(ctx, card, reason="cost")


def _level_up(ctx: Ctx, link: Link) -> None:
    summon_one_of(ctx, link, _lv3s(ctx.s, link.controller))


register(
    by_name("Dark Mimic LV1").code,
    Script(
        effects=(
            Effect(
                kind="flip",
                speed=1,
                trigger_on=EventKind.FLIPPED,
                trigger_match=_flipped,
                optional=False,
                condition=_can_draw,
                resolve=_draw,
                label="draw 1",
            ),
            Effect(
                kind="trigger",
                speed=1,
                trigger_on=EventKind.PHASE_START,
                trigger_match=_standby,
                condition=_has_lv3,
                cost=_send_self,
                resolve=_level_up,
                label="level up to Dark Mimic LV3",
            ),
        )
    ),
)
