"""``duel play`` renders the board and the legal actions with card names, and never names a
card the seat may not see (the rendering works from the redacted view alone)."""

from __future__ import annotations

from engine import legal_actions, view
from server.cli_play import describe_action, render_board
from server.client import bot_choice
from tests.engine.helpers import position


def test_board_and_actions_render_with_names_and_hide_secrets() -> None:
    s, lb = position(
        {
            "turn": 3, "turn_player": "A", "phase": "battle", "step": "battle",
            "A": {"hand": ["Kozaky"], "monsters": [{"card": "Dark Magician", "as": "dm"}]},
            "B": {"hand": ["Mirror Force"], "monsters": [{"card": "Mystical Elf", "as": "elf", "position": "set"}],
                  "spells_traps": [{"card": "Sakuretsu Armor", "set": True}]},
        }
    )
    v = view(s, 0)
    board = render_board(v, 0)
    assert "Dark Magician 2500/2100 ATK" in board and "Kozaky" in board
    assert "Mystical Elf" not in board and "Mirror Force" not in board and "Sakuretsu" not in board
    lines = [describe_action(v, a) for a in legal_actions(s, 0)]
    assert f"attack Dark Magician -> face-down card #{lb['elf']}" in lines
    assert "end battle phase" in lines


def test_bot_only_picks_legal_actions() -> None:
    import random

    s, _ = position({"turn": 3, "turn_player": "A", "phase": "main1", "A": {"hand": ["Celtic Guardian"]}, "B": {}})
    legal = legal_actions(s, 0)
    rnd = random.Random(1)
    assert all(bot_choice(legal, rnd) in legal for _ in range(50))
