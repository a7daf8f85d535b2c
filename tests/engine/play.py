"""Helpers to play whole duels with simple deterministic policies (no I/O)."""

from __future__ import annotations

import random
from collections.abc import Iterator

from engine import (
    DuelConfig,
    State,
    apply_facts,
    create,
    decide,
    decide_state,
    demo_deck,
    fold,
    legal_actions,
    pending,
)
from engine.types import Fact, WireAction

PREFER = ("attack", "summon", "activate", "set", "flip_summon", "enter_battle_phase", "retarget", "choose")


def aggressive(rnd: random.Random, acts: list[WireAction]) -> WireAction:
    for kind in PREFER:
        opts = [a for a in acts if a["do"] == kind]
        if opts and (kind != "activate" or rnd.random() < 0.5):
            return rnd.choice(opts)
    passes = [a for a in acts if a["do"] == "pass"]
    return passes[0] if passes else rnd.choice(acts)


def play(
    seed: int,
    decks: tuple[list[int], list[int]] | None = None,
    max_actions: int = 5000,
    options: dict[str, object] | None = None,
    policy_random: float = 0.1,
) -> tuple[State, list[list[Fact]], list[tuple[int, WireAction]]]:
    rnd = random.Random(seed)
    cfg = DuelConfig(seed=seed, decks=decks or (demo_deck(0), demo_deck(1)), options=dict(options or {}))
    entries = [create(cfg)]
    state = apply_facts(State(), entries[0])
    actions: list[tuple[int, WireAction]] = []
    for _ in range(max_actions):
        p = pending(state)
        if p is None:
            break
        seat = int(p["seat"])
        acts = legal_actions(state, seat)
        a = rnd.choice(acts) if rnd.random() < policy_random else aggressive(rnd, acts)
        facts = decide(state, seat, a)
        entries.append(facts)
        actions.append((seat, a))
        state = apply_facts(state, facts)
    return state, entries, actions


def states(seed: int, decks: tuple[list[int], list[int]], max_actions: int = 200) -> Iterator[State]:
    """Every state of a duel played with ``aggressive`` through ``decide_state`` (the live
    path: each state shares what the action left alone with the one before), genesis first."""
    rnd = random.Random(seed)
    state = fold(create(DuelConfig(seed=seed, decks=decks)))
    yield state
    for _ in range(max_actions):
        owed = pending(state)
        if owed is None:
            return
        seat = int(str(owed["seat"]))
        _, state = decide_state(state, seat, aggressive(rnd, legal_actions(state, seat)))
        yield state
