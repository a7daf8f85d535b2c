"""One engine's side of ``bench.engine_work``: run as a script with the engine's source root
first on ``sys.path`` (so that the old engine, extracted from a pinned commit, and the new
one never meet in one process).

    python bench/engine_worker.py ROOT [--tiny] [--gc THRESHOLDS]

It reads commands from stdin, one per line ("round", "quit"), and answers each "round" with
one JSON line of timings. Only the engine package, msgpack and the standard library are
imported, and only through the engine's public API (``decide``, ``fold``, ``state_hash``,
``Viewpoints`` ...), so the same file drives the engine of any commit since the API existed.

An engine whose facts are classes (``engine.facts``, issue 12) pays here what the server pays
for them and an engine of plain dicts does not: per action, ``to_wire`` of its facts (what
the log stores); for a stored log, ``facts_of`` (``from_wire`` of each decoded fact, what
``server.storage.entry`` does reading an entry) before folding it.

``--gc 50000,20,100``: the cyclic collector as the server runs it (``server.runtime.gctune``, the
server's default): once the duels are recorded, what is alive is frozen out of the periodic
collections and the first generation's threshold is raised. Given to every engine measured in
a run alike; without it, CPython's defaults.
"""

from __future__ import annotations

import gc
import hashlib
import json
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = sys.argv[1]
TINY = "--tiny" in sys.argv
sys.path.insert(0, ROOT)
if Path(ROOT).resolve() == Path(__file__).resolve().parents[1]:
    # this repository's engine: compiled when the build is current, as the server runs it
    # (server/runtime/native.py; an older engine extracted from a commit always runs as source)
    import server  # noqa: F401

import msgpack  # noqa: E402

import engine  # noqa: E402
from engine.decks import deck_named  # noqa: E402

ALIAS_KEY = b"bench-alias-key-0123456789abcdef"
PREFER = ("attack", "summon", "activate", "set", "flip_summon", "enter_battle_phase", "retarget", "choose")
NEW_API = hasattr(engine, "decide_state")
FOLD_INTO = getattr(engine, "fold_into", None)
# typed facts (issue 12) are converted at the edge, as the server does. Checked on a fact made
# by this engine (the editable install may put another tree's ``engine.facts`` on the path)
TYPED = not isinstance(engine.create(engine.DuelConfig(seed=1, decks=([], [])))[0], dict)
facts_of: Callable[[Any], Any] | None = None
to_wire: Callable[[Any], Any] | None = None
if TYPED:
    from engine.facts import facts_of, to_wire


NEWER_KINDS = frozenset({"finish_turn"})
"""Actions the baseline engine does not have (issue 38): never chosen, so that both engines,
offered the same duel, play it the same way."""


def policy(rnd: random.Random, acts: list[dict[str, Any]]) -> dict[str, Any]:
    """Mostly the aggressive choice (tests/engine/play.py), sometimes any legal action."""
    acts = [a for a in acts if a["do"] not in NEWER_KINDS]
    if rnd.random() < 0.15:
        return rnd.choice(acts)
    for kind in PREFER:
        opts = [a for a in acts if a["do"] == kind]
        if opts and (kind != "activate" or rnd.random() < 0.5):
            return rnd.choice(opts)
    passes = [a for a in acts if a["do"] == "pass"]
    return passes[0] if passes else rnd.choice(acts)


def record(seed: int, decks: tuple[list[int], list[int]], limit: int) -> tuple[list[Any], list[tuple[int, Any]]]:
    """A duel played by ``policy``: its genesis facts and its actions."""
    rnd = random.Random(seed)
    genesis = engine.create(engine.DuelConfig(seed=seed, decks=decks))
    state = engine.fold(genesis)
    actions: list[tuple[int, Any]] = []
    while len(actions) < limit and (owed := engine.pending(state)) is not None:
        seat = int(owed["seat"])
        action = policy(rnd, engine.legal_actions(state, seat))
        state = engine.fold(engine.decide(state, seat, action), state)
        actions.append((seat, action))
    return genesis, actions


DECK_PAIRS = [("counters", "battle-step"), ("end-step", "counters"), ("battle-step", "end-step")]
if TINY:
    DUELS = [record(1, (deck_named("counters"), deck_named("battle-step")), 40)]
else:
    DUELS = [record(seed, (deck_named(a), deck_named(b)), 400) for seed, (a, b) in enumerate(DECK_PAIRS * 2, start=1)]


