"""Timeater: "If this card destroys an opponent's monster by battle: Your opponent skips their
next Main Phase 1."

A mandatory trigger at the end of the Damage Step, also when the destroyed monster is banished
instead of sent to the Graveyard (ruling DS-9), not when Timeater was destroyed in the same
battle (``destroyed_by_this``, ruling DS-14). The skip is recorded for the opponent's next
turn (``ops.delay``). In that turn, from the Standby Phase, the player may enter the Battle
Phase or go to the End Phase (ruling BP-5; seed 000, "Entering the Battle Phase", ref. 8); if they do not
enter the Battle Phase, Main Phase 1 and the Battle Phase are both skipped and they cannot
enter Main Phase 2 either (seed 000, ref. 9)."""

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
    by_name,
    delay,
    destroyed_by_this,
    other,
    register,
)


def _match(s: State, card: Card, ev: GameEvent) -> bool:
    return destroyed_by_this(s, card, ev, to_grave=False)


def _resolve(ctx: Ctx, link: Link) -> None:
    delay(ctx, other(link.controller), skip="main1")


register(
    by_name("Timeater").code,
    Script(
        effects=(
            Effect(
                kind="trigger",
                speed=1,
                trigger_on=EventKind.DESTROYED,
                trigger_match=_match,
                optional=False,
                resolve=_resolve,
            ),
        )
    ),
)
