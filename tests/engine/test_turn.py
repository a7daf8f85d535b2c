"""The turn: no Battle Phase on turn 1, one attack per monster, direct attacks, deck-out,
entering the Battle Phase is optional (seed 000)."""

from __future__ import annotations

from engine import DuelConfig, create, decide, demo_deck, fold, legal_actions, pending
from engine.types import IllegalAction
from tests.engine.helpers import act, can, pass_until, position


def new_duel(seed: int = 1) -> object:
    return fold(create(DuelConfig(seed=seed, decks=(demo_deck(0), demo_deck(1)))))


def test_first_player_has_no_battle_phase_and_no_draw() -> None:
    s = new_duel()
    assert s.turn == 1 and s.turn_player == 0  # type: ignore[attr-defined]
    assert len(s.players[0].hand) == 5  # type: ignore[attr-defined]
    s = pass_until(s, lambda st: st.phase == "main1")
    assert not can(s, 0, do="enter_battle_phase")
    try:
        decide(s, 0, {"do": "enter_battle_phase"})  # type: ignore[arg-type]
        raise AssertionError("entering the Battle Phase on turn 1 must be illegal")
    except IllegalAction as e:
        assert e.code == "action/illegal" and "first turn" in e.reason
    s = pass_until(s, lambda st: st.turn == 2)
    assert s.phase == "draw" and len(s.players[1].hand) == 6  # type: ignore[attr-defined]


def test_not_entering_goes_to_end_phase_not_main2() -> None:
    s, _ = position({"turn": 3, "turn_player": "A", "phase": "main1", "A": {}, "B": {}})
    s = act(s, 0, {"do": "end_turn"})
    s = act(s, 1, {"do": "pass"})
    assert s.phase == "end"


def test_each_monster_attacks_once() -> None:
    s, lb = position(
        {
            "turn": 3,
            "turn_player": "A",
            "phase": "battle",
            "step": "battle",
            "A": {"monsters": [{"card": "Dark Magician", "as": "dm"}]},
            "B": {"monsters": [{"card": "Celtic Guardian", "as": "cg"}, {"card": "Mystical Elf", "as": "elf"}]},
        }
    )
    s = act(s, 0, {"do": "attack", "with": lb["dm"], "target": lb["cg"]})
    s = pass_until(s, lambda st: st.attack is None and st.step == "battle")
    assert not can(s, 0, do="attack", **{"with": lb["dm"]})
    before = s
    try:
        decide(s, 0, {"do": "attack", "with": lb["dm"], "target": lb["elf"]})
        raise AssertionError("a second attack must be illegal")
    except IllegalAction as e:
        assert "already attacked" in e.reason
    assert s is before


def test_direct_attack_only_when_opponent_has_no_monsters() -> None:
    s, lb = position(
        {
            "turn": 3,
            "turn_player": "A",
            "phase": "battle",
            "step": "battle",
            "A": {"monsters": [{"card": "Dark Magician", "as": "dm"}]},
            "B": {"monsters": [{"card": "Mystical Elf", "as": "elf", "position": "set"}]},
        }
    )
    assert not can(s, 0, do="attack", direct=True)
    assert can(s, 0, do="attack", target=lb["elf"])
    s2, _lb2 = position(
        {
            "turn": 3,
            "turn_player": "A",
            "phase": "battle",
            "step": "battle",
            "A": {"monsters": [{"card": "Dark Magician", "as": "dm"}]},
            "B": {},
        }
    )
    assert can(s2, 0, do="attack", direct=True)


def test_deck_out_ends_the_duel() -> None:
    s, _ = position({"turn": 3, "turn_player": "A", "phase": "end", "A": {}, "B": {"deck": []}})
    s = act(s, 0, {"do": "pass"})
    s = act(s, 1, {"do": "pass"})
    assert s.finished and s.winner == 0 and s.end_reason == "deck_out"
    assert pending(s) is None and legal_actions(s, 1) == []


