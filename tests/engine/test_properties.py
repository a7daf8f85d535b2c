"""Property tests: random legal play from random seeds.

- folding the log gives exactly the live state (DESIGN invariant 1);
- the same configuration and actions always give the same facts (determinism);
- no view of a seat, and no fact redacted for it, shows the opponent's hand,
  any deck order or a face-down card it does not own (invariant 5).
"""

from __future__ import annotations

import contextlib
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import State, Viewpoints, decide, fold, state_hash
from engine.kernel.cow import clone, deep_clone
from engine.kernel.hashing import to_plain
from tests.engine.play import play

SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(seed=st.integers(min_value=0, max_value=2**32), randomness=st.sampled_from([0.0, 0.3, 1.0]))
def test_fold_of_log_equals_live_state(seed: int, randomness: float) -> None:
    live, entries, _ = play(seed, policy_random=randomness, max_actions=600)
    replayed = fold([f for entry in entries for f in entry])
    assert state_hash(replayed) == state_hash(live)
    assert to_plain(replayed) == to_plain(live)


@SETTINGS
@given(seed=st.integers(min_value=0, max_value=2**32))
def test_same_actions_same_facts(seed: int) -> None:
    _, entries, actions = play(seed, max_actions=300)
    s = fold(entries[0])
    for (seat, action), facts in zip(actions, entries[1:], strict=True):
        assert decide(s, seat, action) == facts
        s = fold(facts, s)


@SETTINGS
@given(seed=st.integers(min_value=0, max_value=2**32))
def test_hand_written_clone_equals_deepcopy(seed: int) -> None:
    live, _, _ = play(seed, max_actions=200)
    assert to_plain(clone(live)) == to_plain(deep_clone(live))


def _hidden_ids(s: State, seat: int) -> dict[int, int]:
    """Card id -> passcode of every card ``seat`` must not be able to identify right now."""
    hidden: dict[int, int] = {}
    opp = 1 - seat
    for cid in s.players[opp].hand + s.players[0].deck + s.players[1].deck:
        hidden[cid] = s.cards[cid].code
    for c in s.monsters(opp) + s.spells_traps(opp):
        if not c.face_up:
            hidden[c.id] = c.code
    return hidden


def _walk(obj: Any) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    if isinstance(obj, dict):
        out.append(obj)
        for v in obj.values():
            out.extend(_walk(v))
    elif isinstance(obj, list | tuple):
        for v in obj:
            out.extend(_walk(v))
    return out


def _leaks(obj: Any, hidden: dict[int, int], vp: Viewpoints, seat: int | None) -> list[dict[str, Any]]:
    """Maps that name a hidden card (by the viewer's alias) together with its identity."""
    bad = []
    for d in _walk(obj):
        alias = d.get("id", d.get("card"))
        cid = vp.book.card_of(seat, alias) if isinstance(alias, int) else None
        if cid is not None and cid in hidden and ("code" in d or "name" in d) and "link" not in d:
            bad.append(d)
    return bad


@SETTINGS
@given(seed=st.integers(min_value=0, max_value=2**32))
def test_views_and_redacted_facts_hide_hidden_cards(seed: int) -> None:
    """The views and facts ``Viewpoints`` gives each seat and a spectator (tests/engine/test_secrecy.py
    plays the stronger cheater game with effect-heavy decks)."""
    _live, entries, _ = play(seed, max_actions=400, policy_random=0.3)
    vp = Viewpoints(b"property-test-alias-key")
    s = State()
    for entry in entries:
        seen = vp.apply(entry)
        s = fold(entry, s)
        for seat in (0, 1):
            hidden = _hidden_ids(s, seat)
            v = vp.view(s, seat)
            assert not _leaks(v, hidden, vp, seat), _leaks(v, hidden, vp, seat)[:1]
            for r in seen[seat]:
                assert not _leaks(
                    r,
                    {k: c for k, c in hidden.items() if s.cards[k].zone == "deck" or s.cards[k].owner != seat},
                    vp,
                    seat,
                ), r
                assert "order" not in r and "rng" not in r and "decks" not in r
        spectator = vp.view(s, None)
        assert not _leaks(spectator, {**_hidden_ids(s, 0), **_hidden_ids(s, 1)}, vp, None)


JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 3000) | st.text(max_size=8),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=12,
)
ACTION_KEYS = st.sampled_from(
    ["do", "card", "with", "target", "cost", "tribute", "direct", "effect", "choose", "cards", "option"]
)
DOS = st.sampled_from(
    ["pass", "attack", "activate", "summon", "set", "retarget", "choose", "next_phase", "concede", "x"]
)


@SETTINGS
@given(
    seed=st.integers(min_value=0, max_value=2**16),
    steps=st.integers(min_value=0, max_value=120),
    junk=st.lists(
        st.dictionaries(ACTION_KEYS, JSONISH, max_size=5).map(lambda d: d) | JSONISH, min_size=1, max_size=20
    ),
    dos=st.lists(DOS, min_size=20, max_size=20),
)
def test_junk_actions_only_ever_raise_illegal_action(seed: int, steps: int, junk: list[Any], dos: list[str]) -> None:
    """Whatever a client sends, decide answers with facts or IllegalAction, never another error."""
    from engine import IllegalAction, pending

    live, _entries, _ = play(seed, max_actions=steps)
    p = pending(live)
    if p is None:
        return
    for i, raw in enumerate(junk):
        action = dict(raw, do=dos[i]) if isinstance(raw, dict) and "do" not in raw and i % 2 == 0 else raw
        for seat in (0, 1):
            with contextlib.suppress(IllegalAction):
                decide(live, seat, action)
