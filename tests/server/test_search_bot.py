"""The ``search`` bot policy (server/clients/search/): it decides from what a client receives and
nothing else (the same view with other hidden cards behind it gets the same decisions), it plays
every demo deck to a result (every decision kind answered with a legal action), it answers
questions by rule, and it thinks in a worker process without holding up the event loop. No
clock is involved: the searches here are bounded by worlds, not seconds."""

from __future__ import annotations

import asyncio
import copy
import random
from typing import Any

import pytest

from engine import DuelConfig, State, Viewpoints, create, decide_state, fold, pending
from engine.deckguess import split
from engine.decks import DECKS_BY_NAME, DEMO_DECKS
from server.clients.bot import POLICIES, greedy
from server.clients.search import pool
from server.clients.search.arena import play
from server.clients.search.monte_carlo import SearchConfig, candidates
from server.clients.search.policy import SearchPolicy, answer

FIXED = SearchConfig(budget_s=None, worlds=2, max_steps=60)
"""A search bounded by worlds alone: its decisions are a function of what it is given and its seed."""


def _start(names: tuple[str, str], seed: int) -> tuple[State, Viewpoints, list[Any]]:
    decks = [DECKS_BY_NAME[n] for n in names]
    lists = [split(d.codes()) for d in decks]
    fmt = decks[0].format
    facts = create(
        DuelConfig(
            seed=seed,
            decks=(list(lists[0].main), list(lists[1].main)),
            extra=(list(lists[0].extra), list(lists[1].extra)),
            options={} if fmt == "current" else {"format": fmt},
        )
    )
    vp = Viewpoints(bytes(range(32)))
    seen = vp.apply(facts)
    return fold(facts), vp, [seen]


def _other_truth(s: State, seat: int, rnd: random.Random) -> State:
    """``s`` with what ``seat`` cannot see changed: the opponent's hand swapped with cards of its
    Deck, and both Decks in another order."""
    t = copy.deepcopy(s)
    opp = t.players[1 - seat]
    hand, deck = list(opp.hand), list(opp.deck)
    swaps = min(len(hand), len(deck))
    for a, b in zip(hand[:swaps], rnd.sample(deck, swaps), strict=True):
        ca, cb = t.cards[a], t.cards[b]
        ca.code, cb.code = cb.code, ca.code
        for c in (ca, cb):
            c._data = None
            c._packed = None
            c._memo = None
    for p in t.players:
        rnd.shuffle(p.deck)
        p._packed = None
        p._memo = None
    t._memo = None
    t._board = None
    t._roster = None
    return t


def test_no_peeking_the_same_view_gets_the_same_decisions_whatever_is_hidden_behind_it() -> None:
    """At each of seat 0's searched decisions of a duel, the true state is swapped for another one
    its view cannot tell apart (the opponent's hand and the Decks changed): two fresh policies
    given the same updates, view, legal actions and seed decide the same."""
    state, vp, updates = _start(("battle-step", "end-step"), seed=21)
    rnd = random.Random(3)
    compared = differed = 0
    for _ in range(400):
        owed = pending(state)
        if owed is None:
            break
        seat = owed["seat"]
        legal = vp.legal(state, seat)
        if seat == 0 and len(candidates(legal)) > 1 and compared < 8:
            other = _other_truth(state, 0, rnd)
            assert vp.view(other, 0) == vp.view(state, 0) and vp.legal(other, 0) == legal  # the client cannot tell
            theirs = sorted(state.cards[c].code for c in state.players[1].hand)
            differed += theirs != sorted(other.cards[c].code for c in other.players[1].hand)
            picks = []
            for truth in (state, other):
                policy = SearchPolicy(FIXED)
                for update in updates:
                    policy.observe([dict(f) for f in update[0]])
                picks.append(policy(vp.view(truth, 0), vp.legal(truth, 0), random.Random(compared)))
            assert picks[0] == picks[1]
            compared += 1
        action = greedy(vp.view(state, seat), legal, rnd)
        facts, state = decide_state(state, seat, vp.to_engine(seat, action))
        updates.append(vp.apply(facts))
    assert compared == 8 and differed >= 4


