"""Magician's Circle: "When a Spellcaster-Type monster declares an attack: Each player
Special Summons 1 Spellcaster-Type monster with 2000 or less ATK from their Deck in Attack
Position." It must answer the declaration at once (seed 002, Examples 3 and 4).

Which monster each player summons is not asked: the engine takes the highest-ATK eligible
card, nearest the top of the deck on ties (a documented simplification)."""

from __future__ import annotations

from ..cards import by_name
from ..ctx import Ctx
from ..ops import special_summon
from ..state import Card, Link, State
from .base import Effect, Script, register


def _condition(s: State, card: Card, seat: int) -> bool:
    a = s.attack
    return a is not None and s.cards[a.attacker].data.type == "Spellcaster"


def _resolve(ctx: Ctx, link: Link) -> None:
    s = ctx.s
    for seat in (link.controller, 1 - link.controller):
        cands = [s.cards[c] for c in s.players[seat].deck]
        cands = [c for c in cands if c.data.is_monster and c.data.type == "Spellcaster" and 0 <= c.data.atk <= 2000]
        if cands and None in s.players[seat].monsters:
            best = max(cands, key=lambda c: (c.data.atk, -s.players[seat].deck.index(c.id)))
            special_summon(ctx, best, seat, "attack")


register(
    by_name("Magician's Circle").code,
    Script(effects=(Effect(kind="trap", speed=2, event="attack_declared", condition=_condition, resolve=_resolve),)),
)
