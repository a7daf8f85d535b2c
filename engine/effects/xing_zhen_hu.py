"""Xing Zhen Hu (Continuous Trap): "Activate by selecting 2 Set Spell or Trap Cards on the field.
The selected Spell or Trap Cards cannot be activated." (card text; ruling GEN-1).

The 2 Set cards (either player's, face-down in the Spell & Trap Zones, not Xing Zhen Hu itself)
are its targets (an old text's "selecting", ruling SEL-1). As its activation resolves it keeps
those still Set (ruling CH-3: one activated in answer is gone or face-up) in its ``xing`` flag;
while it is face-up on the field (ruling CH-7) they cannot be activated (``Script.locks``), as long
as they stay on the field."""

from __future__ import annotations

from itertools import combinations
from typing import Final

from .api import Card, Ctx, Effect, Flag, Link, Script, State, Zone, by_name, register

XING: Final = "xing"


def _set_cards(s: State, card: Card) -> list[int]:
    return [c.id for c in s.field_cards() if c.zone == Zone.SPELLS_TRAPS and not c.face_up and c.id != card.id]


def _targets(s: State, card: Card, seat: int) -> list[list[int]]:
    return [list(pair) for pair in combinations(_set_cards(s, card), 2)]


def _resolve(ctx: Ctx, link: Link) -> None:
    s = ctx.s
    held = [t for t in link.targets if s.cards[t].zone == Zone.SPELLS_TRAPS and not s.cards[t].face_up]
    ctx.emit(Flag(card=link.card, name=XING, value=held or None))


def _locks(s: State, src: Card, card: Card, seat: int) -> bool:
    return card.on_field and card.id in (src.flags.get(XING) or ())


register(
    by_name("Xing Zhen Hu").code,
    Script(effects=(Effect(kind="trap", speed=2, targets=_targets, resolve=_resolve),), locks=_locks),
)
