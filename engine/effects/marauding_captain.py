"""Marauding Captain: "Your opponent cannot target face-up Warrior-Type monsters for attacks,
except this one. When this card is Normal Summoned: You can Special Summon 1 Level 4 or lower
monster from your hand."

Two face-up copies protect each other: the opponent then has no valid attack target, may still
enter the Battle Phase (seed 000, "Entering the Battle Phase"), and cannot attack directly
either, since the player controls monsters.

The monster to Special Summon does not target: it is selected in the hand as the effect
resolves (ruling SEL-1) and Summoned in the face-up position its controller picks (ruling
SEL-3). It is offered only while the hand holds such a monster that may be Special Summoned (not
Fenrir, which only its own procedure Summons: ruling SUM-1) and a Monster Zone is free (GEN-4)."""

from __future__ import annotations

from .api import (
    Card,
    Ctx,
    Effect,
    EventKind,
    GameEvent,
    Link,
    Script,
    State,
    Zone,
    by_name,
    free_monster_zone,
    register,
    summon_one_of,
    summonable,
)


def _can_be_attacked(s: State, src: Card, target: Card, attacker: Card) -> bool:
    if attacker.controller == src.controller or target.controller != src.controller:
        return True
    return not (target.face_up and target.data.type == "Warrior" and target.id != src.id)


def _candidates(s: State, seat: int) -> list[Card]:
    hand = [s.cards[c] for c in s.players[seat].hand]
    return [c for c in hand if c.data.is_monster and not c.data.extra_deck and 1 <= c.data.level <= 4]


def _match(s: State, card: Card, ev: GameEvent) -> bool:
    return ev.get("card") == card.id and ev.get("how") in ("normal", "tribute") and card.zone == Zone.MONSTERS


def _condition(s: State, card: Card, seat: int) -> bool:
    return free_monster_zone(s, seat) and bool(summonable(s, seat, [c.id for c in _candidates(s, seat)]))


def _resolve(ctx: Ctx, link: Link) -> None:
    summon_one_of(ctx, link, [c.id for c in _candidates(ctx.s, link.controller)])


register(
    by_name("Marauding Captain").code,
    Script(
        effects=(
            Effect(
                kind="trigger",
                speed=1,
                trigger_on=EventKind.SUMMONED,
                trigger_match=_match,
                condition=_condition,
                resolve=_resolve,
            ),
        ),
        can_be_attacked=_can_be_attacked,
    ),
)
