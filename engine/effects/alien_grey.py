"""Alien Grey: "FLIP: Place 1 A-Counter on 1 face-up monster on your opponent's side of the field.
(If a monster with an A-Counter battles an "Alien" monster, it loses 300 ATK and DEF for each
A-Counter during damage calculation only.) After this card has been flipped face-up, when it is
destroyed by battle and sent to the Graveyard, draw 1 card."

- The FLIP effect is mandatory and does not target: the face-up monster of the opponent that
  gets the counter is selected as it resolves (ruling SEL-1); with none when it is flipped, it
  does not activate.
- The A-Counter rule applies through ``families.a_counter_stat`` while it battles.
- That it was flipped face-up is recorded when it is (``used`` key naming this stay on the
  field); destroyed by battle and sent to the Graveyard afterwards, a mandatory trigger draws 1."""

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
    Used,
    Zone,
    a_counter_stat,
    ask_cards,
    by_name,
    continuation,
    draw,
    face_up_monsters,
    other,
    register,
    set_counters,
    target_ok,
)


def _flip_match(s: State, card: Card, ev: GameEvent) -> bool:
    return ev.get("card") == card.id and bool(face_up_monsters(s, other(card.controller)))


def _place(ctx: Ctx, link: Link) -> None:
    mons = [c.id for c in face_up_monsters(ctx.s, other(link.controller))]
    ask_cards(ctx, link.controller, mons, "alien_grey.counter", source=link.card)


@continuation("alien_grey.counter")
def _counter(ctx: Ctx, seat: int, answer: Answer, d: dict[str, Any]) -> None:
    for cid in answer if isinstance(answer, list) else []:
        if target_ok(ctx.s, cid, face_up=True):
            c = ctx.s.cards[cid]
            set_counters(ctx, c, Counter.A, c.counters.get(Counter.A, 0) + 1)


def _stay_key(card: Card) -> str:
    return f"alien_grey_flipped:{card.id}:{card.summoned_turn}:{card.set_turn}"


def _watch(ctx: Ctx, card: Card, ev: GameEvent) -> None:
    if ev.get("kind") == EventKind.FLIPPED and ev.get("card") == card.id and card.zone == Zone.MONSTERS:
        ctx.emit(Used(key=_stay_key(card)))


def _draw_match(s: State, card: Card, ev: GameEvent) -> bool:
    return (
        ev.get("card") == card.id
        and ev.get("reason") == "battle"
        and ev.get("to") == Zone.GRAVEYARD
        and _stay_key(card) in s.used
    )


def _draw(ctx: Ctx, link: Link) -> None:
    draw(ctx, link.controller, 1)


register(
    by_name("Alien Grey").code,
    Script(
        effects=(
            Effect(
                kind="flip",
                speed=1,
                trigger_on=EventKind.FLIPPED,
                trigger_match=_flip_match,
                optional=False,
                resolve=_place,
                label="A-Counter",
            ),
            Effect(
                kind="trigger",
                speed=1,
                trigger_on=EventKind.DESTROYED,
                trigger_match=_draw_match,
                optional=False,
                resolve=_draw,
                label="draw",
            ),
        ),
        stat=a_counter_stat,
        watch=_watch,
        watch_on=frozenset({EventKind.FLIPPED}),
    ),
)
