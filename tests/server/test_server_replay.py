"""``replay`` and ``verify`` on logs built with the engine (no sockets)."""

from __future__ import annotations

import dataclasses
import random

from engine.facts import LifePoints
from server import rules
from server.history.replay import fold_log, replay_lines, summary_lines, verify_log
from server.storage.entry import LogEntry


def build_log(seed: int, actions: int) -> list[LogEntry]:
    decks = (rules.demo_deck(0), rules.demo_deck(1))
    facts = rules.genesis(seed, decks)
    state = rules.fold(facts, None)
    log = [
        LogEntry(1, None, {"do": "start", "seed": seed, "decks": [decks[0], decks[1]]}, facts, rules.state_hash(state))
    ]
    rnd = random.Random(seed)
    while len(log) <= actions and not rules.finished(state):
        owed = rules.pending(state)
        assert owed is not None
        seat = owed["seat"]
        legal = [a for a in rules.legal_actions(state, seat) if a["do"] != "concede"]
        action = rnd.choice(legal)
        facts = rules.decide(state, seat, action)
        state = rules.fold(facts, state)
        log.append(LogEntry(len(log) + 1, seat, action, facts, rules.state_hash(state)))
    return log


def test_verify_accepts_an_honest_log() -> None:
    log = build_log(5, 40)
    divergence, state = verify_log(log)
    assert divergence is None
    assert rules.state_hash(state) == log[-1].state_hash


def test_verify_reports_the_first_divergence() -> None:
    log = build_log(6, 30)
    bad_facts = list(log)
    bad_facts[9] = dataclasses.replace(
        log[9], facts=[*log[9].facts, LifePoints(seat=0, lp=1, delta=-7999, reason="effect")]
    )
    d, _ = verify_log(bad_facts)
    assert d is not None and (d.seq, d.kind) == (10, "facts")

    bad_hash = list(log)
    bad_hash[4] = dataclasses.replace(log[4], state_hash="0" * 32)
    d, _ = verify_log(bad_hash)
    assert d is not None and (d.seq, d.kind) == (5, "state_hash")

    bad_action = list(log)
    bad_action[6] = dataclasses.replace(log[6], action={"do": "attack", "with": 999, "target": 998})
    d, _ = verify_log(bad_action)
    assert d is not None and d.seq == 7 and d.kind in ("illegal", "error")


def test_replay_prints_turns_and_the_final_state() -> None:
    log = build_log(7, 60)
    text = "\n".join(replay_lines(log, actions=True))
    assert "=== Turn 1" in text and "#2 " in text
    summary = "\n".join(summary_lines("m", log, fold_log(log)))
    assert f"State hash: {log[-1].state_hash}" in summary and "LP: A" in summary


def test_replay_as_a_seat_names_only_what_that_seat_saw() -> None:
    log = build_log(8, 80)
    everything = "\n".join(replay_lines(log))
    as_b = "\n".join(replay_lines(log, viewer=1))
    as_spectator = "\n".join(replay_lines(log, viewer=None))
    # the operator sees both players' draws by name; B sees its own only; a spectator neither
    assert 'A draws "' in everything and 'B draws "' in everything
    assert 'A draws "' not in as_b and 'B draws "' in as_b
    assert 'A draws "' not in as_spectator and 'B draws "' not in as_spectator
    assert "A draws a card" in as_b and "B draws a card" in as_spectator
