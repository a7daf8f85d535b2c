"""A scenario that stops because the engine asks a question its file does not answer says so in
words, names the question and shows the step to add (issue 35, "Scenario errors that say what to
write"); a ``choose`` on ``activate`` for a selection the card makes as it resolves (ruling SEL-1)
is refused the same way. Each test runs a scenario with the answering step left out."""

from __future__ import annotations

from typing import Any

import yaml

from engine.scenario import run

FADER = """
format: 1
name: Battle Fader
source: "SEL-3"
auto_pass: true
start:
  turn: 3
  turn_player: A
  phase: battle
  step: battle
  A:
    monsters: [{card: Dark Magician, as: dm}]
  B:
    hand: [{card: Battle Fader, as: fader}]
steps:
  - {A: attack, with: dm, direct: true}
  - {B: activate, card: fader}
  - {A: pass}
  - {B: pass}
"""

DOMINO = """
format: 1
name: Domino Effect
source: "DS-9"
auto_pass: true
start:
  turn: 3
  turn_player: A
  phase: battle
  step: battle
  A:
    monsters: [{card: Vorse Raider, as: vorse}, {card: Kozaky, as: koz}]
    spells_traps: [{card: Domino Effect, as: domino}]
  B:
    monsters: [{card: Silver Fang, as: fang}, {card: Gemini Elf, as: gemini}, {card: Celtic Guardian, as: cg}]
steps:
  - {A: attack, with: vorse, target: fang}
  - {pass_until: {damage_step: end_of_damage_step}}
"""


def _failure(text: str, *steps: dict[str, Any]) -> str:
    doc = yaml.safe_load(text)
    doc["steps"] += list(steps)
    result = run(doc)
    assert not result.ok and result.failure is not None
    return str(result.failure)


def test_an_unanswered_position_names_the_question_and_the_step_to_add() -> None:
    msg = _failure(FADER, {"expect": {"step": "end"}})
    assert msg == (
        "step 4: B is asked where Battle Fader is Special Summoned (attack or defense): "
        "add {B: choose, option: attack} after step 3"
    )


def test_the_other_players_action_while_a_question_waits() -> None:
    msg = _failure(FADER, {"A": "pass"})
    assert msg.startswith("step 4: B is asked where Battle Fader is Special Summoned (attack or defense): add ")
    assert msg.endswith("after step 3")


def test_a_step_of_the_asked_player_that_does_not_answer() -> None:
    msg = _failure(FADER, {"B": "pass"})
    assert msg == (
        "step 4: B is asked where Battle Fader is Special Summoned (attack or defense): "
        "step 4 does not answer it; answer with {B: choose, option: attack}"
    )


def test_choose_on_activate_for_a_selection_made_at_resolution_is_refused() -> None:
    doc = yaml.safe_load(FADER)
    doc["steps"][1] = {"B": "activate", "card": "fader", "choose": ["defense"]}
    result = run(doc)
    assert not result.ok and result.failure is not None
    assert str(result.failure) == (
        "step 1: B is asked nothing when Battle Fader is activated: it selects as it resolves (ruling SEL-1), "
        "so remove choose from step 1 ({B: activate, card: fader, choose: [defense]}) "
        "and add {B: choose, option: defense} after it"
    )
    assert result.state is not None and not result.state.chain  # nothing was activated


def test_choose_on_activate_with_cards_suggests_cards() -> None:
    msg = _failure(DOMINO, {"A": "activate", "card": "domino", "effect": 2, "cost": "koz", "choose": ["gemini"]})
    assert msg.endswith("and add {A: choose, cards: [gemini]} after it")


def test_an_unanswered_optional_trigger() -> None:
    msg = _failure(DOMINO, {"expect": {"chain": ["domino"]}})
    assert msg == (
        "step 2: A is asked whether to activate the effect of Domino Effect: "
        "add {A: activate, card: domino, effect: 2, cost: [vorse]} after step 1"
    )


def test_an_unanswered_selection_of_cards() -> None:
    msg = _failure(
        DOMINO,
        {"A": "activate", "card": "domino", "effect": 2, "cost": "koz"},
        {"A": "pass"},  # auto_pass passes for B first: the chain resolves
        {"expect": {"zone": {"gemini": "graveyard"}}},
    )
    assert msg == (
        "step 4: A is asked to select 1 card(s) for Domino Effect (among gemini, cg): "
        "add {A: choose, cards: [gemini]} after step 3"
    )


def test_a_question_asked_while_a_pass_until_passes() -> None:
    doc = yaml.safe_load(FADER)
    doc["steps"][2:] = [{"pass_until": {"step": "end"}}]
    result = run(doc)
    assert not result.ok and result.failure is not None
    assert str(result.failure) == (
        "step 2: B is asked where Battle Fader is Special Summoned (attack or defense) while step 2 passes: "
        "end that step at the question ({pass_until: {waiting_for: B}}) and add {B: choose, option: attack} after it"
    )
