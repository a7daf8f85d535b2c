"""Nobleman of Crossout (Normal Spell), in the wording of the duel's format (ruling FMT-5).

Goat (its ``text_goat``): "Destroy 1 face-down monster and remove it from play. If the monster is a
Flip Effect Monster, both players check their respective Decks and remove all monsters of the same
name from play. Then shuffle the Decks."

Today (its ``text``): "Target 1 face-down monster on the field; destroy that target, and if you do,
banish it, then, if it was a Flip monster, each player reveals their Main Deck, then banishes all
cards from it with that monster's name."

The two do the same but for the Decks: in Goat each player looks at their own, today each reveals
it to both players (``ops.reveal_to``); either way each Deck is shuffled afterwards.

The face-down monster is a target (an old text's "1 ..." is chosen at activation, ruling SEL-1),
on either side of the field. As it resolves, a target no longer face-down on the field is not
affected (ruling CH-3). If the monster
is destroyed it is banished; if it was a Flip Effect Monster, each player banishes the monsters of
that name from their Deck and shuffles it (``common.banish_copies_from_decks``)."""

from __future__ import annotations

from .api import (
    Card,
    Ctx,
    Effect,
    Link,
    Script,
    State,
    banish_copies_from_decks,
    by_name,
    destroy_and_banish,
    each,
    goat_wording,
    register,
    target_ok,
)


def _targets(s: State, card: Card, seat: int) -> list[list[int]]:
    return each([c for sd in (seat, 1 - seat) for c in s.monsters(sd) if not c.face_up])


def _resolve(ctx: Ctx, link: Link) -> None:
    for t in link.targets:
        if not target_ok(ctx.s, t, face_up=False):
            continue
        c = ctx.s.cards[t]
        flip = "flip" in c.data.monster_kinds
        if destroy_and_banish(ctx, c, by=link.card) and flip:
            banish_copies_from_decks(ctx, c.data.name, lambda m: m.data.is_monster, not goat_wording(ctx.s))


register(
    by_name("Nobleman of Crossout").code,
    Script(effects=(Effect(kind="spell", speed=1, targets=_targets, resolve=_resolve),)),
)
