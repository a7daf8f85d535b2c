"""Dark Scorpion - Cliff the Trap Remover: "When this card inflicts Battle Damage to your
opponent, you can activate 1 of these effects:
● Target 1 Spell/Trap Card on the field; destroy that target.
● Send the top 2 cards of their Deck to the Graveyard."

An optional trigger when the battle it takes part in deals battle damage to its controller's
opponent (after damage calculation, ruling DS-8). Which effect is chosen as it is activated
(``Effect.modes``): ``destroy`` with its target (a Spell/Trap Card on either side of the field,
face-up or face-down, destroyed if still there, ruling CH-3), or ``mill`` with none (2 cards in
the opponent's Deck needed, ruling GEN-4). A "When ... you can" trigger (ruling CH-12), never
left behind: battle damage is the last thing that happened."""

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
    Zone,
    by_name,
    destroy,
    inflicted_battle_damage,
    mill,
    other,
    register,
)


def _spell_traps(s: State) -> list[Card]:
    return [c for c in s.field_cards() if c.zone in (Zone.SPELLS_TRAPS, Zone.FIELD)]


def _modes(s: State, card: Card, seat: int) -> list[tuple[list[int], list[Any]]]:
    out: list[tuple[list[int], list[Any]]] = [([c.id], ["destroy"]) for c in _spell_traps(s)]
    if len(s.players[other(seat)].deck) >= 2:
        out.append(([], ["mill"]))
    return out


def _resolve(ctx: Ctx, link: Link) -> None:
    if link.data.get("choose") == ["mill"]:
        mill(ctx, other(link.controller), 2, link.card)
        return
    for t in link.targets:
        c = ctx.s.cards[t]
        if c.zone in (Zone.SPELLS_TRAPS, Zone.FIELD):
            destroy(ctx, c, reason="effect", by=link.card)


register(
    by_name("Dark Scorpion - Cliff the Trap Remover").code,
    Script(
        effects=(
            Effect(
                kind="trigger",
                speed=1,
                trigger_on=EventKind.BATTLE_DAMAGE,
                trigger_match=inflicted_battle_damage,
                modes=_modes,
                resolve=_resolve,
                misses_timing=True,
                label="destroy a Spell/Trap, or mill 2",
            ),
        )
    ),
)
