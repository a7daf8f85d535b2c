"""Ruling DS-8 (seed 003, TCG "Substep 5"): right after battle damage is inflicted, Flashbang may
be activated before any "when battle damage is inflicted" effect; if it resolves (it is now the
End Phase), those effects do not activate.

The shared card list has no card with such a trigger, so these tests give one to a vanilla
monster for their duration only (a test double: its card facts are unchanged); the mechanism
under test is the engine's, not that card's.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from engine import State, by_name, legal_actions, pending
from engine.ctx import Ctx
from engine.effects.base import SCRIPTS, Effect, Script
from engine.events import EventKind
from engine.ops import draw
from engine.state import Card, Link
from tests.engine.helpers import act, can, pass_until, position

TRIGGER_CARD = "Vorse Raider"  # a Normal Monster: no script of its own


def _dealt_damage(s: State, card: Card, ev: dict[str, Any]) -> bool:
    return card.zone == "monsters" and ev.get("seat") != card.controller


def _draw(ctx: Ctx, link: Link) -> None:
    draw(ctx, link.controller, 1)


@pytest.fixture
def battle_damage_trigger(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """'When this card inflicts battle damage to your opponent: draw 1 card' (mandatory)."""
    eff = Effect(
        kind="trigger",
        speed=1,
        trigger_on=EventKind.BATTLE_DAMAGE,
        trigger_match=_dealt_damage,
        optional=False,
        resolve=_draw,
    )
    monkeypatch.setitem(SCRIPTS, by_name(TRIGGER_CARD).code, Script(effects=(eff,)))
    yield


def _after_direct_attack(flashbang: bool = True) -> tuple[State, dict[str, int]]:
    s, labels = position(
        {
            "turn": 3,
            "turn_player": "A",
            "phase": "battle",
            "step": "battle",
            "A": {"deck": ["Kozaky", "Kozaky"], "monsters": [{"card": TRIGGER_CARD, "as": "vorse"}]},
            "B": {"spells_traps": [{"card": "Flashbang", "as": "flash", "set": True}] if flashbang else []},
        }
    )
    s = act(s, 0, {"do": "attack", "with": labels["vorse"], "direct": True})
    s = pass_until(s, lambda st: st.choice is not None or st.damage_step == "after_damage_calculation")
    return s, labels


def test_flashbang_goes_first_and_the_trigger_never_activates(battle_damage_trigger: None) -> None:
    s, labels = _after_direct_attack()
    assert s.players[1].lp == 8000 - 1900
    p = pending(s)
    assert p is not None and p["seat"] == 1 and p["kind"] == "ahead"
    assert can(s, 1, do="activate", card=labels["flash"])
    assert not s.chain  # the battle damage trigger waits
    s = act(s, 1, {"do": "activate", "card": labels["flash"]})
    assert [link.card for link in s.chain] == [labels["flash"]]
    s = pass_until(s, lambda st: not st.chain)
    assert s.phase == "end"
    assert not s.triggers and len(s.players[0].hand) == 0  # "draw 1" never happened


def test_declining_flashbang_lets_the_trigger_activate(battle_damage_trigger: None) -> None:
    s, labels = _after_direct_attack()
    s = act(s, 1, {"do": "pass"})
    assert [link.card for link in s.chain] == [labels["vorse"]]
    s = pass_until(s, lambda st: not st.chain)
    assert len(s.players[0].hand) == 1
    assert s.phase == "battle"


def test_the_window_is_offered_even_without_a_flashbang(battle_damage_trigger: None) -> None:
    s, _ = _after_direct_attack(flashbang=False)
    p = pending(s)
    assert p is not None and p["kind"] == "ahead"
    assert legal_actions(s, 1) == [{"do": "pass"}]  # asking does not tell A whether B holds one


def test_no_window_without_a_battle_damage_trigger() -> None:
    s, labels = _after_direct_attack()
    assert s.choice is None
    assert s.damage_step == "after_damage_calculation"
    s = pass_until(s, lambda st: st.priority == 1)
    assert can(s, 1, do="activate", card=labels["flash"])  # the usual after-damage-calculation window
