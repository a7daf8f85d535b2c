"""Cursed Seal of the Forbidden Spell (Counter Trap): "When a Spell Card is activated: Discard 1
Spell Card; negate the activation, and if you do, destroy it, and if you do that, your opponent
cannot activate Spell Cards with that name for the rest of this Duel." (card text; ruling GEN-1).

It answers the activation of a Spell Card (either player's; not the effect of a face-up Spell
that is no activation of the card, ruling CH-8) as the next chain link; discarding a Spell Card is
its cost. As it resolves it negates that activation and destroys the card; if the card was
destroyed, its controller's opponent may not activate Spell Cards of that name for the rest of the
Duel (``ops.forbid_activation``: their copies in the hand, the Deck and Set ones). A Counter Trap, it
may answer a chain in the Damage Step too (ruling DS-2)."""

from __future__ import annotations

from .api import (
    ALL_DS,
    Card,
    Ctx,
    Effect,
    Link,
    Script,
    State,
    Zone,
    by_name,
    discard_cost,
    forbid_activation,
    link_is_card_activation,
    negate_previous,
    other,
    register,
)


def _condition(s: State, card: Card, seat: int) -> bool:
    return bool(s.chain) and link_is_card_activation(s, s.chain[-1], "spell")


def _spells_in_hand(s: State, card: Card, seat: int) -> list[list[int]]:
    return [[cid] for cid in s.players[seat].hand if s.cards[cid].data.is_spell]


def _resolve(ctx: Ctx, link: Link) -> None:
    n = int(link.data.get("answers", 0))
    if not 1 <= n <= len(ctx.s.chain):
        return
    spell = ctx.s.cards[ctx.s.chain[n - 1].card]
    negate_previous(ctx, link)
    if spell.zone in (Zone.GRAVEYARD, Zone.BANISHED):
        forbid_activation(ctx, other(link.controller), spell.data.name)


register(
    by_name("Cursed Seal of the Forbidden Spell").code,
    Script(
        effects=(
            Effect(
                kind="trap",
                speed=3,
                condition=_condition,
                cost_options=_spells_in_hand,
                cost=discard_cost,
                resolve=_resolve,
                negates=True,
                damage_step=ALL_DS,
            ),
        )
    ),
)
