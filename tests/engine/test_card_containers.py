"""A card's counters, materials and flags are never changed in place (engine.state: they are
replaced, and every card without any shares one empty value of each, to save memory). If a
rule changed one in place, it would change every earlier state sharing the card, and every
card sharing the empty value: along random duels with counters, equips and attacks, each
state still hashes (from scratch) to what it hashed to when it was made, and the shared
empty values are still empty."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.decks import deck_named
from engine.kernel.hashing import full_state_hash
from engine.state import NO_COUNTERS, NO_FLAGS, NO_MATERIALS, State
from tests.engine.play import states

PAIRS = [("counters", "battle-step"), ("end-step", "counters"), ("battle-step", "end-step")]


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**32), pair=st.sampled_from(PAIRS))
def test_no_state_changes_after_it_was_made(seed: int, pair: tuple[str, str]) -> None:
    kept: list[tuple[State, str]] = []
    written = 0
    for state in states(seed, (deck_named(pair[0]), deck_named(pair[1]))):
        kept.append((state, full_state_hash(state)))
        written += sum(1 for c in state.cards.values() if c.flags or c.counters)
    assert written > 0  # the duel did give cards flags or counters
    for s, h in kept:
        assert full_state_hash(s) == h
    assert NO_COUNTERS == {} and NO_FLAGS == {} and NO_MATERIALS == []
