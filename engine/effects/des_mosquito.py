"""Des Mosquito: "When this card is Normal or Special Summoned: Place 2 counters on it. It gains
500 ATK for each of these counters. If this card would be destroyed by battle, remove 1 of
these counters instead." (ruling DS-9; seed 003, TCG "Substep 7": "If Des Mosquito was destroyed by the
battle, 1 counter is removed" at the end of the Damage Step).

- A mandatory trigger on its Normal, Tribute or Special Summon places 2 counters (``counter``).
- +500 ATK per counter (continuous).
- The replacement: damage calculation finds it destroyed by battle; with a counter on it, it
  is not destroyed, and the counter is removed at the end of the Damage Step, when destroyed
  monsters are sent to the Graveyard (so it keeps its ATK until then). With no counter it is
  destroyed normally."""

from __future__ import annotations

from typing import Final

from .api import (
    Card,
    Counter,
    Ctx,
    Effect,
    EventKind,
    Flag,
    GameEvent,
    Link,
    Script,
    State,
    Zone,
    by_name,
    is_negated,
    register,
    set_counters,
    still_face_up,
)

COUNTER: Final = Counter.PLAIN
PENDING: Final = "mosquito_counter_due"


def _summoned(s: State, card: Card, ev: GameEvent) -> bool:
    return ev.get("card") == card.id and ev.get("how") in ("normal", "tribute", "special") and still_face_up(card)


def _place(ctx: Ctx, link: Link) -> None:
    c = ctx.s.cards[link.card]
    if still_face_up(c):
        set_counters(ctx, c, COUNTER, c.counters.get(COUNTER, 0) + 2)


def _stat(s: State, src: Card, c: Card) -> tuple[int, int]:
    return (500 * c.counters.get(COUNTER, 0), 0) if c.id == src.id else (0, 0)


def _replace(ctx: Ctx, card: Card) -> bool:
    if not card.face_up or card.zone != Zone.MONSTERS or is_negated(ctx.s, card) or card.counters.get(COUNTER, 0) <= 0:
        return False
    ctx.emit(Flag(card=card.id, name=PENDING, value=True))
    return True


def _watch(ctx: Ctx, card: Card, ev: GameEvent) -> None:
    if ev.get("kind") != EventKind.DAMAGE_STEP_END or not card.flags.get(PENDING):
        return
    ctx.emit(Flag(card=card.id, name=PENDING, value=None))
    if card.zone == Zone.MONSTERS:
        set_counters(ctx, card, COUNTER, card.counters.get(COUNTER, 0) - 1)


register(
    by_name("Des Mosquito").code,
    Script(
        effects=(
            Effect(
                kind="trigger",
                speed=1,
                optional=False,
                trigger_on=EventKind.SUMMONED,
                trigger_match=_summoned,
                resolve=_place,
            ),
        ),
        stat=_stat,
        replace_battle_destruction=_replace,
        watch=_watch,
        watch_on=frozenset({EventKind.DAMAGE_STEP_END}),
    ),
)
