"""Destiny Signal (Normal Trap): "When a monster you control is destroyed by battle and sent to
the Graveyard: Special Summon 1 Level 4 or lower "Destiny HERO" monster from your hand or
Deck."

It answers the sending at the end of the Damage Step, in the chain that starts then (seed 003,
TCG "Substep 7"; the engine's ``left_field`` window). The monster is chosen at activation
(``choose``; not a target): a card in the hand, or the copy nearest the top of the Deck; with
none it cannot be activated. It is summoned in face-up Attack Position."""

from __future__ import annotations

from ..cards import by_name
from ..ctx import Ctx
from ..ops import special_summon
from ..state import Card, Link, State
from .base import Effect, Script, register
from .common import deck_choices
from .time_machine import END_OF_DS, destroyed_by_battle_to_grave


def _is_small_destiny_hero(c: Card) -> bool:
    d = c.data
    return d.is_monster and d.name.startswith("Destiny HERO") and 1 <= d.level <= 4 and not d.extra_deck


def _condition(s: State, card: Card, seat: int) -> bool:
    return any(int(e["controller"]) == seat for e in destroyed_by_battle_to_grave(s))


def _choices(s: State, card: Card, seat: int) -> list[list[int]]:
    hand = [[cid] for cid in s.players[seat].hand if _is_small_destiny_hero(s.cards[cid])]
    return hand + deck_choices(s, seat, _is_small_destiny_hero)


def _resolve(ctx: Ctx, link: Link) -> None:
    for cid in link.data.get("choose", []):
        c = ctx.s.cards[int(cid)]
        if c.zone in ("hand", "deck") and c.owner == link.controller:
            special_summon(ctx, c, link.controller, "attack")


register(
    by_name("Destiny Signal").code,
    Script(
        effects=(Effect(kind="trap", speed=2, event="left_field", damage_step=END_OF_DS, condition=_condition, choices=_choices, resolve=_resolve),)
    ),
)
