"""The rule options of the formats (docs/rulings.md, FMT-1 to FMT-4).

Each scenario of ``tests/scenarios/formats/`` shows one rule under one format; played under the
other format it must fail (so it shows a difference), but for the few listed in ``SAME_IN_BOTH``
that show a rule both formats share. The genesis of a Goat duel deals the first player six cards.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import yaml

from engine.apply import fold
from engine.decks import deck_named
from engine.formats import CURRENT, FORMATS, Format, Rules
from engine.genesis import DuelConfig, create
from engine.scenario import ScenarioError, run

FOLDER = Path(__file__).resolve().parents[1] / "scenarios" / "formats"

SAME_IN_BOTH = {
    "fmt2-goat-field-spell-destroyed-before-it-resolves.yaml": "today the opponent's Field Spell stays as well",
    "fmt3-goat-effect-position-change-is-not-the-players.yaml": "Goat plays today's position rule (FMT-3)",
    "fmt3-current-effect-position-change-is-not-the-players.yaml": "Goat plays today's position rule (FMT-3)",
    "fmt4-goat-fusion-to-a-main-monster-zone.yaml": "no format has an Extra Monster Zone (FMT-4)",
}


CARDS_FOLDER = FOLDER.parent / "cards"
WORDINGS = (
    "injection_fairy_lily.yaml",
    "injection_fairy_lily_goat.yaml",
    "cipher_soldier.yaml",
    "cipher_soldier_goat.yaml",
)
"""The scenarios of the cards that play another wording in Goat (ruling FMT-5): each shows its
format's wording, so fails under the other format."""


def _files() -> list[Path]:
    return sorted(FOLDER.glob("*.yaml")) + [CARDS_FOLDER / name for name in WORDINGS]


def _under_the_other_format(doc: dict[str, Any]) -> dict[str, Any]:
    other = copy.deepcopy(doc)
    if other.pop("duel_format", None) is None:
        other["duel_format"] = "goat"
    return other


@pytest.mark.parametrize("path", _files(), ids=lambda p: p.name)
def test_a_format_scenario_shows_a_difference(path: Path) -> None:
    doc = yaml.safe_load(path.read_text("utf-8"))
    assert run(doc).ok
    flipped = run(_under_the_other_format(doc))
    if path.name in SAME_IN_BOTH:
        assert flipped.ok, f"{path.name} should pass under both formats ({SAME_IN_BOTH[path.name]})"
    else:
        assert not flipped.ok, f"{path.name} passes under the other format too: it shows no difference"


def test_the_exempt_list_names_existing_files() -> None:
    assert set(SAME_IN_BOTH) <= {p.name for p in _files()}


def test_goat_first_player_opens_with_six() -> None:
    deck = deck_named("battle-step")
    for fmt, first_hand in ((None, 5), ("goat", 6)):
        options = {} if fmt is None else {"format": fmt}
        s = fold(create(DuelConfig(seed=7, decks=(deck, deck), options=options)))
        assert s.turn == 1 and s.turn_player == 0
        assert len(s.players[0].hand) == first_hand
        assert len(s.players[1].hand) == 5


def test_the_effect_position_change_option(monkeypatch: pytest.MonkeyPatch) -> None:
    """A format that counted an effect's change as the player's (the rule before 2005-06-01)
    would refuse the Flip Summon that both of today's formats allow after Book of Moon."""
    old = Format(
        "pre-2005-06",
        "test only",
        Rules(effect_position_change_counts=True),
        pool=CURRENT.pool,
        banlist=CURRENT.banlist,
        text=CURRENT.text,
        deck=CURRENT.deck,
    )
    monkeypatch.setitem(FORMATS, old.name, old)
    doc = yaml.safe_load((FOLDER / "fmt3-current-effect-position-change-is-not-the-players.yaml").read_text("utf-8"))
    assert run(doc).ok
    doc["duel_format"] = old.name
    result = run(doc)
    assert not result.ok and "flip_summon" in str(result.failure)


def test_an_unknown_duel_format_is_an_error() -> None:
    doc = yaml.safe_load((FOLDER / "fmt1-goat-first-player-draws.yaml").read_text("utf-8"))
    doc["duel_format"] = "edison"
    with pytest.raises(ScenarioError, match="duel_format: no format 'edison'; the formats are: current, goat"):
        run(doc)
