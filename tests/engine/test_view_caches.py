"""What views keep between calls (docs/adr/0006) never shows anything else than a view
computed from scratch: along random duels, every seat's and the spectator's view, pending
decision and legal actions on the live state (with its kept renderings, stats, legal
actions, each player's part kept on the player, and what ``decide_state`` carried over a
pass) equal those computed on a copy of the state with every cache emptied, and so does its
state hash (the board's digest kept, and carried over an action that writes no card or
player), and what the state's roster says answers each kind of event (shared along the duel)
is what its cards say; likewise along the same log folded in place into one state (replays)."""

from __future__ import annotations

import copy
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import (
    Fact,
    State,
    Viewpoints,
    create,
    decide_state,
    demo_deck,
    fold,
    fold_into,
    initial,
    legal_actions,
    pending,
    state_hash,
    view,
)
from engine.decks import deck_named
from engine.effects.base import SCRIPTS, script_of
from engine.flow import SELF_DESTROYING
from engine.genesis import DuelConfig
from engine.kernel import caches
from engine.kernel.hashing import full_state_hash
from engine.ops import WATCHING
from engine.stats import equipped_as_spell
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


def check_roster(s: State) -> None:
    """What the state's roster (shared along the duel) says answers each kind of event is what
    its cards say now."""
    roster = s._roster
    if roster is None or not roster.ids:
        return
    assert roster.scripts == len(SCRIPTS)
    for key, ids in roster.ids.items():
        if key == SELF_DESTROYING:
            codes = {code for code, sc in SCRIPTS.items() if sc.self_destroy is not None}
        elif key == WATCHING:  # the scripts that watch every kind of event
            codes = {code for code, sc in SCRIPTS.items() if sc.watch is not None and not sc.watch_on}
        elif isinstance(key, tuple) and key[0] == WATCHING[0]:  # ("watching", kind)
            codes = {
                code
                for code, sc in SCRIPTS.items()
                if sc.watch is not None and (not sc.watch_on or key[1] in sc.watch_on)
            }
        else:
            codes = {
                code
                for code, sc in SCRIPTS.items()
                if any(e.kind in ("trigger", "flip") and e.trigger_on == key for e in sc.effects)
            }
        assert ids == tuple(c.id for c in s.cards.values() if c.code in codes)


def check_board(s: State) -> None:
    """What the state keeps of its board (``State._board``, kept across facts and shared by
    ``derive`` until a card or a player is written) is what its cards and players say now."""
    board = s._board
    if board is None:
        return
    face_up = [c for c in caches._field_cards(s, None) if c.face_up]
    if board.face_up is not None:
        assert all(a is b for a, b in zip(board.face_up, face_up, strict=True))
    for seat, kept in enumerate(board.monsters):
        if kept is not None:
            want = [s.cards[c] for c in s.players[seat].monsters if c is not None]
            assert all(a is b for a, b in zip(kept, want, strict=True))
    for seat, got in zip((0, 1, None), board.field, strict=True):
        if got is not None:
            assert all(a is b for a, b in zip(got, caches._field_cards(s, seat), strict=True))
    if board.sources is not None:  # kept only where no card negates another and none is activating
        # a monster equipped as an Equip Spell Card has no monster effects (ruling EQ-1)
        want_sources = [(c.id, script_of(c)) for c in face_up if script_of(c) is not None and not equipped_as_spell(c)]
        assert [(c.id, sc) for c, sc in board.sources] == want_sources


def play_and_check(
    seed: int, decks: tuple[list[int], list[int]], randomness: float, check: bool = True, plain: bool = False
) -> list[list[Fact]]:
    """Play a duel with ``decide_state``, checking (``check``) every view, pending decision and
    legal actions against those of a cache-free copy after every action (``plain``: the views
    without an alias book too); the log's entries."""
    rnd = random.Random(seed)
    genesis = create(DuelConfig(seed=seed, decks=decks))
    entries = [genesis]
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
        entries.append(facts)
        passes += all(f["t"] in ("passed", "priority") for f in facts)
        vp.apply(facts)
        if not check:
            continue
        scratch = fresh(state)
        bookless = fresh(state) if plain else scratch
        for _twice in range(2):  # the board's digest is kept, and carried to the next state
            assert state_hash(state) == full_state_hash(scratch)
        check_roster(state)
        check_board(state)
        for v in (0, 1, None):
            for _twice in range(2):  # the second call is served from what the first one kept
                assert vp.view(state, v) == vp.view(scratch, v)
                assert vp.pending(state, v) == vp.pending(scratch, v)
            if plain:  # without a book (engine ids), and the operator's omniscient view
                assert view(state, v) == view(bookless, v)
                assert view(state, v, omniscient=True) == view(bookless, v, omniscient=True)
        nxt = pending(state)
        if nxt is not None:
            s2 = int(str(nxt["seat"]))
            assert vp.legal(state, s2) == vp.legal(scratch, s2)
    assert passes > 0
    return entries


@SETTINGS
@given(seed=st.integers(min_value=0, max_value=2**32), randomness=st.sampled_from([0.1, 0.5]))
def test_kept_views_equal_views_from_scratch(seed: int, randomness: float) -> None:
    play_and_check(seed, (demo_deck(seed % 3), demo_deck(1)), randomness)


# the decks with counters, equipped monsters (Sword Hunter), ATK/DEF changes and the Battle
# Phase's attacks left: every kind of rendering a view keeps
DECK_PAIRS = [
    ("counters", "battle-step"),
    ("end-step", "counters"),
    ("battle-step", "end-step"),
    ("counters", "counters"),
]


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**32), pair=st.sampled_from(DECK_PAIRS))
def test_kept_views_over_the_demo_decks(seed: int, pair: tuple[str, str]) -> None:
    play_and_check(seed, (deck_named(pair[0]), deck_named(pair[1])), 0.2, plain=True)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**32), pair=st.sampled_from(DECK_PAIRS))
def test_kept_views_of_a_state_folded_in_place(seed: int, pair: tuple[str, str]) -> None:
    """Replays fold a log into one state object (``fold_into``: its cards and players written
    in place): what views kept on them must go with every write."""
    entries = play_and_check(seed, (deck_named(pair[0]), deck_named(pair[1])), 0.2, check=False)
    state = initial()
    vp = Viewpoints(b"view-cache-test-key")
    for facts in entries:
        fold_into(state, facts)
        vp.apply(facts)
        scratch = fresh(state)
        for v in (0, 1, None):
            assert vp.view(state, v) == vp.view(scratch, v)
            assert vp.pending(state, v) == vp.pending(scratch, v)
