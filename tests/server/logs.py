"""Match logs made without a server (the engine alone), as the server would store them."""

from __future__ import annotations

from engine import DuelConfig, create, demo_deck, fold, state_hash
from server.storage.entry import LogEntry
from tests.engine.play import play


def engine_log(
    seed: int, decks: tuple[list[int], list[int]] | None = None, max_actions: int = 3000, policy_random: float = 0.1
) -> list[LogEntry]:
    """A whole duel's log: entry 1 the genesis (seed and decks in its action), then one entry
    per action with its facts and state hash."""
    decks = decks or (demo_deck(0), demo_deck(1))
    _final, entries, actions = play(seed, decks=decks, max_actions=max_actions, policy_random=policy_random)
    assert entries[0] == create(DuelConfig(seed=seed, decks=decks))
    state = fold(entries[0])
    log = [
        LogEntry(
            1,
            None,
            {"do": "start", "seed": seed, "decks": [decks[0], decks[1]]},
            entries[0],
            state_hash(state),
            ts_ms=1_700_000_000_000,
        )
    ]
    for i, ((seat, action), facts) in enumerate(zip(actions, entries[1:], strict=True), start=2):
        state = fold(facts, state)
        log.append(
            LogEntry(
                i,
                seat,
                action,
                facts,
                state_hash(state),
                time_ms=100 + i,
                client_action_id=f"c{i}",
                ts_ms=1_700_000_000_000 + 1000 * i,
            )
        )
    return log
