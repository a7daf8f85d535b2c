"""Marauding Captain: "Your opponent cannot target face-up Warrior-Type monsters for attacks,
except this one. When this card is Normal Summoned: You can Special Summon 1 Level 4 or lower
monster from your hand."

Two face-up copies protect each other: the opponent then has no valid attack target, may still
enter the Battle Phase (seed 000, "Entering the Battle Phase"), and cannot attack directly
either, since the player controls monsters.

Which monster the trigger Special Summons is not asked while it resolves: the engine takes the
Level 4 or lower monster with the highest ATK in the hand (the first in hand order on ties) and
Summons it in Attack Position (a documented simplification)."""

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


def _targets(s: State, card: Card, seat: int) -> list[list[int]]:
    if not _candidates(s, seat) or None not in s.players[seat].monsters:
        return []
    return [[]]


def _resolve(ctx: Ctx, link: Link) -> None:
    s = ctx.s
    cands = _candidates(s, link.controller)
    if not cands:
        return
    hand = s.players[link.controller].hand
    best = max(cands, key=lambda c: (c.data.atk, -hand.index(c.id)))
    special_summon(ctx, best, link.controller, "attack")


register(
    by_name("Marauding Captain").code,
    Script(
        effects=(Effect(kind="trigger", speed=1, trigger_on="summoned", trigger_match=_match, targets=_targets, resolve=_resolve),),
        can_be_attacked=_can_be_attacked,
    ),
)
