"""The counters the engine knows, by their printed names.

A counter is kept on a card as ``Card.counters[name] = n``; the names are these values, so
card modules, scenario files (``counters:`` placement and expectations) and views agree. A
scenario naming a counter not listed here is an error.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Final

from .plain import register


class Counter(StrEnum):
    SPELL = "Spell Counter"  # Apprentice Magician, Breaker the Magical Warrior
    A = "A-Counter"  # Alien Grey, Alien Mother ("Alien" monsters)
    GATE = "Gate Counter"  # Spacegate
    # the unnamed counters a card puts on itself ("Place 3 counters on it"): B.E.S. Big Core,
    # Des Mosquito
    PLAIN = "counter"


register((Counter,))  # engine.plain's table

COUNTER_NAMES: Final[tuple[str, ...]] = tuple(c.value for c in Counter)
