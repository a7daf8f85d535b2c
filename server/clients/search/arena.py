"""Duels between bot policies in one process, over the engine and ``Viewpoints`` (no server):
each policy gets exactly what a client gets (its view and legal actions in its own aliases, the
facts of each entry as its seat sees them, the deck it brought). The benchmark
(``bench/search_strength.py``) and the tests play with it.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Any

from engine import DuelConfig, Viewpoints, create, decide_state, fold, pending
from engine.deckguess import split
from engine.decks import DECKS_BY_NAME
from server.clients.bot import Policy

MAX_ACTIONS = 3000
"""A duel not over after this many actions is a draw (no demo deck duel comes near it)."""


@dataclass
class DuelRecord:
    winner: int | str | None
    turns: int
    reason: str | None
    actions: int
    decisions: list[list[float]] = field(default_factory=lambda: [[], []])  # seconds per decision, per seat


def play(names: tuple[str, str], policies: tuple[Policy, Policy], seed: int, first: int = 0) -> DuelRecord:
    """A duel of demo decks ``names`` (one format) between ``policies`` (seat 0, seat 1)."""
    decks = [DECKS_BY_NAME[n] for n in names]
    fmt = decks[0].format
    lists = [split(d.codes()) for d in decks]
    config = DuelConfig(
        seed=seed,
        decks=(list(lists[0].main), list(lists[1].main)),
        extra=(list(lists[0].extra), list(lists[1].extra)),
        options={} if fmt == "current" else {"format": fmt},
        first=first,
    )
    for seat, policy in enumerate(policies):
        study = getattr(policy, "study", None)
        if callable(study):
            study({}, decks[seat].codes())
    facts = create(config)
    state = fold(facts)
    vp = Viewpoints(random.Random(seed).randbytes(32))
    rnds = (random.Random(seed * 2 + 1), random.Random(seed * 2 + 2))
    record = DuelRecord(None, 0, None, 0)
    seen: Any = vp.apply(facts)
    while True:
        for seat, policy in enumerate(policies):
            observe = getattr(policy, "observe", None)
            if callable(observe) and seen[seat]:
                observe(seen[seat])
        owed = pending(state)
        if owed is None or record.actions >= MAX_ACTIONS:
            break
        seat = owed["seat"]
        legal = vp.legal(state, seat)
        view = vp.view(state, seat)
        began = time.perf_counter()
        action = policies[seat](view, legal, rnds[seat])
        record.decisions[seat].append(time.perf_counter() - began)
        facts, state = decide_state(state, seat, vp.to_engine(seat, action))
        record.actions += 1
        seen = vp.apply(facts)
    record.winner = state.winner if state.winner is not None else "draw"
    record.turns = state.turn
    record.reason = state.end_reason
    return record
