"""Engine benchmarks. Figures are ratios against a baseline measured in the same run.

    .venv/bin/python -m bench.run [--duels N]     # not part of ``make bench`` (bench/all.py)

- clone: the hand-written State copy vs ``copy.deepcopy`` (baseline);
- fold: rebuilding a finished duel by folding its facts vs re-deciding every
  action (baseline: what a command-log replay such as ygopro's .yrp costs);
- decide: actions per second over whole random duels, and the share of it
  spent in ``legal_actions``.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from typing import Any

from engine import (
    DuelConfig,
    Fact,
    State,
    apply_facts,
    create,
    decide,
    demo_deck,
    fold,
    legal_actions,
    pending,
    state_hash,
)
from engine.kernel.cow import clone, deep_clone


def timed(fn: Callable[[], Any], repeat: int = 5) -> float:
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def play(seed: int) -> tuple[State, list[list[Fact]], list[tuple[int, dict[str, Any]]]]:
    rnd = random.Random(seed)
    entries = [create(DuelConfig(seed=seed, decks=(demo_deck(0), demo_deck(1))))]
    s = fold(entries[0])
    actions: list[tuple[int, dict[str, Any]]] = []
    while (p := pending(s)) is not None and len(actions) < 3000:
        seat = int(p["seat"])
        acts = legal_actions(s, seat)
        pref = [a for a in acts if a["do"] in ("attack", "summon")]
        a = rnd.choice(pref) if pref and rnd.random() < 0.8 else rnd.choice(acts)
        facts = decide(s, seat, a)
        entries.append(facts)
        actions.append((seat, a))
        s = apply_facts(s, facts)
    return s, entries, actions


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--duels", type=int, default=10)
    args = ap.parse_args()
    duels = [play(seed) for seed in range(args.duels)]
    n_actions = sum(len(a) for _, _, a in duels)
    n_facts = sum(len(f) for _, e, _ in duels for f in e)
    print(f"{args.duels} random duels, {n_actions} actions, {n_facts} facts")

    states = [s for s, _, _ in duels]
    t_deep = timed(lambda: [deep_clone(s) for s in states])
    t_fast = timed(lambda: [clone(s) for s in states])
    print(
        f"clone:  hand-written {t_fast / len(states) * 1e6:8.1f} us/state; deepcopy (baseline) "
        f"{t_deep / len(states) * 1e6:8.1f} us  -> {t_deep / t_fast:5.1f}x faster"
    )

    def refold() -> None:
        for _, entries, _ in duels:
            fold([f for e in entries for f in e])

    def redecide() -> None:
        for _, entries, actions in duels:
            s = fold(entries[0])
            for seat, a in actions:
                s = apply_facts(s, decide(s, seat, a))

    t_fold = timed(refold, 3)
    t_redecide = timed(redecide, 1)
    print(
        f"replay: fold facts {n_facts / t_fold:10.0f} facts/s; re-decide actions (baseline) "
        f"{n_actions / t_redecide:8.0f} actions/s  -> fold is {t_redecide / t_fold:5.1f}x faster"
    )

    def legal_only() -> None:
        for _, entries, actions in duels:
            s = fold(entries[0])
            for (seat, _a), facts in zip(actions, entries[1:], strict=True):
                legal_actions(s, seat)
                s = fold(facts, s)

    t_legal = timed(legal_only, 1)
    print(
        f"decide: {n_actions / t_redecide:8.0f} actions/s end to end; legal_actions+fold alone is "
        f"{t_legal / t_redecide:5.0%} of that time"
    )
    t_hash = timed(lambda: [state_hash(s) for s in states])
    print(f"state_hash: {t_hash / len(states) * 1e6:8.1f} us/state ({t_hash / t_fast:4.1f}x a clone)")


if __name__ == "__main__":
    main()
