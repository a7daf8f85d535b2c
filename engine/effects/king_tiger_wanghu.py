"""King Tiger Wanghu, its Goat wording: "As long as this card remains face-up on the field, destroy
all monsters with an ATK equal to 1400 or less that are Normal Summoned or Special Summoned."

A mandatory trigger of a face-up Wanghu each time a monster with 1400 or less ATK is Normal
(Tribute) or Special Summoned face-up, by either player (ruling CARD-24: the 2005 ruling that it
uses the chain and does not hit Flip Summons). It destroys that monster as it resolves, if
Wanghu is still face-up on the field ("As long as this card remains face-up") and the monster
still face-up with 1400 or less ATK."""

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
    atk,
    by_name,
    destroy,
    register,
    still_face_up,
)


def _small(s: State, c: Card) -> bool:
    return still_face_up(c) and atk(s, c) <= 1400


def _match(s: State, card: Card, ev: GameEvent) -> bool:
    cid = ev.get("card")
    if cid is None or cid == card.id or ev.get("how") not in ("normal", "tribute", "special", "fusion"):
        return False
    return still_face_up(card) and _small(s, s.cards[cid])


def _resolve(ctx: Ctx, link: Link) -> None:
    s = ctx.s
    cid = link.data.get("event", {}).get("card")
    if cid is None or not still_face_up(s.cards[link.card]):
        return
    c = s.cards[int(cid)]
    if _small(s, c):
        destroy(ctx, c, reason="effect", by=link.card)


register(
    by_name("King Tiger Wanghu").code,
    Script(
        effects=(
            Effect(
                kind="trigger",
                speed=1,
                trigger_on=EventKind.SUMMONED,
                trigger_match=_match,
                optional=False,
                resolve=_resolve,
                label="destroy the monster with 1400 or less ATK",
            ),
        )
    ),
)
