"""Regression tests for the leaks of issue 8, each through what ``Viewpoints`` sends.

1. A card id no longer follows a card through a hidden place: a monster
   returned to its owner's hand and Set again is a new, unlinkable object for
   the opponent; Deck cards carry no ids at all (ids were once given in
   shuffled order, so a Deck listing told the Deck's order).
2. Facts about a hidden card do not carry it: the watch flag Tualatin keeps in
   its owner's hand and its optional trigger (fact and decision) reach nobody
   but its owner before it is activated.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from engine import DuelConfig, Viewpoints, create, demo_deck, fold
from engine.scenario import Runner
from engine.state import State
from tests.engine.test_secrecy import collect_ids, walk

KEY = b"regression-alias-key-0123456789"
SCENARIOS = Path(__file__).parent.parent / "scenarios"


def frames(
    entries: list[list[dict[str, Any]]], viewer: int | None
) -> list[tuple[list[dict[str, Any]], dict[str, Any], State]]:
    """For each entry: the facts ``viewer`` got, its view after the entry, and the state."""
    vp = Viewpoints(KEY)
    state = State()
    out = []
    for facts in entries:
        seen = vp.apply(facts)[2 if viewer is None else viewer]
        state = fold(facts, state)
        out.append((seen, vp.view(state, viewer), state))
    return out


BOUNCE = """
format: 1
name: a monster returned to the hand and Set again
auto_pass: true
start:
  turn: 3
  turn_player: B
  phase: main1
  A:
    hand: [Mystical Elf, Feral Imp]
    deck: [Silver Fang, Battle Ox, Vorse Raider]
    monsters: [{card: Celtic Guardian, as: cg}]
  B:
    deck: [Gemini Elf, Luster Dragon]
    monsters: [{card: Nightmare Penguin, as: penguin, position: set}]
steps:
  - {B: flip_summon, card: penguin}
  - {pass_until: {chain: []}}
  - expect: {zone: {cg: hand}}
  - {B: end_turn}
  - {pass_until: {turn_player: A, phase: main1}}
  - {A: set, card: cg}
  - expect: {zone: {cg: monsters}, position: {cg: set}}