@pytest.mark.parametrize("deck", [d.name for d in DEMO_DECKS])
def test_it_plays_every_demo_deck_to_a_result(deck: str) -> None:
    """Against greedy with the same deck (each seat once over the decks); every decision kind it
    meets is answered with a legal action (the arena's ``decide_state`` refuses any other)."""
    seat = DEMO_DECKS.index(DECKS_BY_NAME[deck]) % 2
    policy = SearchPolicy(SearchConfig(budget_s=None, worlds=1, max_steps=40))
    policies = (policy, greedy) if seat == 0 else (greedy, policy)
    record = play((deck, deck), policies, seed=7)
    assert record.winner in (0, 1, "draw") and record.turns > 1
    assert policy.searched > 0 and len(policy.thought) == policy.searched


def _view(cards: dict[str, list[dict[str, Any]]], pending: dict[str, Any]) -> dict[str, Any]:
    me = {"hand": cards.get("hand", []), "monsters": cards.get("monsters", [None] * 5), "graveyard": []}
    them = {"hand": [], "monsters": cards.get("theirs", [None] * 5), "graveyard": []}
    return {"you": 0, "players": [me, them], "pending": pending}


def test_questions_are_answered_by_rule_fetch_the_best_give_the_least() -> None:
    ogre = {"id": 1, "code": DECKS_BY_NAME["classic-a"].main_codes()[0], "zone": "hand", "controller": 0}
    skull = {"id": 2, "code": 70781052, "zone": "hand", "controller": 0}  # Summoned Skull, 2500 ATK
    view = _view({"hand": [ogre, skull]}, {"kind": "discard"})
    legal = [{"do": "choose", "cards": [1]}, {"do": "choose", "cards": [2]}]
    assert answer(view, view["pending"], legal, 0, random.Random(0)) == {"do": "choose", "cards": [1]}
    # from the Deck (ids only the prompt names), the strongest
    offered = {"kind": "cards", "cards": [{"id": 7, "code": ogre["code"]}, {"id": 8, "code": 70781052}]}
    view = _view({}, offered)
    legal = [{"do": "choose", "cards": [7]}, {"do": "choose", "cards": [8]}]
    assert answer(view, offered, legal, 0, random.Random(0)) == {"do": "choose", "cards": [8]}
    # a trigger is activated
    legal = [{"do": "pass"}, {"do": "activate", "card": 3, "effect": 1}]
    assert answer(_view({}, {"kind": "trigger"}), {"kind": "trigger"}, legal, 0, random.Random(0))["do"] == "activate"


def test_moving_on_is_one_candidate_and_a_lone_one_is_not_searched() -> None:
    legal = [{"do": "pass"}, {"do": "next_phase"}, {"do": "end_turn"}, {"do": "finish_turn"}, {"do": "concede"}]
    assert candidates(legal) == [0]
    legal = [{"do": "summon", "card": 5}, {"do": "enter_battle_phase"}, {"do": "end_turn"}]
    assert candidates(legal) == [0, 1]
    policy = SearchPolicy(FIXED)
    view = {"you": 0, "turn": 1, "players": [{}, {}], "pending": {"kind": "priority"}}
    assert policy(view, [{"do": "pass"}, {"do": "end_turn"}], random.Random(0)) == {"do": "pass"}
    assert policy.searched == 0 and policy.decisions == 1


def test_the_strengths_are_policies() -> None:
    budgets = {name: POLICIES[name]().config.budget_s for name in ("search-quick", "search", "search-strong")}  # type: ignore[attr-defined]
    assert budgets == {"search-quick": 0.1, "search": 0.5, "search-strong": 1.5}


def test_it_thinks_in_a_worker_process_while_the_event_loop_goes_on() -> None:
    state, vp, updates = _start(("battle-step", "end-step"), seed=4)
    rnd = random.Random(1)
    while True:  # a decision of seat 0 worth a search
        owed = pending(state)
        assert owed is not None
        seat = owed["seat"]
        legal = vp.legal(state, seat)
        if seat == 0 and len(candidates(legal)) > 1:
            break
        facts, state = decide_state(state, seat, vp.to_engine(seat, greedy(vp.view(state, seat), legal, rnd)))
        updates.append(vp.apply(facts))

    async def body() -> tuple[dict[str, Any], int]:
        policy = SearchPolicy(SearchConfig(budget_s=None, worlds=3))
        for update in updates:
            policy.observe([dict(f) for f in update[0]])
        ticks = 0
        thinking = asyncio.ensure_future(policy.think(vp.view(state, 0), legal, random.Random(2)))
        while not thinking.done():
            ticks += 1
            await asyncio.sleep(0.01)
        return await thinking, ticks

    pool.configure(1)
    try:
        action, ticks = asyncio.run(body())
    finally:
        pool.shutdown()
    assert action in legal
    assert ticks > 0  # the loop ran while the worker searched
