"""Damage calculation table (seed 003; Rulebook): ATK vs ATK, ATK vs DEF, direct attacks."""

from __future__ import annotations

import pytest

from engine import pending
from tests.engine.helpers import act, pass_until, position


def battle(att: str, tgt: str | None, tgt_pos: str = "attack") -> tuple[object, dict[str, int]]:
    start = {
        "turn": 3,
        "turn_player": "A",
        "phase": "battle",
        "step": "battle",
        "A": {"monsters": [{"card": att, "as": "att"}]},
        "B": {"monsters": [{"card": tgt, "as": "tgt", "position": tgt_pos}] if tgt else []},
    }
    s, labels = position(start)
    action = {"do": "attack", "with": labels["att"]}
    action.update({"target": labels["tgt"]} if tgt else {"direct": True})
    s = act(s, 0, action)
    s = pass_until(s, lambda st: st.step == "battle" and st.attack is None and not st.chain)
    return s, labels


# (attacker, target, target position, LP A, LP B, attacker destroyed, target destroyed)
CASES = [
    ("Dark Magician", "Celtic Guardian", "attack", 8000, 6900, False, True),  # 2500 > 1400
    ("Dark Magician", "Summoned Skull", "attack", 8000, 8000, True, True),  # 2500 = 2500
    ("Celtic Guardian", "Dark Magician", "attack", 6900, 8000, True, False),  # 1400 < 2500
    ("Battle Fader", "Neko Mane King", "attack", 8000, 8000, False, False),  # 0 vs 0: neither
    ("Dark Magician", "Mystical Elf", "defense", 8000, 8000, False, True),  # 2500 > 2000 DEF, no damage
    ("Vorse Raider", "Mystical Elf", "defense", 7900, 8000, False, False),  # 1900 < 2000 DEF
]


@pytest.mark.parametrize(("att", "tgt", "pos", "lp_a", "lp_b", "att_dead", "tgt_dead"), CASES)
def test_battle_table(att: str, tgt: str, pos: str, lp_a: int, lp_b: int, att_dead: bool, tgt_dead: bool) -> None:
    s, labels = battle(att, tgt, pos)
    assert [p.lp for p in s.players] == [lp_a, lp_b]  # type: ignore[attr-defined]
    assert (s.cards[labels["att"]].zone == "graveyard") is att_dead  # type: ignore[attr-defined]
    assert (s.cards[labels["tgt"]].zone == "graveyard") is tgt_dead  # type: ignore[attr-defined]


def test_equal_atk_vs_def_destroys_nothing() -> None:
    s, labels = battle("Celtic Guardian", "Mystical Elf", "defense")  # 1400 vs 2000: A takes 600
    assert [p.lp for p in s.players] == [7400, 8000]  # type: ignore[attr-defined]
    s, labels = battle("Giant Soldier of Stone", "Celtic Guardian", "defense")  # 1300 vs 1200 DEF
    assert s.cards[labels["tgt"]].zone == "graveyard"  # type: ignore[attr-defined]
    s, labels = battle("Celtic Guardian", "Beaver Warrior", "defense")  # 1400 vs 1500 DEF
    assert [p.lp for p in s.players] == [7900, 8000]  # type: ignore[attr-defined]


def test_atk_equal_def_nothing_happens() -> None:
    # Celtic Guardian 1400 ATK vs Feral Imp 1400 DEF
    s, labels = battle("Celtic Guardian", "Feral Imp", "defense")
    assert [p.lp for p in s.players] == [8000, 8000]  # type: ignore[attr-defined]
    assert s.cards[labels["tgt"]].zone == "monsters"  # type: ignore[attr-defined]


def test_direct_attack_deals_full_atk() -> None:
    s, _ = battle("Dark Magician", None)
    assert [p.lp for p in s.players] == [8000, 5500]  # type: ignore[attr-defined]


def test_face_down_target_is_flipped_before_calculation() -> None:
    s, labels = battle("Dark Magician", "Mystical Elf", "set")
    elf = s.cards[labels["tgt"]]  # type: ignore[attr-defined]
    assert elf.zone == "graveyard" and elf.face_up


def test_lp_zero_ends_the_duel() -> None:
    start = {
        "turn": 3,
        "turn_player": "A",
        "phase": "battle",
        "step": "battle",
        "A": {"monsters": [{"card": "Dark Magician", "as": "dm"}]},
        "B": {"lp": 2000},
    }
    s, labels = position(start)
    s = act(s, 0, {"do": "attack", "with": labels["dm"], "direct": True})
    s = pass_until(s, lambda st: st.finished)
    assert s.winner == 0 and s.end_reason == "lp" and pending(s) is None
