"""Macro Cosmos (Continuous Trap): "When this card resolves: You can Special Summon 1 "Helios -
The Primordial Sun" from your hand or Deck. While this card is face-up on the field, any card
sent to the Graveyard is banished instead."

- "You can" is asked at activation: ``choose: [helios]`` names the Helios (in the hand, or the
  copy nearest the top of the Deck) to Special Summon as it resolves, in face-up Attack
  Position; activating it without ``choose`` summons nothing.
- The replacement is continuous (``banish_instead_of_grave``): monsters destroyed by battle
  are banished instead of sent to the Graveyard at the end of the Damage Step; effects that
  need the monster "destroyed by battle and sent to the Graveyard" (Goyo Guardian) then do not
  activate, while "when destroyed by battle" ones (Apprentice Magician) still do (seed 003,
  TCG "Substep 7")."""

from __future__ import annotations

from ..cards import by_name
from ..ctx import Ctx
from ..ops import special_summon
from ..state import Card, Link, State
from .base import Effect, Script, register
from .common import deck_choices

HELIOS = by_name("Helios - The Primordial Sun").code


def _choices(s: State, card: Card, seat: int) -> list[list[int]]:
    out: list[list[int]] = [[]]
    hand = [c for c in s.players[seat].hand if s.cards[c].code == HELIOS]
    out.extend([c] for c in hand[:1])
    out.extend(deck_choices(s, seat, lambda c: c.code == HELIOS))
    return out


def _summon(ctx: Ctx, link: Link) -> None:
    s = ctx.s
    if s.cards[link.card].zone != "spells_traps":
        return
    for cid in link.data.get("choose", []):
        h = s.cards[int(cid)]
        if h.code == HELIOS and h.zone in ("hand", "deck") and h.owner == link.controller:
            special_summon(ctx, h, link.controller, "attack")


register(
    by_name("Macro Cosmos").code,
    Script(
        effects=(
            Effect(kind="trap", speed=2, choices=_choices, resolve=_summon),
        ),
        banish_instead_of_grave=True,
    ),
)
