"""A small deterministic PRNG whose whole state is one integer kept in the duel state.

SplitMix64: good enough for shuffles and coin tosses, trivially serializable,
identical on every platform. The engine never touches the global ``random``.
"""

from __future__ import annotations

from typing import Final

MASK: Final = (1 << 64) - 1


def next_u64(state: int) -> tuple[int, int]:
    """Return (new_state, value)."""
    state = (state + 0x9E3779B97F4A7C15) & MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return state, z ^ (z >> 31)


def below(state: int, n: int) -> tuple[int, int]:
    """A value in [0, n) (n > 0), by rejection sampling."""
    limit = MASK - (MASK % n)
    while True:
        state, v = next_u64(state)
        if v < limit:
            return state, v % n


def shuffled(state: int, items: list[int]) -> tuple[int, list[int]]:
    """Fisher-Yates shuffle; returns (new_state, new_list)."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        state, j = below(state, i + 1)
        out[i], out[j] = out[j], out[i]
    return state, out


class Draws:
    """A stream of draws from a seed, on this module's PRNG, for the engine's searching code
    (``engine.determinize``, ``engine.deckguess``): the same seed, the same draws, on every
    platform; never the global ``random`` and never the clock."""

    def __init__(self, seed: int) -> None:
        self.state = seed & MASK

    def below(self, n: int) -> int:
        """A value in [0, n) (n > 0)."""
        self.state, v = below(self.state, n)
        return v

    def shuffle(self, items: list[int]) -> None:
        """Shuffle ``items`` in place (Fisher-Yates)."""
        self.state, out = shuffled(self.state, items)
        items[:] = out

    def seed(self) -> int:
        """A fresh 63-bit seed (a duel state's PRNG, another stream)."""
        self.state, v = next_u64(self.state)
        return v >> 1
