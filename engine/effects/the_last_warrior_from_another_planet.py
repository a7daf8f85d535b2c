"""The Last Warrior from Another Planet (Fusion Monster): ""Zombyra the Dark" + "Maryokutai" / When
this card is Special Summoned, destroy all monsters on your side of the field except this card.
As long as this card remains face-up on the field, neither player can Normal Summon, Flip Summon,
or Special Summon any monster." (card text).

- When it is Special Summoned (by Metamorphosis, Level 7, or Cyber-Stein: ruling SUM-31), a
  mandatory trigger destroys every other monster its controller controls, at the same time; with
  none there it does not activate (ruling GEN-4).
- While it is face-up on the field, no player may Normal Summon, Flip Summon or Special Summon a
  monster, a Token either (``Script.cannot_summon``); a monster may still be Set."""

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
    destroy_all,
    register,
)


def _summoned(s: State, card: Card, ev: GameEvent) -> bool:
    return ev.get("card") == card.id and ev.get("how") == "special"


def _others(s: State, card: Card, seat: int) -> list[Card]:
    return [m for m in s.monsters(card.controller) if m.id != card.id]


def _condition(s: State, card: Card, seat: int) -> bool:
    return bool(_others(s, card, seat))


def _resolve(ctx: Ctx, link: Link) -> None:
    me = ctx.s.cards[link.card]
    destroy_all(ctx, _others(ctx.s, me, link.controller), by=me.id)


def _no_summons(s: State, src: Card, monster: Card, seat: int, how: str) -> bool:
    return True


register(
    by_name("The Last Warrior from Another Planet").code,
    Script(
        effects=(
            Effect(
                kind="trigger",
                speed=1,
                optional=False,
                trigger_on=EventKind.SUMMONED,
                trigger_match=_summoned,
                condition=_condition,
                resolve=_resolve,
                label="destroy the other monsters you control",
            ),
        ),
        cannot_summon=_no_summons,
    ),
)
