"""The fact classes (engine/facts.py): every class has its handler (engine.apply), its
narration or is silent bookkeeping (engine.describe), and its redaction rule (engine.redaction,
from the class's ``SENT``); and the wire form is exactly what the engine has always written:
``to_wire(from_wire(d)) == d``, key order included, for every fact of the golden logs, the
golden replay files, scenario runs and played duels (so log bytes do not change)."""

from __future__ import annotations

import enum
import json
import random
import subprocess
import sys
import types
import zlib
from pathlib import Path
from typing import Any, Union, get_args, get_origin, get_type_hints, is_typeddict

import msgpack
import pytest
import yaml

from engine import DuelConfig, State, apply_facts, create, decide, demo_deck, fold, legal_actions, pending
from engine.apply import HANDLERS
from engine.describe import NARRATION, SILENT
from engine.facts import ABSENT, FACTS, Absent, Fact, Moved, Summoned, from_wire, to_wire
from engine.redaction import CUSTOM, RULES
from engine.scenario import run
from engine.types import Phase, Position, Step, Timing, Zone
from tests.engine.play import play
from tests.engine.test_pool_duels import random_deck

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "golden"


def _subclasses(cls: type[Fact]) -> set[type[Fact]]:
    out = set()
    for sub in cls.__subclasses__():
        out |= {sub, *_subclasses(sub)}
    return out


def test_every_fact_class_is_registered_once_by_its_t() -> None:
    # ``@fact`` registers a class; a dataclass(slots=True) replaces the class it decorates, so
    # the subclasses of Fact are the registered ones and the originals they replaced
    registered = set(FACTS.values())
    assert len(registered) == len(FACTS) > 40
    assert all(FACTS[cls.t] is cls for cls in registered)
    assert {c.__qualname__ for c in _subclasses(Fact)} == {c.__qualname__ for c in registered}


def test_every_fact_class_has_a_handler_a_narration_policy_and_a_redaction_rule() -> None:
    classes = set(FACTS.values())
    assert set(HANDLERS) == classes
    assert set(RULES) == classes
    assert set(NARRATION) | SILENT == classes
    assert set(NARRATION) & SILENT == set()
    for cls in classes:
        assert cls.__doc__ and cls.__doc__.strip(), f"{cls.__name__} has no description"
        if cls.SENT.rule not in ("public", "cards", "moving", "hidden"):
            assert cls.SENT.rule in CUSTOM, cls.__name__


def test_facts_are_slotted_and_mypy_refuses_to_change_one(tmp_path: Path) -> None:
    """Facts are immutable by contract (``engine.facts.fact``: not frozen at run time, for
    speed); mypy, which ``make check`` runs over the engine, refuses an assignment."""
    f = Moved(card=1, to="hand")
    assert not hasattr(f, "__dict__")
    assert (
        list(Moved.KEYS.values())[:2] == ["card", "to"] and "from_" in Moved.OPTIONAL and "card" not in Moved.OPTIONAL
    )
    snippet = tmp_path / "change_a_fact.py"
    snippet.write_text("from engine.facts import Moved\n\nf = Moved(card=1, to='hand')\nf.card = 2\n")
    out = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--follow-imports=silent", str(snippet)],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert out.returncode == 1 and '"card" defined in "Moved" is read-only' in out.stdout, out.stdout + out.stderr
    assert f == Moved(card=1, to="hand") and f != Moved(card=2, to="hand")
    assert f.code is ABSENT and "code" not in f and f.get("to") == "hand" and f["t"] == "moved"


def test_absent_keys_are_left_out_and_none_is_kept() -> None:
    assert to_wire(Moved(card=3, to="graveyard", from_="hand")) == {
        "t": "moved",
        "card": 3,
        "to": "graveyard",
        "from": "hand",
    }
    w = to_wire(from_wire({"t": "position_changed", "card": 3, "code": None, "position": "defense", "face_up": False}))
    assert w == {"t": "position_changed", "card": 3, "code": None, "position": "defense", "face_up": False}


def test_a_layout_keeps_a_call_sites_key_order() -> None:
    f = Summoned(seat=1, card=7, code=5, kind="special", layout=Summoned.SEAT_LAST)
    assert list(to_wire(f)) == ["t", "card", "code", "kind", "seat"]
    assert list(to_wire(Summoned(seat=1, card=7, code=5, kind="special"))) == ["t", "seat", "card", "kind", "code"]
    assert from_wire(to_wire(f)).layout == Summoned.SEAT_LAST


def test_an_unknown_fact_or_key_is_refused() -> None:
    with pytest.raises(KeyError):
        from_wire({"t": "teleported", "card": 1})
    with pytest.raises(TypeError):
        from_wire({"t": "turn", "turn": 1, "player": 0, "extra": 1})
    with pytest.raises(KeyError):
        from_wire({"t": "turn", "turn": 1})


# ---------------------------------------------------------------- the wire form, exactly