"""


def test_a_card_returned_to_the_hand_and_set_again_cannot_be_recognised() -> None:
    doc = yaml.safe_load(BOUNCE)
    runner = Runner(doc)
    result = runner.run()
    assert result.ok, result.failure
    cg_code = result.state.cards[runner.labels["cg"]].code
    seen_by_b = frames(result.entries, 1)
    ids_with_cg: set[int] = set()
    set_ids: list[int] = []
    for facts, view, _state in seen_by_b:
        for d in walk(facts) + walk(view):
            if d.get("code") == cg_code and isinstance(d.get("card", d.get("id")), int):
                ids_with_cg.add(d.get("card", d.get("id")))
        for f in facts:
            if f["t"] == "moved" and f.get("from") == "hand" and f.get("to") == "monsters":
                assert "code" not in f, f"B learns what A Set: {f}"
                set_ids.append(f["card"])
    assert ids_with_cg, "B saw Celtic Guardian on the field and returning to the hand"
    assert len(set_ids) == 1
    assert set_ids[0] not in ids_with_cg, "the Set card has the id B saw on Celtic Guardian"
    # and nothing before the Set named that id: it is a new object
    first = next(i for i, (facts, _v, _s) in enumerate(seen_by_b) if set_ids[0] in collect_ids(facts))
    assert all(set_ids[0] not in collect_ids(f) + collect_ids(v) for f, v, _s in seen_by_b[:first])
    # A's hand has no ids for B at any point
    for _facts, view, _state in seen_by_b:
        assert all("id" not in c for c in view["players"][0]["hand"])


def test_deck_cards_have_no_ids_and_draws_are_anonymous_for_the_opponent() -> None:
    genesis = create(DuelConfig(seed=11, decks=(demo_deck(0), demo_deck(1))))
    state = fold(genesis)
    for viewer in (0, 1, None):
        vp = Viewpoints(KEY)
        facts = vp.apply(genesis)[2 if viewer is None else viewer]
        view = vp.view(state, viewer)
        started = next(f for f in facts if f["t"] == "duel_started")
        assert set(started) == {"t", "first", "lp", "options", "deck_counts", "extra_counts"}
        draws = [f for f in facts if f["t"] == "drew"]
        assert len(draws) == 10
        for f in draws:
            owner_sees = viewer == f["seat"]
            assert ("card" in f) == owner_sees and ("code" in f) == owner_sees, (viewer, f)
        for seat in (0, 1):
            hand = view["players"][seat]["hand"]
            assert len(hand) == 5
            assert all(("id" in c) == (viewer == seat) for c in hand)
        named = [vp.book.card_of(viewer, alias) for alias in collect_ids(facts) + collect_ids(view)]
        assert all(cid is not None and state.cards[cid].zone != "deck" for cid in named)
        assert len(named) >= (10 if viewer is not None else 0)  # a seat names its own 5 cards


def test_tualatin_in_the_hand_betrays_itself_to_nobody_before_it_is_activated() -> None:
    doc = yaml.safe_load((SCENARIOS / "cards" / "tualatin.yaml").read_text())
    runner = Runner(doc)
    result = runner.run()
    assert result.ok, result.failure
    tualatin = result.state.cards[runner.labels["tualatin"]]
    vp = Viewpoints(KEY)
    state = State()
    trigger_pending_seen = False
    for facts in result.entries:
        activated = any(f["t"] == "activated" and f["card"] == tualatin.id for f in facts)
        seen = vp.apply(facts)
        state = fold(facts, state)
        for viewer in (1, None):  # the opponent and a spectator
            got = seen[2 if viewer is None else viewer]
            assert not any(f["t"] in ("flag", "triggered", "choice", "trigger_done") for f in got), got
            if not activated and state.cards[tualatin.id].zone == "hand":
                assert tualatin.code not in [d.get("code") for d in walk(got)]
            shown = vp.pending(state, viewer)
            if state.choice is not None and state.choice.get("card") == tualatin.id:
                trigger_pending_seen = True
                assert shown == {"seat": 0, "kind": "priority", "prompt": "waiting for A"}
                assert vp.view(state, viewer)["priority"] == 0  # not the turn player's (B's) priority
                assert vp.pending(state, 0)["kind"] == "trigger"  # type: ignore[index]
        # the owner does see its own trigger
        if any(f["t"] == "triggered" and f["card"] == tualatin.id for f in facts):
            assert any(f["t"] == "triggered" and f.get("code") == tualatin.code for f in seen[0])
    assert trigger_pending_seen, "the scenario reaches Tualatin's trigger decision"


def test_trap_dustshoot_shows_the_hand_to_its_controller_alone() -> None:
    """Trap Dustshoot ("Look at your opponent's hand"): the hand is shown to B, who activated it,
    and to A, whose hand it is; a spectator learns only how many cards were shown, and B's
    question names the cards of A's hand (issue 37: revealing shows a card to whom the text
    shows it)."""
    doc = yaml.safe_load((SCENARIOS / "cards" / "trap_dustshoot.yaml").read_text())
    runner = Runner(doc)
    result = runner.run()
    assert result.ok, result.failure
    hand_codes = {result.state.cards[runner.labels[x]].code for x in ("vorse", "hole", "mirror")}
    hand_ids = {runner.labels[x] for x in ("vorse", "hole", "ox", "mirror")}
    vp = Viewpoints(KEY)
    state = State()
    reveals = 0
    for facts in result.entries:
        seen = vp.apply(facts)
        state = fold(facts, state)
        for viewer in (0, 1, None):
            got = [f for f in seen[2 if viewer is None else viewer] if f["t"] == "revealed"]
            for f in got:
                reveals += 1
                assert f["seat"] == 0 and f["shown_to"] == 1 and f["count"] == 4
                if viewer is None:
                    assert "codes" not in f and "cards" not in f, f
                else:
                    assert len(f["codes"]) == 4 and hand_codes <= set(f["codes"])
                    assert {vp.book.card_of(viewer, a) for a in f["cards"]} == hand_ids
        if state.choice is not None and state.choice.get("revealed"):
            asked = vp.pending(state, 1)
            assert asked is not None and {c["name"] for c in asked["cards"]} == {"Vorse Raider", "Battle Ox"}
            assert "cards" not in (vp.pending(state, None) or {})
    assert reveals == 3  # one fact, seen by each viewer


def test_a_face_down_monster_taken_by_mind_control_is_shown_to_its_new_controller_only() -> None:
    """Ruling GEN-30: a face-down monster whose control changes stays face-down; its new controller
    may look at it (the view shows it to them), a spectator may not."""
    doc = yaml.safe_load((SCENARIOS / "cards" / "mind_control.yaml").read_text())
    runner = Runner(doc)
    result = runner.run()
    assert result.ok, result.failure
    soldier = result.state.cards[runner.labels["soldier"]]
    taken = next(
        i for i, facts in enumerate(result.entries) if any(f["t"] == "moved" and f["card"] == soldier.id for f in facts)
    )
    for viewer, sees in ((0, True), (None, False)):
        _facts, view, state = frames(result.entries, viewer)[taken]
        assert state.cards[soldier.id].controller == 0 and not state.cards[soldier.id].face_up
        shown = [c for c in view["players"][0]["monsters"] if c is not None and c.get("position") == "set"]
        assert len(shown) == 1
        assert (shown[0].get("code") == soldier.code) == sees, (viewer, shown)
