"""Gyaku-Gire Panda: "Increase the ATK of this card by 500 points for each monster on your
opponent's side of the field. When this card attacks with an ATK that is higher than the DEF of
your opponent's Defense Position monster, inflict the difference as Battle Damage to your
opponent's Life Points."

Both continuous while it is face-up (no activation): +500 ATK per monster its controller's
opponent controls, face-up or face-down (``stat``), and piercing battle damage when it attacks a
Defense Position monster (``Script.piercing``, damage calculation, ruling DS-7)."""

from __future__ import annotations

from .api import Card, Script, State, by_name, other, register


def _stat(s: State, src: Card, c: Card) -> tuple[int, int]:
    if c.id != src.id:
        return 0, 0
    return 500 * len(s.monsters(other(src.controller))), 0


register(by_name("Gyaku-Gire Panda").code, Script(stat=_stat, piercing=True))
