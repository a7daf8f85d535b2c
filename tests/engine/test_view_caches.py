"""What views keep between calls (docs/adr/0006) never shows anything else than a view
computed from scratch: along random duels, every seat's and the spectator's view, pending
decision and legal actions on the live state (with its kept renderings, stats, legal
actions, and what ``decide_state`` carried over a pass) equal those computed on a copy of
the state with every cache emptied."""

from __future__ import annotations

import copy
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import State, Viewpoints, create, decide_state, demo_deck, fold, legal_actions, pending
from engine.genesis import DuelConfig
from tests.engine.play import aggressive

SETTINGS = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def fresh(s: State) -> State:
    """A deep copy with no cache at all."""
    n = copy.deepcopy(s)
    n._w = None
    n._memo = None
    for c in n.cards.values():
        c._memo = None
        c._packed = None
    for p in n.players:
        p._packed = None
    return n


@SETTINGS
@given(seed=st.integers(min_value=0, max_value=2**32), randomness=st.sampled_from([0.1, 0.5]))
def test_kept_views_equal_views_from_scratch(seed: int, randomness: float) -> None:
    rnd = random.Random(seed)
    genesis = create(DuelConfig(seed=seed, decks=(demo_deck(seed % 3), demo_deck(1))))
    state = fold(genesis)
    vp = Viewpoints(b"view-cache-test-key")
    vp.apply(genesis)
    passes = 0
    for _ in range(250):
        owed = pending(state)
        if owed is None:
            break
        seat = int(str(owed["seat"]))
        acts = vp.legal(state, seat)  # in aliases; fills the kept legal actions
        assert len(acts) == len(legal_actions(state, seat))
        action = (
            rnd.choice(legal_actions(state, seat))
            if rnd.random() < randomness
            else aggressive(rnd, legal_actions(state, seat))
        )
        facts, state = decide_state(state, seat, action)
        passes += all(f["t"] in ("passed", "priority") for f in facts)
        vp.apply(facts)
        scratch = fresh(state)
        for v in (0, 1, None):
            for _twice in range(2):  # the second call is served from what the first one kept
                assert vp.view(state, v) == vp.view(scratch, v)
                assert vp.pending(state, v) == vp.pending(scratch, v)
        nxt = pending(state)
        if nxt is not None:
            s2 = int(str(nxt["seat"]))
            assert vp.legal(state, s2) == vp.legal(scratch, s2)
    assert passes > 0
