"""Random duels with decks drawn from the whole card pool (issue 4): the engine never raises,
every action it offers is accepted, and folding each log gives the same final state."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import (
    CARDS,
    DuelConfig,
    apply_facts,
    create,
    decide,
    fold,
    legal_actions,
    pending,
    state_hash,
)
from engine.catalog import supported


def random_deck(rnd: random.Random) -> tuple[list[int], list[int]]:
    main_pool = [c.code for c in supported() if not c.extra_deck]
    extra_pool = [c.code for c in supported() if c.extra_deck]
    deck: list[int] = []
    while len(deck) < 40:
        code = rnd.choice(main_pool)
        if deck.count(code) < 3:
            deck.append(code)
    extra = rnd.sample(extra_pool, min(len(extra_pool), 5))
    return deck, extra


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**32), aggression=st.sampled_from([0.5, 0.9]))
def test_random_pool_duels(seed: int, aggression: float) -> None:
    rnd = random.Random(seed)
    (d0, e0), (d1, e1) = random_deck(rnd), random_deck(rnd)
    entries = [create(DuelConfig(seed=seed, decks=(d0, d1), extra=(e0, e1)))]
    s = fold(entries[0])
    for _ in range(1500):
        p = pending(s)
        if p is None:
            break
        seat = int(p["seat"])
        acts = legal_actions(s, seat)
        assert acts, f"seat {seat} owes a decision but has no legal action: {p}"
        keen = [a for a in acts if a["do"] in ("attack", "summon", "activate", "retarget")]
        a = rnd.choice(keen) if keen and rnd.random() < aggression else rnd.choice(acts)
        facts = decide(s, seat, a)
        entries.append(facts)
        s = apply_facts(s, facts)
    replayed = fold([f for e in entries for f in e])
    assert state_hash(replayed) == state_hash(s)
    assert all(c.code in CARDS for c in s.cards.values())
