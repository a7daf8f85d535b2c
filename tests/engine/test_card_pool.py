"""Duels sharing their untouched Deck cards through one ``CardPool`` (``share_unwritten``):
each plays exactly as it would alone, and no state of one ever sees another's writes."""

from __future__ import annotations

import random
import threading

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import (
    CardPool,
    DuelConfig,
    State,
    create,
    decide_state,
    demo_deck,
    fold,
    fold_into,
    legal_actions,
    pending,
    share_unwritten,
    state_hash,
)
from engine.kernel.cow import SHAREABLE_ZONES, deep_clone
from engine.kernel.hashing import full_state_hash

SETTINGS = settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
DECKS = (demo_deck(0), demo_deck(1))


def genesis_state(seed: int) -> State:
    return fold(create(DuelConfig(seed=seed, decks=DECKS)))


def play_alone(seed: int, actions: int) -> list[str]:
    """The hash of every state of a random duel, played without a pool."""
    rnd = random.Random(seed)
    s = genesis_state(seed)
    hashes = [state_hash(s)]
    for _ in range(actions):
        owed = pending(s)
        if owed is None:
            break
        seat = int(str(owed["seat"]))
        _, s = decide_state(s, seat, rnd.choice(legal_actions(s, seat)))
        hashes.append(state_hash(s))
    return hashes


@SETTINGS
@given(seeds=st.lists(st.integers(min_value=0, max_value=2**32), min_size=2, max_size=4, unique=True))
def test_duels_sharing_a_pool_play_as_they_would_alone(seeds: list[int]) -> None:
    """Several duels share one pool and are played in turn, an action each, every state kept:
    each state hashes as the same duel's state played alone, and every kept state of every
    duel still hashes (from scratch) as it did when it was made. A write reaching a card of
    another duel, or an older state, would change one of them."""
    actions = 120
    alone = {seed: play_alone(seed, actions) for seed in seeds}
    pool = CardPool()
    rnds = {seed: random.Random(seed) for seed in seeds}
    now: dict[int, State] = {}
    kept: dict[int, list[State]] = {}
    for seed in seeds:
        s = genesis_state(seed)
        assert share_unwritten(s, pool) > 0
        now[seed], kept[seed] = s, [s]
    for _ in range(actions):
        for seed in seeds:
            s = now[seed]
            owed = pending(s)
            if owed is None:
                continue
            seat = int(str(owed["seat"]))
            _, s = decide_state(s, seat, rnds[seed].choice(legal_actions(s, seat)))
            now[seed] = s
            kept[seed].append(s)
            assert state_hash(s) == alone[seed][len(kept[seed]) - 1]
    for seed in seeds:
        assert [full_state_hash(s) for s in kept[seed]] == alone[seed][: len(kept[seed])]


def test_two_duels_hold_the_same_objects_for_their_equal_deck_cards() -> None:
    pool = CardPool()
    a, b = genesis_state(1), genesis_state(2)
    shared_a, shared_b = share_unwritten(a, pool), share_unwritten(b, pool)
    in_decks = sum(1 for c in a.cards.values() if c.zone in SHAREABLE_ZONES)
    assert shared_a == in_decks > 50  # every card still in a Deck (the rest is in the hands)
    assert shared_b == sum(1 for c in b.cards.values() if c.zone in SHAREABLE_ZONES)
    same = [cid for cid, c in a.cards.items() if b.cards.get(cid) is c]
    equal = [cid for cid, c in a.cards.items() if c.zone in SHAREABLE_ZONES and b.cards[cid] == c]
    assert same == equal and same  # the equal ones are one object; the others are not shared
    pooled = {id(c) for c in pool.cards.values()}
    for s in (a, b):
        assert isinstance(s._w, set)
        assert not any(id(s.cards[cid]) in pooled for cid in s._w if cid in s.cards)  # owns no pooled card
        assert sum(1 for c in s.cards.values() if id(c) in pooled) == (in_decks if s is a else shared_b)
        hand = [cid for cid, c in s.cards.items() if c.zone == "hand"]
        assert hand and all(cid in s._w for cid in hand)  # still its own: never pooled


def test_a_card_taken_from_the_pool_is_copied_before_it_is_written() -> None:
    """Drawing writes a pooled card: the duel that draws gets its own copy; the other duel's
    card (the pooled object) stays in the Deck."""
    pool = CardPool()
    a, b = genesis_state(3), genesis_state(3)  # the same duel twice: every Deck card is shared
    share_unwritten(a, pool)
    share_unwritten(b, pool)
    before = state_hash(b)
    top = a.players[a.turn_player].deck[0]
    assert a.cards[top] is b.cards[top]
    s = a
    while s.cards[top].zone == "deck":  # play on until the top card is drawn
        owed = pending(s)
        assert owed is not None
        seat = int(str(owed["seat"]))
        passes = [x for x in legal_actions(s, seat) if x["do"] in ("pass", "next_phase", "end_turn")]
        facts, _ = decide_state(deep_clone(s), seat, passes[-1])  # (deciding makes ``s`` share its cards)
        fold_into(s, facts)  # in place, as a replay walks a log
    assert s.cards[top] is not b.cards[top]
    assert b.cards[top].zone == "deck" and b.cards[top] is pool.cards[b.cards[top]._packed or b""]
    assert state_hash(b) == full_state_hash(b) == before


def test_a_full_pool_takes_no_more_cards() -> None:
    pool = CardPool(limit=10)
    s = genesis_state(4)
    assert share_unwritten(s, pool) == 10
    assert len(pool.cards) == 10
    other = genesis_state(5)
    pooled = list(pool.cards.values())
    equal = sum(1 for c in other.cards.values() if c.zone in SHAREABLE_ZONES and c in pooled)
    assert share_unwritten(other, pool) == equal  # it takes the pool's equal cards, adds none
    assert len(pool.cards) == 10


def test_a_pool_shares_nothing_from_another_thread() -> None:
    pool = CardPool()
    got: list[int] = []
    s = genesis_state(6)
    worker = threading.Thread(target=lambda: got.append(share_unwritten(s, pool)))
    worker.start()
    worker.join()
    assert got == [0] and not pool.cards
    assert s._w is None  # untouched: it still owns all its cards
