"""Marauding Captain: "Your opponent cannot target face-up Warrior-Type monsters for attacks,
except this one. When this card is Normal Summoned: You can Special Summon 1 Level 4 or lower
monster from your hand."

Two face-up copies protect each other: the opponent then has no valid attack target, may still
enter the Battle Phase (seed 000, "Entering the Battle Phase"), and cannot attack directly
either, since the player controls monsters.

The monster to Special Summon is chosen as the trigger is activated (``choose``; it is not a
target) and Summoned in Attack Position (the framework asks no position)."""

from __future__ import annotations

from typing import Any

from ..cards import by_name
from ..ctx import Ctx
from ..ops import special_summon
from ..state import Card, Link, State
from .base import Effect, Script, register


def _can_be_attacked(s: State, src: Card, target: Card, attacker: Card) -> bool:
    if attacker.controller == src.controller or target.controller != src.controller:
        return True
    return not (target.face_up and target.data.type == "Warrior" and target.id != src.id)


def _candidates(s: State, seat: int) -> list[Card]:
    hand = [s.cards[c] for c in s.players[seat].hand]
    return [c for c in hand if c.data.is_monster and not c.data.extra_deck and 1 <= c.data.level <= 4]


def _match(s: State, card: Card, ev: dict[str, Any]) -> bool:
    return ev.get("card") == card.id and ev.get("how") in ("normal", "tribute") and card.zone == "monsters"


def _choices(s: State, card: Card, seat: int) -> list[list[int]]:
    if None not in s.players[seat].monsters:
        return []
    return [[c.id] for c in _candidates(s, seat)]


def _resolve(ctx: Ctx, link: Link) -> None:
    s = ctx.s
    for cid in link.data.get("choose", []):
        c = s.cards[cid]
        if c.zone == "hand" and c.owner == link.controller:
            special_summon(ctx, c, link.controller, "attack")


register(
    by_name("Marauding Captain").code,
    Script(
        effects=(Effect(kind="trigger", speed=1, trigger_on="summoned", trigger_match=_match, choices=_choices, resolve=_resolve),),
        can_be_attacked=_can_be_attacked,
    ),
)
