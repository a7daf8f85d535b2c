"""Night Assailant, its Goat wording: "FLIP: Target 1 monster your opponent controls; destroy that
target. When this card is sent from the hand to the GY: Target 1 Flip monster in your GY, except
this card; return that target to the hand."

- A mandatory FLIP effect targeting 1 monster its controller's opponent controls (face-up or not);
  with none it does not activate (ruling GEN-4).
- A mandatory trigger when it is sent from the hand to the Graveyard, whatever sent it (a discard,
  a cost, an effect): it targets a Flip monster in its owner's Graveyard other than itself and
  returns it to the hand if it is still there (ruling CH-3); with none it does not activate."""

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
    Zone,
    by_name,
    destroy,
    each,
    grave_targets,
    other,
    register,
    return_target_to_hand,
    target_ok,
)


def _flipped(s: State, card: Card, ev: GameEvent) -> bool:
    return ev.get("card") == card.id


def _opponent_monsters(s: State, card: Card, seat: int) -> list[list[int]]:
    return each(s.monsters(other(seat)))


def _destroy(ctx: Ctx, link: Link) -> None:
    for t in link.targets:
        if target_ok(ctx.s, t):
            destroy(ctx, ctx.s.cards[t], reason="effect", by=link.card)


def _from_hand(s: State, card: Card, ev: GameEvent) -> bool:
    return ev.get("card") == card.id and ev.get("from_zone") == Zone.HAND and card.zone == Zone.GRAVEYARD


def _flip_monsters(s: State, card: Card, seat: int) -> list[list[int]]:
    return grave_targets(s, seat, lambda c: "flip" in c.data.monster_kinds and c.id != card.id)


register(
    by_name("Night Assailant").code,
    Script(
        effects=(
            Effect(
                kind="flip",
                speed=1,
                trigger_on=EventKind.FLIPPED,
                trigger_match=_flipped,
                optional=False,
                targets=_opponent_monsters,
                resolve=_destroy,
                label="destroy a monster",
            ),
            Effect(
                kind="trigger",
                speed=1,
                trigger_on=EventKind.SENT_TO_GRAVE,
                trigger_match=_from_hand,
                optional=False,
                targets=_flip_monsters,
                resolve=return_target_to_hand,
                label="return a Flip monster",
            ),
        )
    ),
)
