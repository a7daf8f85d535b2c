"""Gravekeeper's Spy, its Goat wording: "FLIP: Special Summon 1 Monster Card that includes
"Gravekeeper's" in its card name with an ATK of 1500 or less from your Deck."

A mandatory FLIP effect; with no such monster in the Deck that may be Special Summoned, or no free
Monster Zone, it does not activate (ruling GEN-4). The monster is selected in the Deck as it
resolves (ruling SEL-1) and Summoned face-up in the position its controller picks (SEL-3: the text
names none)."""

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
    can_summon_from_deck,
    register,
    summon_from_deck,
)


def _gravekeeper(c: Card) -> bool:
    return c.data.is_monster and "Gravekeeper's" in c.data.name and 0 <= c.data.atk <= 1500


def _flipped(s: State, card: Card, ev: GameEvent) -> bool:
    return ev.get("card") == card.id


def _resolve(ctx: Ctx, link: Link) -> None:
    summon_from_deck(ctx, link, _gravekeeper)


register(
    by_name("Gravekeeper's Spy").code,
    Script(
        effects=(
            Effect(
                kind="flip",
                speed=1,
                trigger_on=EventKind.FLIPPED,
                trigger_match=_flipped,
                optional=False,
                condition=can_summon_from_deck(_gravekeeper),
                resolve=_resolve,
                label="Special Summon a Gravekeeper's",
            ),
        )
    ),
)
