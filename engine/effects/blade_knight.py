"""Blade Knight: "While you have 1 or less cards in your hand, this card gains 400 ATK. If you
control no other monsters, negate the effects of Flip Effect Monsters destroyed by battle with this
card."

Both are continuous effects while it is face-up on the field (no activation):

- ``stat``: +400 ATK while its controller holds 0 or 1 card.
- ``negates``: a Flip monster that Blade Knight's battle destroys (marked destroyed at damage
  calculation) has its effects negated, if Blade Knight's controller then controls no other
  monster; so its FLIP effect, which would activate after damage calculation (ruling DS-3), does
  not activate (``ops.raise_event``: a monster whose effects are negated
  activates none). A Flip monster that survives the battle, or one destroyed while Blade Knight
  has company, keeps its effect."""

from __future__ import annotations

from .api import Card, Script, State, by_name, register


def _stat(s: State, src: Card, c: Card) -> tuple[int, int]:
    if c.id != src.id or len(s.players[src.controller].hand) > 1:
        return 0, 0
    return 400, 0


def _negates(s: State, src: Card, c: Card) -> bool:
    a = s.attack
    if a is None or c.id not in a.destroyed or "flip" not in c.data.monster_kinds:
        return False
    if {src.id, c.id} != {a.attacker, a.target}:
        return False
    return all(m.id == src.id for m in s.monsters(src.controller))


register(by_name("Blade Knight").code, Script(stat=_stat, negates=_negates))
