"""Nobleman of Extermination (Normal Spell), in the wording of the duel's format (ruling FMT-5).

Goat (its ``text_goat``): "Destroy 1 face-down Spell or Trap Card and remove it from play. If the
card is a Trap Card, both players must remove all Trap Cards of the same name from their
respective Decks and remove them from play. The Decks are then shuffled."

Today (its ``text``): "Select, destroy, and remove from play 1 face-down Spell or Trap Card. If it
was a Trap Card, both players must remove from play all copies of that card from their Decks."

The two do the same: the face-down card (either player's, in a Spell & Trap Zone) is a target
(an old text's "Select 1", ruling SEL-1), checked as it resolves (ruling CH-3: one activated in
answer is face-up and is not affected); if it is destroyed it is banished, and if it is a Trap Card
each player banishes the cards of that name from their own Deck and shuffles it
(``common.banish_copies_from_decks``; neither wording reveals the Decks)."""

from __future__ import annotations

from .api import (
    Card,
    Ctx,
    Effect,
    Link,
    Script,
    State,
    Zone,
    banish_copies_from_decks,
    by_name,
    destroy_and_banish,
    each,
    register,
)


def _targets(s: State, card: Card, seat: int) -> list[list[int]]:
    return each([c for c in s.field_cards() if c.zone == Zone.SPELLS_TRAPS and not c.face_up and c.id != card.id])


def _resolve(ctx: Ctx, link: Link) -> None:
    for t in link.targets:
        c = ctx.s.cards[t]
        if c.zone != Zone.SPELLS_TRAPS or c.face_up:
            continue
        trap = c.data.is_trap
        if destroy_and_banish(ctx, c, by=link.card) and trap:
            banish_copies_from_decks(ctx, c.data.name, lambda x: x.data.is_trap, reveal_decks=False)


register(
    by_name("Nobleman of Extermination").code,
    Script(effects=(Effect(kind="spell", speed=1, targets=_targets, resolve=_resolve),)),
)
