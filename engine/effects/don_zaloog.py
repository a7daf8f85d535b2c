"""Don Zaloog: "When this card inflicts Battle Damage to your opponent, you can either:
● Discard 1 random card from your opponent's hand. OR
● Send the top 2 cards of your opponent's Deck to the Graveyard."

An optional trigger when the battle it takes part in deals battle damage to its controller's
opponent (after damage calculation, ruling DS-8). Which of the two effects is chosen as it is
activated (``choose``: ``discard`` or ``mill``): the discard needs a card in the opponent's hand,
the mill 2 cards in their Deck (ruling GEN-4). The random card is picked with the duel's PRNG as
it resolves (``discard_at_random``); nobody chooses it. A "When ... you can" trigger (ruling
CH-12), never left behind: battle damage is the last thing that happened."""

from __future__ import annotations

from typing import Any

from .api import (
    Card,
    Ctx,
    Effect,
    EventKind,
    Link,
    Script,
    State,
    by_name,
    discard_at_random,
    inflicted_battle_damage,
    mill,
    other,
    register,
)


def _modes(s: State, card: Card, seat: int) -> list[list[Any]]:
    opp = s.players[other(seat)]
    out: list[list[Any]] = []
    if opp.hand:
        out.append(["discard"])
    if len(opp.deck) >= 2:
        out.append(["mill"])
    return out


def _resolve(ctx: Ctx, link: Link) -> None:
    opp = other(link.controller)
    if link.data.get("choose") == ["discard"]:
        discard_at_random(ctx, opp, link.card)
    else:
        mill(ctx, opp, 2, link.card)


register(
    by_name("Don Zaloog").code,
    Script(
        effects=(
            Effect(
                kind="trigger",
                speed=1,
                trigger_on=EventKind.BATTLE_DAMAGE,
                trigger_match=inflicted_battle_damage,
                choices=_modes,
                resolve=_resolve,
                misses_timing=True,
                label="random discard, or mill 2",
            ),
        )
    ),
)
