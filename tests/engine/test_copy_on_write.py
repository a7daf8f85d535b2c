"""Copy-on-write states (docs/adr/0006): no state ever sees another's changes.

- ``decide_state`` gives exactly ``fold(facts, state)`` (hash and every field);
- ``fold``/``decide``/``decide_state`` leave their input as a ``copy.deepcopy`` taken
  before shows it, also when the action is refused, or when the rules fail half-way
  through an action after having written cards;
- the state two different actions lead to from one state are independent.
"""

from __future__ import annotations

import copy
import importlib
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import (
    IllegalAction,
    State,
    decide,
    decide_state,
    fold,
    fold_into,
    legal_actions,
    pending,
    state_hash,
)
from engine.kernel.hashing import full_state_hash, to_plain
from tests.engine.play import play

decide_module = importlib.import_module("engine.decide")
SETTINGS = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _states(seed: int, max_actions: int = 250) -> list[tuple[State, int, dict[str, Any]]]:
    """(state, seat, action taken) along a random duel, every state kept."""
    live, entries, actions = play(seed, policy_random=0.3, max_actions=max_actions)
    out = []
    s = fold(entries[0])
    for (seat, action), facts in zip(actions, entries[1:], strict=True):
        out.append((s, seat, action))
        s = fold(facts, s)
    assert state_hash(s) == state_hash(live)
    return out


@SETTINGS
@given(seed=st.integers(min_value=0, max_value=2**32))
def test_decide_state_equals_fold_of_its_facts(seed: int) -> None:
    for s, seat, action in _states(seed):
        facts, new = decide_state(s, seat, action)
        folded = fold(facts, s)
        assert state_hash(new) == state_hash(folded) == full_state_hash(folded)
        assert to_plain(new) == to_plain(folded)
        assert facts == decide(s, seat, action)


@SETTINGS
@given(seed=st.integers(min_value=0, max_value=2**32))
def test_inputs_never_change(seed: int) -> None:
    rnd = random.Random(seed)
    kept = _states(seed, max_actions=150)
    before = [copy.deepcopy(s) for s, _, _ in kept]
    for s, seat, action in kept:
        facts, new = decide_state(s, seat, action)
        fold(facts, s)
        fold_into(new, [])  # writing the new state in place must not reach the old one
        if not new.finished:
            nxt = pending(new)
            assert nxt is not None
            nseat = int(str(nxt["seat"]))
            decide_state(new, nseat, rnd.choice(legal_actions(new, nseat)))
    for (s, _, _), b in zip(kept, before, strict=True):
        assert to_plain(s) == to_plain(b)
        assert state_hash(s) == full_state_hash(b)


@SETTINGS
@given(seed=st.integers(min_value=0, max_value=2**32))
def test_two_actions_from_one_state_are_independent(seed: int) -> None:
    rnd = random.Random(seed)
    for s, seat, _ in _states(seed, max_actions=120)[::7]:
        acts = legal_actions(s, seat)
        a, b = rnd.choice(acts), rnd.choice(acts)
        fa, sa = decide_state(s, seat, a)
        fb, sb = decide_state(s, seat, b)
        # each equals the fold of its own facts over a private copy of the start
        assert to_plain(sa) == to_plain(fold(fa, copy.deepcopy(s)))
        assert to_plain(sb) == to_plain(fold(fb, copy.deepcopy(s)))


def test_refused_action_changes_nothing() -> None:
    for s, seat, _ in _states(5, max_actions=150):
        snapshot = copy.deepcopy(s)
        for bad in ({"do": "attack", "with": 999999, "target": 1}, {"do": "summon", "card": -5}, {"do": "fly"}):
            with pytest.raises(IllegalAction):
                decide_state(s, seat, bad)
        with pytest.raises(IllegalAction):
            decide(s, 1 - seat, {"do": "pass"})  # not its decision
        assert to_plain(s) == to_plain(snapshot)


@pytest.mark.pure_engine
def test_failure_half_way_through_an_action_changes_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """The rules raise after the action has already moved cards (written in place under the
    journal): the input, and every state sharing cards with it, are as before."""
    kept = _states(11, max_actions=200)
    older = [copy.deepcopy(s) for s, _, _ in kept]

    def broken_settle(ctx: Any) -> None:
        assert ctx.facts  # the action did write something before failing
        raise IllegalAction("action/illegal", "refused half-way")

    monkeypatch.setattr(decide_module, "settle", broken_settle)
    tried = 0
    for s, seat, action in kept:
        if action["do"] in ("summon", "set", "activate", "attack"):
            with pytest.raises(IllegalAction):
                decide_state(s, seat, action)
            tried += 1
    assert tried > 5
    for (s, _, _), b in zip(kept, older, strict=True):
        assert to_plain(s) == to_plain(b)


