"""The mypyc-compiled engine (``make native``, server/runtime/native.py) is the same program as its
Python source: the same duels give the same facts, state hashes, views and legal actions.

The duels are played here, by whichever engine this process loaded (``make test`` runs the
suite with ``DUEL_ENGINE=native``), and again in a child process running the Python source
(``DUEL_ENGINE=pure``); the digests of everything they produced must be equal."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

import msgpack
import pytest

import engine
from engine import Viewpoints, decide_state, legal_actions, pending, state_hash
from engine.facts import facts_of, wire_facts
from tests.engine.play import aggressive

ROOT = Path(__file__).resolve().parents[1]
SEEDS = (3, 8, 21)


def digest(seeds: tuple[int, ...] = SEEDS, max_actions: int = 400) -> str:
    """Everything a duel shows, action by action, over the duels of ``seeds``."""
    import random

    from engine import DuelConfig, create, demo_deck, fold

    h = hashlib.sha256()
    for seed in seeds:
        rnd = random.Random(seed)
        facts = create(DuelConfig(seed=seed, decks=(demo_deck(0), demo_deck(1))))
        state = fold(facts)
        vp = Viewpoints(b"cross-check")
        vp.apply(facts)
        for _ in range(max_actions):
            owed = pending(state)
            if owed is None:
                break
            seat = int(str(owed["seat"]))
            acts = legal_actions(state, seat)
            before = state
            facts, state = decide_state(state, seat, aggressive(rnd, acts))
            # the stored form read back (the compiled readers) folds to the same state
            read = facts_of(wire_facts(facts))
            assert read == facts and state_hash(fold(read, before)) == state_hash(state)
            per_viewer = vp.apply(facts)
            views = [vp.view(state, seat) for seat in (0, 1)] + [vp.pending(state, seat) for seat in (0, 1)]
            parts = [acts, wire_facts(facts), state_hash(state), per_viewer, views, vp.legal(state, seat)]
            h.update(msgpack.packb(parts, default=repr))
    return h.hexdigest()


def test_the_compiled_engine_plays_exactly_as_its_source() -> None:
    if os.environ.get("DUEL_ENGINE") == "native":
        assert engine.NATIVE, "DUEL_ENGINE=native must load the compiled modules"
        assert engine.state.__file__ is not None and not engine.state.__file__.endswith(".py")
    here = digest()
    child = subprocess.run(
        [sys.executable, "-c", "from tests.test_native_engine import digest; print(digest())"],
        cwd=ROOT,
        env={**os.environ, "DUEL_ENGINE": "pure", "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        check=True,
    )
    assert child.stdout.strip() == here


def test_a_stale_build_is_not_loaded(tmp_path: Path) -> None:
    """A build whose digest no longer matches the sources is never loaded: with
    ``DUEL_ENGINE=native`` the import fails and says so, otherwise the source runs."""
    (tmp_path / "engine.sha256").write_text("0" * 64 + "\n")
    env = {**os.environ, "DUEL_NATIVE_DIR": str(tmp_path), "PYTHONPATH": str(ROOT)}
    # importing ``server`` installs the finder (server/runtime/native.py), as the server and the tests do
    code = "import server, engine, engine.state; print(engine.NATIVE, engine.state.__file__.endswith('.py'))"
    auto = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env={**env, "DUEL_ENGINE": ""}, capture_output=True, text=True
    )
    assert auto.returncode == 0 and auto.stdout.split() == ["False", "True"]
    assert "older than the sources" in auto.stderr
    strict = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env={**env, "DUEL_ENGINE": "native"}, capture_output=True, text=True
    )
    assert strict.returncode != 0 and "DUEL_ENGINE=native, but" in strict.stderr and "make native" in strict.stderr


def test_a_build_is_valid_only_for_the_modules_it_kept_as_source(monkeypatch: pytest.MonkeyPatch) -> None:
    """Moving a module in or out of the set kept as source (``INTERPRETED``) changes the digest a
    build is valid for, though no source changed: ``make native`` builds again, and an older
    build (with that module compiled, or not) is not loaded."""
    from server.runtime import native

    before = native.source_digest(ROOT / "engine")
    monkeypatch.setattr(native, "INTERPRETED", native.INTERPRETED - {"actions.py"})
    assert native.source_digest(ROOT / "engine") != before
