"""Apprentice Magician: "When this card is Summoned, place 1 Spell Counter on a face-up card
that you can place a Spell Counter on. When this card is destroyed by battle, you can Special
Summon 1 Level 2 or lower Spellcaster-Type monster from your Deck in face-down Defense
Position."

1. A mandatory trigger when it is Summoned face-up (Normal, Tribute, Flip or Special): it
   targets a face-up card that can hold one more Spell Counter (a script with
   ``extra["spell_counter_max"]``: Breaker the Magical Warrior); none, no activation.
2. An optional trigger at the end of the Damage Step, from wherever it went: it needs no "sent
   to the Graveyard", so it activates even when Macro Cosmos banishes it instead (seed 003,
   TCG "Substep 7"). The monster is chosen at activation (``choose``)."""

from __future__ import annotations

from typing import Any

from ..cards import by_name
from ..counters import Counter
from ..ctx import Ctx
from ..ops import set_counters, special_summon
from ..state import Card, Link, State
from .base import Effect, Script, register, script_of
from .common import deck_choices, free_monster_zone

SPELL_COUNTER = Counter.SPELL


def can_take_spell_counter(c: Card) -> bool:
    sc = script_of(c)
    limit = int(sc.extra.get("spell_counter_max", 0)) if sc is not None else 0
    return c.on_field and c.face_up and c.counters.get(SPELL_COUNTER, 0) < limit


def _summoned(s: State, card: Card, ev: dict[str, Any]) -> bool:
    return ev.get("card") == card.id and card.zone == "monsters" and card.face_up


def _counter_targets(s: State, card: Card, seat: int) -> list[list[int]]:
    return [[c.id] for c in s.face_up_field() if can_take_spell_counter(c)]


def _place(ctx: Ctx, link: Link) -> None:
    for t in link.targets:
        c = ctx.s.cards[t]
        if can_take_spell_counter(c):
            set_counters(ctx, c, SPELL_COUNTER, c.counters.get(SPELL_COUNTER, 0) + 1)


def _destroyed(s: State, card: Card, ev: dict[str, Any]) -> bool:
    return ev.get("card") == card.id and ev.get("reason") == "battle"


def _small_spellcaster(c: Card) -> bool:
    return c.data.is_monster and c.data.type == "Spellcaster" and 1 <= c.data.level <= 2 and not c.data.extra_deck


def _deck_choices(s: State, card: Card, seat: int) -> list[list[int]]:
    if not free_monster_zone(s, seat):
        return []
    return deck_choices(s, seat, _small_spellcaster)


def _summon(ctx: Ctx, link: Link) -> None:
    for cid in link.data.get("choose", []):
        c = ctx.s.cards[int(cid)]
        if c.zone == "deck" and c.owner == link.controller:
            special_summon(ctx, c, link.controller, "defense", face_up=False)


register(
    by_name("Apprentice Magician").code,
    Script(
        effects=(
            Effect(kind="trigger", speed=1, optional=False, trigger_on="summoned", trigger_match=_summoned, targets=_counter_targets, resolve=_place, label="Spell Counter"),
            Effect(kind="trigger", speed=1, trigger_on="destroyed", trigger_match=_destroyed, choices=_deck_choices, resolve=_summon, label="Special Summon"),
        )
    ),
)