@SETTINGS
@given(seed=st.integers(min_value=0, max_value=2**32))
def test_cached_state_hash_is_the_full_hash(seed: int) -> None:
    """``state_hash`` keeps each card's packed bytes until the card is written: walking a log
    in place (cards written after their bytes were cached) and along kept states, it always
    equals the hash of the whole state packed from scratch (the golden logs' definition)."""
    _, entries, _ = play(seed, policy_random=0.3, max_actions=200)
    walked = fold([])
    kept = fold([])
    for facts in entries:
        fold_into(walked, facts)
        kept = fold(facts, kept)
        assert state_hash(walked) == full_state_hash(walked) == state_hash(kept) == full_state_hash(kept)


def test_a_state_with_its_caches_filled_survives_a_server_snapshot() -> None:
    """The caches (``Card._memo``, ``State._w``) are not part of the state: a snapshot of a
    copy-on-write state whose card bytes are cached holds the state alone and loads back to a
    state with the same hash."""
    from engine import Viewpoints
    from server.match import snapshots

    kept = _states(3, max_actions=120)
    s, seat, action = kept[-1]
    _, new = decide_state(s, seat, action)
    digest = state_hash(new)  # fills the cards' packed bytes
    assert isinstance(new._w, set)
    blob = snapshots.dumps(snapshots.Snapshot(1, digest, 0, new, Viewpoints(b"k").book, None))
    back = snapshots.loads(blob, b"k").state
    assert back._w is None and all(c._memo is None for c in back.cards.values())
    assert full_state_hash(back) == digest and to_plain(back) == to_plain(new)


def test_the_cards_dict_is_shared_until_a_card_is_written() -> None:
    """``derive`` shares the cards dict too (``own_cards``): a pass writes no card and keeps the
    dict of the state before; a write copies it first, in whichever state writes."""
    from engine.kernel.cow import derive, write_card

    s = fold(play(3, max_actions=40)[1][0])
    owed = pending(s)
    assert owed is not None
    seat = int(str(owed["seat"]))
    facts, after = decide_state(s, seat, {"do": "pass"})
    assert [f.t for f in facts] == ["passed"] and after.cards is s.cards  # the Draw Phase's first window
    a, b = derive(s), derive(s)
    assert a.cards is b.cards is s.cards
    cid = next(iter(s.cards))
    before = s.cards[cid]
    write_card(a, cid).attacks += 1
    assert a.cards is not s.cards and a.cards[cid] is not before and a.cards[cid].attacks == before.attacks + 1
    assert b.cards is s.cards and s.cards[cid] is before  # the others see nothing
    write_card(s, cid).attacks += 2
    assert s.cards is not b.cards and b.cards[cid] is before and before.attacks == a.cards[cid].attacks - 1


def test_a_token_made_by_an_action_is_in_the_new_state_only() -> None:
    """A card added by an action (Scapegoat's Sheep Tokens, ``kernel.cow.add_card``) goes into the
    new state's own cards dict: the state before, which shared its dict, is unchanged, and the
    new state equals the fold of the facts."""
    from engine.scenario import start_state

    doc = {
        "format": 1,
        "start": {
            "turn": 3,
            "phase": "main1",
            "A": {"hand": [{"card": "Scapegoat", "as": "goat"}]},
            "B": {},
        },
    }
    s, labels, _ = start_state(doc)
    s1 = decide_state(s, 0, {"do": "activate", "card": labels["goat"]})[1]
    s1 = decide_state(s1, 1, {"do": "pass"})[1]
    before = copy.deepcopy(s1)
    facts, s2 = decide_state(s1, 0, {"do": "pass"})
    assert len(s2.cards) == len(s1.cards) + 4
    assert len(s1.cards) == len(before.cards) and to_plain(s1) == to_plain(before)
    assert full_state_hash(s2) == full_state_hash(fold(facts, s1))
    assert sum(1 for c in s2.cards.values() if c.data.name == "Sheep Token") == 4
