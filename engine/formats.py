"""Formats: what a duel is played under (docs/formats.md).

A format names its rule options (``Rules``); a duel's format is named in its genesis fact
(``DuelStarted.options["format"]``), so a log folds under the rules it was played with. A
log without one was played under ``current``, the rules the engine had before formats
existed. Issue 37 grows this module: the card pool, the Forbidden/Limited list and the card
texts of each format.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from .state import State


@dataclass(frozen=True, slots=True)
class Rules:
    """The rule options a format sets (each cited in docs/formats.md)."""

    first_player_draws: bool = False
    """The player who goes first draws in the first turn's Draw Phase (Goat: yes)."""
    one_field_spell: bool = False
    """One face-up Field Spell between both players: a new one destroys the other's."""
    effect_position_change_counts: bool = True
    """A position changed by a card effect uses the monster's once-per-turn change."""
    ignition_priority: bool = False
    """Right after a Summon or a resolved chain the turn player may activate an Ignition
    effect before the opponent may respond (docs/adr, Goat priority)."""


@dataclass(frozen=True, slots=True)
class Format:
    name: str
    title: str
    rules: Rules


CURRENT: Final = Format("current", "Current rules", Rules())
GOAT: Final = Format(
    "goat",
    "Goat (April 2005)",
    Rules(first_player_draws=True, one_field_spell=True, effect_position_change_counts=False, ignition_priority=True),
)
FORMATS: Final[dict[str, Format]] = {f.name: f for f in (CURRENT, GOAT)}
DEFAULT: Final = CURRENT


def format_of(s: State) -> Format:
    """The format ``s`` is played under (``current`` when its genesis names none)."""
    name = s.options.get("format")
    return DEFAULT if name is None else FORMATS[str(name)]


def rules_of(s: State) -> Rules:
    """The rule options ``s`` is played under."""
    return format_of(s).rules
