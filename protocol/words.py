"""Plain words for the phases, steps, Damage Step timings and the ends of a duel.

Generated from engine/describe.py by engine/actiondoc.py: do not edit. Regenerate with
``.venv/bin/python -m engine.actiondoc --write``; tests/protocol/test_actiondoc.py fails while
this file differs. A copy, not an import: the clients load no engine module.
"""

from __future__ import annotations

from typing import Final

PHASE_WORDS: Final[dict[str, str]] = {
    "draw": "Draw Phase",
    "standby": "Standby Phase",
    "main1": "Main Phase 1",
    "battle": "Battle Phase",
    "main2": "Main Phase 2",
    "end": "End Phase",
}
"""A phase's name, in turn order."""


STEP_WORDS: Final[dict[str, str]] = {
    "start": "Start Step",
    "battle": "Battle Step",
    "damage": "Damage Step",
    "end": "End Step",
}
"""A Battle Phase step's name."""


TIMING_WORDS: Final[dict[str, str]] = {
    "start_of_damage_step": "start of the Damage Step",
    "before_damage_calculation": "before damage calculation",
    "during_damage_calculation": "during damage calculation",
    "after_damage_calculation": "after damage calculation",
    "end_of_damage_step": "end of the Damage Step",
}
"""A Damage Step timing's words."""


END_REASONS: Final[dict[str, str]] = {
    "lp": "Life Points reached 0",
    "deck_out": "a player had to draw from an empty Deck",
    "concede": "a player conceded",
    "timeout": "a player ran out of time",
}
"""Why a duel ended."""


def phase_text(phase: str, step: str | None = None, timing: str | None = None) -> str:
    """ "Battle Phase - Damage Step (before damage calculation)", as ``engine.describe`` says it."""
    out = PHASE_WORDS.get(phase, phase)
    if step:
        out += f" - {STEP_WORDS.get(step, step)}"
    if timing:
        out += f" ({TIMING_WORDS.get(timing, timing)})"
    return out
