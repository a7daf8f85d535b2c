"""How a duel begins: the genesis facts, a pure function of the match configuration.

Decks are shuffled with the duel's own PRNG (seeded by the configuration) and
the shuffled order is recorded in the first fact, so a replay never depends on
the PRNG code. Card instance ids are given after shuffling, so an id says
nothing about a card's identity.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

from . import rng
from .cards import CARDS
from .ctx import Ctx
from .facts import DuelStarted
from .flow import settle, start_turn
from .ops import draw
from .state import State
from .types import Fact

OPENING_HAND: Final = 5


@dataclass
class DuelConfig:
    seed: int
    decks: tuple[list[int], list[int]]
    extra: tuple[list[int], list[int]] = field(default_factory=lambda: ([], []))
    options: dict[str, Any] = field(default_factory=dict)
    first: int = 0
    lp: int = 8000


def create(config: DuelConfig) -> list[Fact]:
    """The genesis facts of a duel: setup, shuffles, opening hands, turn 1."""
    for deck in (*config.decks, *config.extra):
        for code in deck:
            if code not in CARDS:
                raise ValueError(f"unknown card passcode {code}")
    r = (config.seed * 0x2545F4914F6CDD1D + 1) & rng.MASK
    decks: list[list[tuple[int, int]]] = []
    extras: list[list[tuple[int, int]]] = []
    for seat in (0, 1):
        r, order = rng.shuffled(r, list(config.decks[seat]))
        base = 1 + seat * 1000
        decks.append([(base + i, code) for i, code in enumerate(order)])
        extras.append([(base + 500 + i, code) for i, code in enumerate(config.extra[seat])])
    ctx = Ctx(State())
    ctx.emit(
        DuelStarted(
            rng=r,
            decks=[[list(x) for x in d] for d in decks],
            extra=[[list(x) for x in e] for e in extras],
            options=dict(config.options),
            first=config.first,
            lp=config.lp,
        )
    )
    for seat in (config.first, 1 - config.first):
        draw(ctx, seat, OPENING_HAND)
    ctx.s.turn_player = config.first
    start_turn(ctx, config.first)
    settle(ctx)
    return ctx.facts


def initial() -> State:
    return State()
