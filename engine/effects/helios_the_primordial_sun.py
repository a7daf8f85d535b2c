"""Helios - The Primordial Sun: "This card's ATK and DEF are each equal to the number of removed
from play monsters x 100." (card text; summoned by Macro Cosmos.)

A continuous effect on itself: banished Monster Cards of both players count (its printed
ATK/DEF are "?", i.e. 0 before the effect)."""

from __future__ import annotations

from .api import Card, Script, State, by_name, register


def _stat(s: State, src: Card, c: Card) -> tuple[int, int]:
    if c.id != src.id:
        return 0, 0
    n = sum(1 for seat in (0, 1) for cid in s.players[seat].banished if s.cards[cid].data.is_monster)
    return 100 * n, 100 * n


register(by_name("Helios - The Primordial Sun").code, Script(stat=_stat))