def engine_work(genesis: list[Any], actions: list[tuple[int, Any]]) -> tuple[float, int, str]:
    """Seconds of engine work over one duel: per accepted action the new state, its hash,
    the per-viewer facts, a view and the pending decision per seat, and the legal actions of
    the seat that owes a decision (what the server does with one action)."""
    state = engine.fold(genesis)
    vp = engine.Viewpoints(ALIAS_KEY)
    vp.apply(genesis)
    digest = hashlib.sha256()
    total = 0.0
    clock = time.perf_counter
    for seat, action in actions:
        t0 = clock()
        if NEW_API:
            facts, new = engine.decide_state(state, seat, action)
        else:
            facts = engine.decide(state, seat, action)
            new = engine.fold(facts, state)
        if to_wire is not None:
            [to_wire(f) for f in facts]  # the log entry's facts
        h = engine.state_hash(new)
        vp.apply(facts)
        for v in (0, 1):
            vp.view(new, v)
            vp.pending(new, v)
        owed = engine.pending(new)
        if owed is not None:
            vp.legal(new, int(owed["seat"]))
        total += clock() - t0
        digest.update(h.encode())
        state = new
    return total, len(actions), digest.hexdigest()[:16]


def long_log() -> list[list[Any]]:
    """The entries (facts per log entry, as the log stores them) of the longest recorded duel."""
    genesis, actions = max(DUELS, key=lambda d: len(d[1]))
    entries = [genesis]
    state = engine.fold(genesis)
    for seat, action in actions:
        facts = engine.decide(state, seat, action)
        state = engine.fold(facts, state)
        entries.append(facts)
    return entries if to_wire is None else [[to_wire(f) for f in e] for e in entries]


LOG = long_log()
PACKED = [msgpack.packb(e, use_bin_type=True) for e in LOG]


def stored(facts: list[Any]) -> list[Any]:
    """A stored entry's facts as the engine folds them."""
    return facts if facts_of is None else facts_of(facts)


def fold_entry_by_entry() -> float:
    """What replays and ``duel verify`` do: fold the log entry by entry from scratch."""
    t0 = time.perf_counter()
    if FOLD_INTO is not None:
        state = engine.initial()
        for facts in LOG:
            FOLD_INTO(state, stored(facts))
    else:
        state = None
        for facts in LOG:
            state = engine.fold(facts, state)
    return time.perf_counter() - t0


def fold_all_at_once() -> float:
    t0 = time.perf_counter()
    engine.fold([f for facts in LOG for f in stored(facts)])
    return time.perf_counter() - t0


def hash_every_entry() -> float:
    """``duel verify``: fold entry by entry and hash the state after each."""
    t0 = time.perf_counter()
    if FOLD_INTO is not None:
        state = engine.initial()
        for facts in LOG:
            FOLD_INTO(state, stored(facts))
            engine.state_hash(state)
    else:
        st = None
        for facts in LOG:
            st = engine.fold(facts, st)
            engine.state_hash(st)
    return time.perf_counter() - t0


def decode() -> float:
    t0 = time.perf_counter()
    for raw in PACKED:
        msgpack.unpackb(raw, raw=False, strict_map_key=False)
    return time.perf_counter() - t0


REPEATS = 1 if TINY else 7


def best_of(*fns: Callable[[], float]) -> list[float]:
    """Each of ``fns`` run ``REPEATS`` times, interleaved; the fastest time of each. A fold of
    this log takes 1-2 ms, which a single timing shares with whatever else the machine does
    (one timing per round read 1.9-4.7x decoding over five rounds); noise only adds time, so
    the fastest of several is the usual estimate, and both sides of the ratio get the same."""
    best = [float("inf")] * len(fns)
    for _ in range(REPEATS):
        for i, fn in enumerate(fns):
            best[i] = min(best[i], fn())
    return best


def one_round() -> dict[str, Any]:
    fold_entries, fold_all, decoding = best_of(fold_entry_by_entry, fold_all_at_once, decode)
    work = 0.0
    n = 0
    digests = []
    for genesis, actions in DUELS:
        t, k, d = engine_work(genesis, actions)
        work += t
        n += k
        digests.append(d)
    return {
        "work_per_action": work / n,
        "actions": n,
        "digest": hashlib.sha256("".join(digests).encode()).hexdigest()[:16],
        "log_entries": len(LOG),
        "log_facts": sum(len(e) for e in LOG),
        "fold_hash": hash_every_entry(),
        "new_api": NEW_API,
        "fold_entries": fold_entries,
        "fold_all": fold_all,
        "decode": decoding,
    }


def tune_gc(argv: list[str]) -> None:
    """``--gc a,b,c``: what ``server.runtime.gctune.apply("tuned")`` does, with its thresholds given
    (this file cannot import the server of an older engine's tree)."""
    if "--gc" not in argv:
        return
    a, b, c = (int(x) for x in argv[argv.index("--gc") + 1].split(","))
    gc.collect()
    gc.freeze()
    gc.set_threshold(a, b, c)


def main() -> None:
    tune_gc(sys.argv)
    print(json.dumps({"ready": True}), flush=True)
    for line in sys.stdin:
        cmd = line.strip()
        if cmd == "round":
            print(json.dumps(one_round()), flush=True)
        elif cmd == "quit":
            return


if __name__ == "__main__":
    main()
