"""Mystic Swordsman LV2, its Goat wording: "If this card attacks a face-down Defense Position
monster, destroy the monster immediately with this card's effect without flipping it face-up or
applying damage calculation. During the End Phase of a turn that this card destroyed a monster as
a result of battle, send this card to the Graveyard to Special Summon 1 "Mystic Swordsman LV4"
from your hand or Deck."

- Its attack on a face-down Defense Position monster: a mandatory trigger at the start of the
  Damage Step (ruling DS-1; the target is flipped only before damage calculation, ruling DS-3,
  so it is still face-down) destroys that monster with an effect, face-down: not flipped, no FLIP
  effect, no damage calculation (ruling DS-4), not destroyed by battle.
- Its level-up: an optional trigger as the End Phase begins, in a turn in which it destroyed a
  monster by battle (recorded on the card by ``watch``), while it is face-up; its cost sends it to
  the Graveyard and a "Mystic Swordsman LV4" from the hand or Deck is Special Summoned (ruling
  SEL-3). "Mystic Swordsman LV4" is not among the engine's cards, so it is never offered (ruling
  CARD-23)."""

from __future__ import annotations

from typing import Any, Final

from .api import (
    Card,
    Ctx,
    Effect,
    EventKind,
    Flag,
    GameEvent,
    Link,
    Phase,
    Position,
    Script,
    State,
    Zone,
    by_name,
    destroy,
    hand_candidates,
    register,
    send_to_grave,
    still_face_up,
    summon_one_of,
    summonable,
)

LV4: Final = "Mystic Swordsman LV4"
DESTROYED_BY_BATTLE: Final = "destroyed_by_battle"  # this card's flag: the turn it destroyed a monster by battle


def _attacks_face_down(s: State, card: Card, ev: GameEvent) -> bool:
    target = ev.get("target")
    if ev.get("attacker") != card.id or target is None:
        return False
    t = s.cards[target]
    return t.zone == Zone.MONSTERS and not t.face_up and t.position == Position.DEFENSE


def _destroy(ctx: Ctx, link: Link) -> None:
    a = ctx.s.attack
    if a is None or a.target is None:
        return
    t = ctx.s.cards[a.target]
    if t.zone == Zone.MONSTERS and t.controller != link.controller:
        destroy(ctx, t, reason="effect", by=link.card)


def _watch(ctx: Ctx, card: Card, ev: GameEvent) -> None:
    if ev.get("kind") == EventKind.DESTROYED and ev.get("reason") == "battle" and ev.get("by") == card.id:
        if card.zone == Zone.MONSTERS:
            ctx.emit(Flag(card=card.id, name=DESTROYED_BY_BATTLE, value=ctx.s.turn))


def _lv4s(s: State, seat: int) -> list[int]:
    def is_lv4(c: Card) -> bool:
        return c.data.name == LV4

    deck = [cid for cid in s.players[seat].deck if is_lv4(s.cards[cid])]
    return summonable(s, seat, hand_candidates(s, seat, is_lv4) + deck)


def _end_phase(s: State, card: Card, ev: GameEvent) -> bool:
    return ev.get("phase") == Phase.END and still_face_up(card) and card.flags.get(DESTROYED_BY_BATTLE) == s.turn


def _has_lv4(s: State, card: Card, seat: int) -> bool:
    return bool(_lv4s(s, seat))


def _send_self(ctx: Ctx, card: Card, seat: int, data: dict[str, Any]) -> None:
    send_to_grave(ctx, card, reason="cost")


def _level_up(ctx: Ctx, link: Link) -> None:
    summon_one_of(ctx, link, _lv4s(ctx.s, link.controller))


register(
    by_name("Mystic Swordsman LV2").code,
    Script(
        effects=(
            Effect(
                kind="trigger",
                speed=1,
                trigger_on=EventKind.DAMAGE_STEP_START,
                trigger_match=_attacks_face_down,
                optional=False,
                resolve=_destroy,
                label="destroy the face-down monster",
            ),
            Effect(
                kind="trigger",
                speed=1,
                trigger_on=EventKind.PHASE_START,
                trigger_match=_end_phase,
                condition=_has_lv4,
                cost=_send_self,
                resolve=_level_up,
                label="level up to Mystic Swordsman LV4",
            ),
        ),
        watch=_watch,
        watch_on=frozenset({EventKind.DESTROYED}),
    ),
)
