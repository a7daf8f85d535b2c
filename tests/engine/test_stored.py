"""``engine.stored``: a state and an alias book as bytes and back (what server snapshots hold),
checked at every position of random pool duels: what is loaded hashes, compares and views as
the original, and dumps to the very same bytes."""

from __future__ import annotations

import random

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import DuelConfig, Viewpoints, apply_facts, create, decide, fold, legal_actions, pending, state_hash
from engine.kernel.hashing import full_state_hash, to_plain
from engine.state import Card, State
from engine.stored import StoredError, dump_book, dump_state, load_book, load_state
from tests.engine.test_pool_duels import random_deck

KEY = b"stored-test-key"


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**32))
def test_every_position_of_a_duel_round_trips(seed: int) -> None:
    rnd = random.Random(seed)
    (d0, e0), (d1, e1) = random_deck(rnd), random_deck(rnd)
    genesis = create(DuelConfig(seed=seed, decks=(d0, d1), extra=(e0, e1)))
    s = fold(genesis)
    vp = Viewpoints(KEY)
    vp.apply(genesis)
    for _ in range(200):
        data = dump_state(s)
        loaded = load_state(data)
        assert dump_state(loaded) == data
        assert state_hash(loaded) == state_hash(s) == full_state_hash(loaded)
        assert to_plain(loaded) == to_plain(s)
        assert loaded == s
        book = dump_book(vp.book)
        assert b"stored-test-key" not in book  # the key is never stored
        copy = Viewpoints(KEY, load_book(book, KEY))
        assert dump_book(copy.book) == book
        for viewer in (0, 1, None):
            assert copy.view(loaded, viewer) == vp.view(s, viewer)
        p = pending(s)
        if p is None:
            break
        seat = int(p["seat"])
        facts = decide(s, seat, rnd.choice(legal_actions(s, seat)))
        vp.apply(facts)
        s = apply_facts(s, facts)


def test_a_loaded_state_goes_on_like_the_original() -> None:
    """The caches a loaded state starts without are filled again as it is played on."""
    rnd = random.Random(5)
    (d0, e0), (d1, e1) = random_deck(rnd), random_deck(rnd)
    s = fold(create(DuelConfig(seed=5, decks=(d0, d1), extra=(e0, e1))))
    for _ in range(60):
        p = pending(s)
        assert p is not None
        seat = int(p["seat"])
        action = rnd.choice(legal_actions(s, seat))
        loaded = load_state(dump_state(s))
        assert legal_actions(loaded, seat) == legal_actions(s, seat)
        facts = decide(s, seat, action)
        assert decide(loaded, seat, action) == facts
        s = apply_facts(s, facts)


@pytest.mark.parametrize("cls", [State, Card])
def test_a_field_added_to_a_class_fails_the_reader(cls: type) -> None:
    """The readers unpack exactly the fields each class has: one more value is refused."""
    s = fold(create(DuelConfig(seed=1, decks=(random_deck(random.Random(1))[0], random_deck(random.Random(2))[0]))))
    tree = msgpack.unpackb(dump_state(s), strict_map_key=False)
    if cls is State:
        tree.append(None)
    else:
        first = next(iter(tree[3]))
        tree[3][first].append(None)
    with pytest.raises(StoredError):
        load_state(msgpack.packb(tree, use_bin_type=True))


@pytest.mark.parametrize("junk", [b"", b"\x90", b"\xc1", b"not msgpack at all", b"\x93\x01\x02\x03"])
def test_bytes_that_are_not_a_state_are_refused(junk: bytes) -> None:
    with pytest.raises(StoredError):
        load_state(junk)
    with pytest.raises(StoredError):
        load_book(junk, KEY)
