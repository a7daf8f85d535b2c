"""The fact classes as ``engine.factgen`` writes them out for the compiled engine, run here as
Python, against the classes ``engine/facts.py`` declares: the same constructors, wire forms
(key order included), readers, equality and refusals, for every fact of the golden logs,
replay files and a played duel. (``tests/test_native_engine.py`` checks the compiled engine,
these classes compiled, against the source engine.)"""

from __future__ import annotations

import importlib.util
import inspect
import sys
from types import ModuleType
from typing import Any

import pytest

from engine import demo_deck
from engine.factgen import declared, native_source
from engine.facts import to_wire
from tests.engine.play import play
from tests.engine.test_facts import _golden_wire_facts


@pytest.fixture(scope="module")
def written() -> ModuleType:
    spec = importlib.util.spec_from_loader("engine._written_facts", loader=None)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    module.__package__ = "engine"  # its relative imports (engine.plain) resolve as in the package
    sys.modules[spec.name] = module
    exec(compile(native_source(), "<engine.factgen>", "exec"), module.__dict__)
    return module


@pytest.fixture(scope="module")
def wire() -> list[dict[str, Any]]:
    facts = _golden_wire_facts()
    for seed in range(3):
        _, entries, _ = play(seed, (demo_deck(seed), demo_deck(seed + 3)), max_actions=600, policy_random=0.3)
        facts += [to_wire(f) for e in entries for f in e]
    assert len({f["t"] for f in facts}) > 30
    return facts


def test_every_class_is_written_out_with_the_same_keyword_fields_and_class_variables(written: ModuleType) -> None:
    source = declared()
    assert list(written.FACTS) == list(source.FACTS)
    for t, cls in source.FACTS.items():
        mine = written.FACTS[t]
        assert mine.__name__ == cls.__name__ and mine.__doc__ == cls.__doc__
        want = inspect.signature(cls).parameters
        got = inspect.signature(mine).parameters
        assert list(got) == list(want), cls.__name__
        for name, p in want.items():
            assert got[name].kind is p.kind is inspect.Parameter.KEYWORD_ONLY
            # a default is ABSENT (each module has its own), a layout number, or none
            assert repr(got[name].default) == repr(p.default), (cls.__name__, name)
        assert mine.__annotations__ == {n: str(p.annotation) for n, p in want.items()}
        assert mine.KEYS == cls.KEYS and mine.OPTIONAL == cls.OPTIONAL and mine.LAYOUTS == cls.LAYOUTS
        assert mine.SENT == cls.SENT or repr(mine.SENT) == repr(cls.SENT)
        assert mine._layouts == cls._layouts


def test_the_written_out_classes_read_and_write_every_fact_as_the_declared_ones(
    written: ModuleType, wire: list[dict[str, Any]]
) -> None:
    source = declared()
    for d in wire:
        mine, theirs = written.from_wire(d), source.from_wire(d)
        assert list(mine.to_wire().items()) == list(theirs.to_wire().items()) == list(d.items())
        assert repr(mine) == repr(theirs)
        again = written.from_wire(dict(d))
        assert mine == again and (mine != again) is False
        assert getattr(mine, "layout", 0) == getattr(theirs, "layout", 0)


def test_equality_leaves_out_the_layout_and_tells_classes_and_fields_apart(written: ModuleType) -> None:
    moved = written.Moved
    assert moved(card=1, to="hand") == moved(card=1, to="hand", layout=moved.CODE_FIRST)
    assert moved(card=1, to="hand") != moved(card=2, to="hand")
    assert moved(card=1, to="hand") != moved(card=1, to="hand", from_="deck")
    assert written.LinkResolved(link=1) != written.LinkResolving(link=1)
    assert written.ChainResolved() == written.ChainResolved() != written.AttackReplay()
    with pytest.raises(TypeError):
        hash(moved(card=1, to="hand"))  # as the declared dataclasses (eq, not frozen): unhashable


def test_the_written_out_readers_refuse_what_the_declared_ones_refuse(written: ModuleType) -> None:
    for module in (written, declared()):
        with pytest.raises(KeyError):
            module.from_wire({"t": "teleported", "card": 1})
        with pytest.raises(TypeError, match="no key"):
            module.from_wire({"t": "turn", "turn": 1, "player": 0, "extra": 1})
        with pytest.raises(TypeError, match="no key"):
            module.from_wire({"t": "priority", "seat": 0, "passes": 1, "intent": "next", "extra": 1})
        with pytest.raises(KeyError):
            module.from_wire({"t": "turn", "turn": 1})


def test_a_str_field_holding_an_enum_member_is_written_as_its_plain_str(written: ModuleType) -> None:
    from engine.types import Phase, Zone

    w = written.Moved(card=3, to=Zone.GRAVEYARD, from_=Zone.HAND).to_wire()
    assert w == {"t": "moved", "card": 3, "to": "graveyard", "from": "hand"}
    assert type(w["to"]) is str and type(w["from"]) is str
    assert type(written.PhaseBegan(phase=Phase.BATTLE).to_wire()["phase"]) is str