def test_out_of_turn_action_is_rejected() -> None:
    s = new_duel()
    try:
        decide(s, 1, {"do": "pass"})  # type: ignore[arg-type]
        raise AssertionError("acting out of turn must fail")
    except IllegalAction as e:
        assert e.code == "action/not_your_priority"


def test_concede_ends_the_duel_at_any_time() -> None:
    s = new_duel()
    facts = decide(s, 1, {"do": "concede"})  # type: ignore[arg-type]
    s2 = fold(facts, s)  # type: ignore[arg-type]
    assert s2.winner == 0 and s2.end_reason == "concede"


def test_hand_limit_discard_in_end_phase() -> None:
    hand = ["Celtic Guardian"] * 3 + ["Mystical Elf"] * 3 + ["Feral Imp"] * 2
    s, _ = position({"turn": 3, "turn_player": "A", "phase": "end", "A": {"hand": hand}, "B": {"deck": ["Battle Ox"]}})
    s = act(s, 0, {"do": "pass"})
    s = act(s, 1, {"do": "pass"})
    p = pending(s)
    assert p is not None and p["kind"] == "discard" and p["seat"] == 0
    choice = legal_actions(s, 0)[0]
    assert len(choice["cards"]) == 2
    s = act(s, 0, choice)
    assert len(s.players[0].hand) == 6 and s.turn == 4


def test_auto_pass_option_skips_only_windows_with_nothing_but_pass() -> None:
    start = {
        "turn": 3,
        "turn_player": "A",
        "phase": "battle",
        "step": "battle",
        "A": {"monsters": [{"card": "Dark Magician", "as": "dm"}]},
        "B": {
            "monsters": [{"card": "Celtic Guardian", "as": "cg"}],
            "spells_traps": [{"card": "Sakuretsu Armor", "as": "sak", "set": True}],
        },
    }
    strict, lb = position(start)
    s = act(strict, 0, {"do": "attack", "with": lb["dm"], "target": lb["cg"]})
    assert pending(s)["seat"] == 1  # type: ignore[index]   # B may answer with Sakuretsu Armor
    s = act(s, 1, {"do": "pass"})
    assert s.damage_step == "start_of_damage_step" and pending(s)["seat"] == 0  # type: ignore[index]

    from engine.scenario import start_state

    casual, lb2, _ = start_state({"format": 1, "start": start})
    casual.options["auto_pass"] = True
    s = act(casual, 0, {"do": "attack", "with": lb2["dm"], "target": lb2["cg"]})
    assert pending(s)["seat"] == 1  # type: ignore[index]   # B can still act: asked
    s = act(s, 1, {"do": "pass"})
    # nobody can do anything until the Battle Step again: the whole Damage Step is skipped
    assert s.step == "battle" and s.attack is None and s.cards[lb2["cg"]].zone == "graveyard"
    assert pending(s)["seat"] == 0  # type: ignore[index]


def test_malformed_actions_are_refused_with_a_reason_and_change_nothing() -> None:
    from engine import state_hash

    s = new_duel()
    before = state_hash(s)  # type: ignore[arg-type]
    cases = {
        "'with' must be a card id": {"do": "attack", "with": "abc"},
        "'card' must be a card id": {"do": "summon", "card": [1, 2]},
        "unexpected field(s) for 'pass': extra": {"do": "pass", "extra": {"x": 1}},
        "unknown action 'frobnicate'": {"do": "frobnicate"},
        "no such card": {"do": "activate", "card": 99999},
    }
    for reason, action in cases.items():
        try:
            decide(s, 0, action)  # type: ignore[arg-type]
            raise AssertionError(f"{action} must be refused")
        except IllegalAction as e:
            assert reason in e.reason, (action, e.reason)
    for junk in ("pass", None, 5, {"do": 5}, {"nodo": 1}):
        try:
            decide(s, 0, junk)  # type: ignore[arg-type]
            raise AssertionError(f"{junk!r} must be refused")
        except IllegalAction as e:
            assert e.code == "action/malformed"
    assert state_hash(s) == before  # type: ignore[arg-type]
