"""The action table (``engine.actions``): the typed actions stand for the legal maps exactly, and
what lists actions elsewhere is the table's."""

from __future__ import annotations

import random
from dataclasses import fields

import pytest

from engine import decide
from engine.actions import ACTIONS, BY_KIND, KEYS, REQUIRED, ActionKind, Attack, Choose, Pass, Summon, parse, wire
from engine.legal import KNOWN_ACTIONS, legal_actions
from engine.scenario_keys import ACTION_KEYS
from engine.types import IllegalAction
from tests.engine.play import states
from tests.engine.test_pool_duels import random_deck


def test_one_class_per_action_kind_in_its_order() -> None:
    assert [cls.DO for cls in ACTIONS] == list(ActionKind)
    assert set(BY_KIND) == {k.value for k in ActionKind} == KNOWN_ACTIONS
    assert all(type(k) is str for k in BY_KIND)  # looked up by the wire's plain strings


def test_keys_are_the_fields_with_the_wire_spelling() -> None:
    assert KEYS[ActionKind.ATTACK] == ("with", "target", "direct")
    assert [f.name for f in fields(Attack)] == ["with_", "target", "direct"]
    assert REQUIRED[ActionKind.ATTACK] == {"with"} and REQUIRED[ActionKind.CHOOSE] == frozenset()
    assert KEYS[ActionKind.PASS] == () and KEYS[ActionKind.CONCEDE] == ()


def test_scenario_action_keys_are_the_tables() -> None:
    assert {k.value: frozenset(v) for k, v in KEYS.items()} == ACTION_KEYS


def test_parse_and_wire_convert_at_the_edge() -> None:
    assert parse({"do": "pass"}) == Pass()
    assert parse({"do": "attack", "with": 3, "direct": True}) == Attack(with_=3, direct=True)
    assert wire(Attack(with_=3, target=7)) == {"do": "attack", "with": 3, "target": 7}
    assert wire(Choose(cards=[])) == {"do": "choose", "cards": []}  # an empty list is a value, not absent
    summon = {"do": "summon", "card": 4, "cost": [9], "procedure": True, "position": "defense"}
    assert parse(summon) == Summon(card=4, cost=[9], procedure=True, position="defense")
    assert type(wire(parse(summon))["do"]) is str  # the wire's plain str, never the enum member
    with pytest.raises(TypeError):
        parse({"do": "pass", "card": 1})  # only legal maps are parsed: a stray key is a bug


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6])
def test_every_legal_action_of_a_duel_parses_to_its_class_and_back_to_the_same_map(seed: int) -> None:
    """The log keeps the map a client sent (checked against ``legal_actions``) and ``perform``
    reads the typed action made from the legal map: both must say the same thing."""
    rnd = random.Random(seed)
    decks = (random_deck(rnd)[0], random_deck(rnd)[0])  # two Main Decks (a deck's Extra Deck is no Deck)
    seen: set[str] = set()
    for s in states(seed, decks, max_actions=300):
        for seat in (0, 1):
            for a in legal_actions(s, seat):
                typed = parse(a)
                assert a["do"] == typed.DO and wire(typed) == a
                seen.add(a["do"])
    assert {"pass", "summon", "next_phase"} <= seen


def test_a_concession_is_decided_before_it_is_parsed() -> None:
    s = next(states(1, random_deck(random.Random(1)), max_actions=1))
    with pytest.raises(IllegalAction) as e:
        decide(s, 0, {"do": "concede", "card": 1})
    assert e.value.code == "action/malformed"
