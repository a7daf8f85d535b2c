"""Weather Report: "FLIP: Destroys all of your opponent's face-up "Swords of Revealing Light"
cards on the field. If "Swords of Revealing Light" is destroyed, you can perform your Battle
Phase twice this turn (or your next turn, if activated during opponent's turn)."

One of the cards that grant several Battle Phases in one turn (ruling BP-6; seed 000). The FLIP effect is
mandatory; the second Battle Phase is only allowed (entering it stays optional). It is counted
in ``State.extra_battle_phases``: after the first Battle Phase the player goes to Main Phase 2
and may enter the Battle Phase again from there (``start_step.may_enter``). During the
opponent's turn the extra Battle Phase is granted for the player's next turn (``ops.delay``).
With no face-up Swords of Revealing Light on the opponent's side the FLIP effect would do
nothing, so it does not activate (ruling GEN-4)."""

from __future__ import annotations

from typing import Final

from .api import (
    Card,
    Ctx,
    Effect,
    EventKind,
    ExtraBattlePhase,
    GameEvent,
    Link,
    Script,
    State,
    Zone,
    by_name,
    delay,
    destroy,
    other,
    register,
)

SWORDS: Final = "Swords of Revealing Light"


def _match(s: State, card: Card, ev: GameEvent) -> bool:
    return ev.get("card") == card.id


def _opponent_swords(s: State, card: Card, seat: int) -> bool:
    return any(c.face_up and c.data.name == SWORDS for c in s.spells_traps(other(seat)))


def _resolve(ctx: Ctx, link: Link) -> None:
    s = ctx.s
    me = link.controller
    swords = [c for c in s.spells_traps(other(me)) if c.face_up and c.data.name == SWORDS]
    for c in swords:
        destroy(ctx, c, reason="effect", by=link.card)
    if not any(c.zone in (Zone.GRAVEYARD, Zone.BANISHED) for c in swords):
        return
    if s.turn_player == me:
        ctx.emit(ExtraBattlePhase(count=1))
    else:
        delay(ctx, me, extra_battle_phases=1)


register(
    by_name("Weather Report").code,
    Script(
        effects=(
            Effect(
                kind="flip",
                speed=1,
                trigger_on=EventKind.FLIPPED,
                trigger_match=_match,
                optional=False,
                condition=_opponent_swords,
                resolve=_resolve,
            ),
        )
    ),
)
