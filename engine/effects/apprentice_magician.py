"""Apprentice Magician: "When this card is Summoned, place 1 Spell Counter on a face-up card
that you can place a Spell Counter on. When this card is destroyed by battle, you can Special
Summon 1 Level 2 or lower Spellcaster-Type monster from your Deck in face-down Defense
Position."

1. A mandatory trigger when it is Summoned face-up (Normal, Tribute, Flip or Special). It does
   not target: the face-up card that gets the counter (one that can hold one more: a script
   with ``Script.spell_counters``, Breaker the Magical Warrior) is selected as it resolves
   (ruling SEL-1); with none when it is Summoned, it does not activate.
2. An optional trigger at the end of the Damage Step, from wherever it went: it needs no "sent
   to the Graveyard", so it activates even when Macro Cosmos banishes it instead (ruling DS-9,
   seed 003 TCG "Substep 7"). The monster is selected in the Deck as it resolves (SEL-1)."""

from __future__ import annotations

from typing import Any

from .api import (
    Answer,
    Card,
    Counter,
    Ctx,
    Effect,
    EventKind,
    GameEvent,
    Link,
    Script,
    State,
    Zone,
    ask_cards,
    by_name,
    can_summon_from_deck,
    continuation,
    deck_candidates,
    free_monster_zone,
    register,
    script_of,
    set_counters,
    special_summon,
    still_face_up,
    summonable,
)


def can_take_spell_counter(c: Card) -> bool:
    sc = script_of(c)
    limit = sc.spell_counters if sc is not None else 0
    return c.on_field and c.face_up and c.counters.get(Counter.SPELL, 0) < limit


def _holders(s: State) -> list[int]:
    return [c.id for c in s.face_up_field() if can_take_spell_counter(c)]


def _summoned(s: State, card: Card, ev: GameEvent) -> bool:
    return ev.get("card") == card.id and still_face_up(card) and bool(_holders(s))


def _place(ctx: Ctx, link: Link) -> None:
    ask_cards(ctx, link.controller, _holders(ctx.s), "apprentice_magician.counter", source=link.card)


@continuation("apprentice_magician.counter")
def _counter(ctx: Ctx, seat: int, answer: Answer, d: dict[str, Any]) -> None:
    for cid in answer if isinstance(answer, list) else []:
        c = ctx.s.cards[cid]
        if can_take_spell_counter(c):
            set_counters(ctx, c, Counter.SPELL, c.counters.get(Counter.SPELL, 0) + 1)


def _destroyed(s: State, card: Card, ev: GameEvent) -> bool:
    return ev.get("card") == card.id and ev.get("reason") == "battle"


def _small_spellcaster(c: Card) -> bool:
    return c.data.is_monster and c.data.type == "Spellcaster" and 1 <= c.data.level <= 2 and not c.data.extra_deck


def _summon(ctx: Ctx, link: Link) -> None:
    s = ctx.s
    seat = link.controller
    cands = summonable(s, seat, deck_candidates(s, seat, _small_spellcaster)) if free_monster_zone(s, seat) else []
    ask_cards(ctx, seat, cands, "apprentice_magician.summon", source=link.card)


@continuation("apprentice_magician.summon")
def _summon_it(ctx: Ctx, seat: int, answer: Answer, d: dict[str, Any]) -> None:
    for cid in answer if isinstance(answer, list) else []:
        c = ctx.s.cards[cid]
        if c.zone == Zone.DECK and c.owner == seat:
            special_summon(ctx, c, seat, "defense", face_up=False)


register(
    by_name("Apprentice Magician").code,
    Script(
        effects=(
            Effect(
                kind="trigger",
                speed=1,
                optional=False,
                trigger_on=EventKind.SUMMONED,
                trigger_match=_summoned,
                resolve=_place,
                label="Spell Counter",
            ),
            Effect(
                kind="trigger",
                speed=1,
                trigger_on=EventKind.DESTROYED,
                trigger_match=_destroyed,
                condition=can_summon_from_deck(_small_spellcaster),
                resolve=_summon,
                label="Special Summon",
            ),
        )
    ),
)
