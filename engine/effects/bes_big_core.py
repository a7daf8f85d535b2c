"""B.E.S. Big Core: "If this card is Normal Summoned: Place 3 counters on it. Cannot be destroyed
by battle. At the end of the Damage Step, if this card battled: Remove 1 counter from this
card. If you cannot, destroy it." (ruling DS-9; seed 003, TCG "Substep 7": "A Counter on a B.E.S. monster or
on Big Core is removed" at the end of the Damage Step).

- A mandatory trigger on its Normal (Tribute) Summon places 3 counters (named ``counter``).
- Indestructible by battle (continuous).
- A mandatory trigger at the end of the Damage Step when it battled (damage was
  calculated): a direct attack is a battle too (ruling DS-12); it removes 1 counter as it
  resolves, or destroys it if it has none."""

from __future__ import annotations

from typing import Final

from .api import (
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
    by_name,
    destroy,
    register,
    set_counters,
    still_face_up,
)

COUNTER: Final = Counter.PLAIN


def _normal_summoned(s: State, card: Card, ev: GameEvent) -> bool:
    return ev.get("card") == card.id and ev.get("how") in ("normal", "tribute") and still_face_up(card)


def _place(ctx: Ctx, link: Link) -> None:
    c = ctx.s.cards[link.card]
    if still_face_up(c):
        set_counters(ctx, c, COUNTER, c.counters.get(COUNTER, 0) + 3)


def _indestructible(s: State, src: Card, c: Card) -> bool:
    return c.id == src.id


def _battled(s: State, card: Card, ev: GameEvent) -> bool:
    a = s.attack
    return (
        card.id in (ev.get("attacker"), ev.get("target"))
        and a is not None
        and a.calculated
        and card.zone == Zone.MONSTERS
        and card.face_up
    )


def _remove(ctx: Ctx, link: Link) -> None:
    c = ctx.s.cards[link.card]
    if not still_face_up(c):
        return
    n = c.counters.get(COUNTER, 0)
    if n > 0:
        set_counters(ctx, c, COUNTER, n - 1)
    else:
        destroy(ctx, c, reason="effect", by=c.id)


register(
    by_name("B.E.S. Big Core").code,
    Script(
        effects=(
            Effect(
                kind="trigger",
                speed=1,
                optional=False,
                trigger_on=EventKind.SUMMONED,
                trigger_match=_normal_summoned,
                resolve=_place,
                label="place counters",
            ),
            Effect(
                kind="trigger",
                speed=1,
                optional=False,
                trigger_on=EventKind.DAMAGE_STEP_END,
                trigger_match=_battled,
                resolve=_remove,
                label="remove a counter",
            ),
        ),
        battle_indestructible=_indestructible,
    ),
)
