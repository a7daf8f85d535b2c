"""Macro Cosmos (Continuous Trap): "When this card resolves: You can Special Summon 1 "Helios -
The Primordial Sun" from your hand or Deck. While this card is face-up on the field, any card
sent to the Graveyard is banished instead."

- "You can" is decided as it resolves (ruling SEL-1): if a Helios is in the hand or Deck, its
  controller may select one (``{do: choose, cards: [helios]}``) or decline (``cards: []``); the
  Helios is Special Summoned in the face-up position they pick (ruling SEL-3).
- The replacement is continuous (``banish_instead_of_grave``): monsters destroyed by battle
  are banished instead of sent to the Graveyard at the end of the Damage Step; effects that
  need the monster "destroyed by battle and sent to the Graveyard" (Goyo Guardian) then do not
  activate, while "when destroyed by battle" ones (Apprentice Magician) still do (ruling DS-9,
  seed 003 TCG "Substep 7"). It stops as Macro Cosmos leaves the field: Macro Cosmos itself is
  sent to the Graveyard, and so is what is sent after it (ruling LF-2)."""

from __future__ import annotations

from typing import Any, Final

from .api import (
    Answer,
    Card,
    Ctx,
    Effect,
    Link,
    Script,
    Zone,
    ask_cards,
    by_name,
    continuation,
    deck_candidates,
    free_monster_zone,
    hand_candidates,
    register,
    summon_choosing_position,
)

HELIOS: Final = by_name("Helios - The Primordial Sun").code


def _is_helios(c: Card) -> bool:
    return c.code == HELIOS


def _summon(ctx: Ctx, link: Link) -> None:
    s = ctx.s
    seat = link.controller
    if s.cards[link.card].zone != Zone.SPELLS_TRAPS or not free_monster_zone(s, seat):
        return
    cands = hand_candidates(s, seat, _is_helios)[:1] + deck_candidates(s, seat, _is_helios)
    ask_cards(ctx, seat, cands, "macro_cosmos.helios", {"source": link.card}, optional=True, source=link.card)


@continuation("macro_cosmos.helios")
def _helios(ctx: Ctx, seat: int, answer: Answer, d: dict[str, Any]) -> None:
    for cid in answer if isinstance(answer, list) else []:
        h = ctx.s.cards[cid]
        if h.code == HELIOS and h.zone in (Zone.HAND, Zone.DECK) and h.owner == seat:
            summon_choosing_position(ctx, cid, seat, source=int(d["source"]))


register(
    by_name("Macro Cosmos").code,
    Script(
        effects=(Effect(kind="trap", speed=2, resolve=_summon),),
        banish_instead_of_grave=True,
    ),
)
