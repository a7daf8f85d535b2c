"""Zombyra the Dark, its Goat wording: "This card cannot attack a player directly. Each time this
card destroys 1 monster as a result of battle, decrease the ATK of this card by 200 points."

- It never attacks directly (``Script.no_direct_attack``): with no monster on the opponent's side
  it has no attack to declare (ruling BS-7).
- A mandatory trigger after damage calculation (ruling DS-8; Project Ignis' Goat script uses this
  timing) of a battle that destroyed the monster it battled: it loses 200 ATK for as long as it
  stays on the field, if it is still face-up then."""

from __future__ import annotations

from .api import (
    Card,
    Ctx,
    Effect,
    EventKind,
    GameEvent,
    Link,
    Modifier,
    Script,
    State,
    battling_opponent,
    by_name,
    register,
    still_face_up,
)


def _destroyed_one(s: State, card: Card, ev: GameEvent) -> bool:
    if card.id not in (ev.get("attacker"), ev.get("target")) or not still_face_up(card):
        return False
    foe = battling_opponent(s, card)
    return foe is not None and foe.id in ev.get("destroyed", [])


def _weaken(ctx: Ctx, link: Link) -> None:
    c = ctx.s.cards[link.card]
    if still_face_up(c):
        ctx.emit(Modifier(card=c.id, stat="atk", op="add", value=-200, until="permanent", source=c.id))


register(
    by_name("Zombyra the Dark").code,
    Script(
        effects=(
            Effect(
                kind="trigger",
                speed=1,
                trigger_on=EventKind.AFTER_DAMAGE_CALCULATION,
                trigger_match=_destroyed_one,
                optional=False,
                resolve=_weaken,
                label="lose 200 ATK",
            ),
        ),
        no_direct_attack=True,
    ),
)
