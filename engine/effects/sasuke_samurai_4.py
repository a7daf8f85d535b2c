"""Sasuke Samurai 4: "If this card battles a monster, toss a coin and call heads or tails before
damage calculation. If you call it right, destroy the opponent's monster with this effect."

A mandatory trigger before damage calculation (ruling DS-4) of a battle between it and a monster
(it attacks one, or one attacks it; the face-down target is face-up by then, ruling DS-3). As it
resolves its controller calls Heads or Tails, then the coin is tossed (``toss_coin``: the duel's
PRNG, or results a scenario fixed); if the call was right the opponent's battling monster is
destroyed if it is still on the field, and damage calculation does not happen (ruling DS-4)."""

from __future__ import annotations

from typing import Any

from .api import (
    Answer,
    Card,
    Ctx,
    Effect,
    EventKind,
    GameEvent,
    Link,
    Script,
    State,
    Zone,
    ask_option,
    battling_opponent,
    by_name,
    continuation,
    destroy,
    register,
    toss_coin,
)


def _battles(s: State, card: Card, ev: GameEvent) -> bool:
    if card.id not in (ev.get("attacker"), ev.get("target")) or card.zone != Zone.MONSTERS:
        return False
    other_one = battling_opponent(s, card)
    return other_one is not None and other_one.zone == Zone.MONSTERS


def _resolve(ctx: Ctx, link: Link) -> None:
    foe = battling_opponent(ctx.s, ctx.s.cards[link.card])
    if foe is None:
        return
    data = {"source": link.card, "foe": foe.id}
    ask_option(ctx, link.controller, ["heads", "tails"], "sasuke_samurai_4.call", data, source=link.card)


@continuation("sasuke_samurai_4.call")
def _call(ctx: Ctx, seat: int, answer: Answer, d: dict[str, Any]) -> None:
    s = ctx.s
    me = s.cards[int(d["source"])]
    if toss_coin(ctx, me) != str(answer):
        return
    foe = s.cards[int(d["foe"])]
    if foe.zone == Zone.MONSTERS and foe.controller != seat:
        destroy(ctx, foe, reason="effect", by=me.id)


register(
    by_name("Sasuke Samurai 4").code,
    Script(
        effects=(
            Effect(
                kind="trigger",
                speed=1,
                trigger_on=EventKind.BEFORE_DAMAGE_CALCULATION,
                trigger_match=_battles,
                optional=False,
                resolve=_resolve,
                label="call a coin toss: destroy the monster it battles",
            ),
        )
    ),
)