def _golden_wire_facts() -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for path in sorted(GOLDEN.glob("duel-*.json")):
        golden = json.loads(path.read_text("utf-8"))
        out += golden["genesis"]
        for entry in golden["log"]:
            out += entry["facts"]
    for path in sorted(GOLDEN.glob("*.duelreplay")):
        raw = msgpack.unpackb(zlib.decompress(path.read_bytes()[8:]), raw=False, strict_map_key=False)
        for record in raw["entries"]:
            out += record["facts"]
    return out


def _engine_facts() -> list[Fact]:
    """Facts of played duels (demo and random decks, sometimes random actions) and of every
    scenario file."""
    out: list[Fact] = []
    for seed in range(8):
        _, entries, _ = play(seed, (demo_deck(seed), demo_deck(seed + 3)), max_actions=1500, policy_random=0.3)
        out += [f for e in entries for f in e]
    for seed in range(6):
        rnd = random.Random(seed)
        (d0, e0), (d1, e1) = random_deck(rnd), random_deck(rnd)
        state: State = fold(create(DuelConfig(seed=seed, decks=(d0, d1), extra=(e0, e1))))
        for _ in range(400):
            owed = pending(state)
            if owed is None:
                break
            seat = int(owed["seat"])
            facts = decide(state, seat, rnd.choice(legal_actions(state, seat)))
            out += facts
            state = apply_facts(state, facts)
    for path in sorted((ROOT / "tests" / "scenarios").rglob("*.yaml")):
        result = run(yaml.safe_load(path.read_text("utf-8")))
        out += [f for e in result.entries for f in e]
    return out


def test_golden_facts_go_through_the_classes_unchanged_key_order_included() -> None:
    wire = _golden_wire_facts()
    assert len(wire) > 4000
    for d in wire:
        back = to_wire(from_wire(d))
        assert list(back.items()) == list(d.items()), d


def test_played_facts_go_to_the_wire_and_back_unchanged() -> None:
    facts = _engine_facts()
    types = {f.t for f in facts}
    assert len(types) > 35, sorted(set(FACTS) - types)
    layouts = {(f.t, getattr(f, "layout", 0)) for f in facts}
    assert {("moved", 1), ("moved", 2), ("summoned", 1), ("summoned", 2)} <= layouts
    for f in facts:
        d = to_wire(f)
        assert from_wire(d) == f
        assert list(to_wire(from_wire(d)).items()) == list(d.items())
        # the wire map is plain data: msgpack takes it as it is
        assert msgpack.unpackb(msgpack.packb(d), raw=False, strict_map_key=False) == d


def test_the_fold_keeps_the_turn_and_place_names_as_enum_members() -> None:
    """``State.phase/step/damage_step`` and each card's ``zone``/``position`` hold the StrEnum
    members (engine.types), also when the facts come from a stored log (plain strings)."""
    _, entries, _ = play(3, max_actions=600, policy_random=0.2)
    state = State()
    seen: set[str] = set()
    for entry in entries:
        state = apply_facts(state, [from_wire(to_wire(f)) for f in entry])
        assert isinstance(state.phase, Phase)
        assert state.step is None or isinstance(state.step, Step)
        assert state.damage_step is None or isinstance(state.damage_step, Timing)
        for c in state.cards.values():
            assert isinstance(c.zone, Zone) and isinstance(c.position, Position), c
            seen.add(c.zone)
        seen.add(state.damage_step or "")
    assert {"graveyard", "monsters", "hand", "deck", "before_damage_calculation"} <= seen


def _sample(tp: Any) -> Any:
    """A value of type ``tp`` (a field's annotation)."""
    if get_origin(tp) in (Union, types.UnionType):
        return _sample(next(a for a in get_args(tp) if a is not Absent))
    if is_typeddict(tp):  # a typed map (an event, a pending choice): a dict
        return {}
    base = get_origin(tp) or tp
    if isinstance(base, type) and issubclass(base, enum.Enum):
        return next(iter(base))
    return {int: 0, bool: False, str: "x", list: [], dict: {}, type(None): None}.get(base, 0)


def test_a_stored_fact_with_a_key_its_class_does_not_have_is_refused() -> None:
    """``from_wire`` reads a map by its class's keys and refuses one with any other key (a log
    or replay file written by something else), whichever of its optional keys it has."""
    for t, cls in FACTS.items():
        keys = {key: attr in cls.OPTIONAL for key, attr in cls.KEYS.items()}
        hints = get_type_hints(cls)
        # a value of the field's type (the compiled classes check the types they are given)
        values = {key: _sample(hints[attr]) for key, attr in cls.KEYS.items()}
        full = {"t": t, **values}
        bare = {"t": t, **{key: values[key] for key, optional in keys.items() if not optional}}
        for d in (full, bare):
            assert from_wire(dict(d)).t == t
            with pytest.raises(TypeError, match="has no key"):
                from_wire({**d, "not_a_key": 1})
        optional = [key for key, is_optional in keys.items() if is_optional]
        if optional:  # as many keys as the full map, one of them unknown
            swapped = {**bare, **{key: values[key] for key in optional[:-1]}, "not_a_key": 1}
            assert len(swapped) == len(full)
            with pytest.raises(TypeError, match="has no key"):
                from_wire(swapped)
