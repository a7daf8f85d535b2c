"""``duel play`` renders the board and the legal actions with card names and stats, never names a
card the seat may not see (the rendering works from the redacted view alone), and never prints
two menu entries alike; a puzzle's goal is judged from the duel as played."""

from __future__ import annotations

import random
from pathlib import Path

import yaml

from engine import CARDS, legal_actions, view
from engine.scenario import Runner
from server import rules
from server.cli.puzzle import goal_report
from server.clients.client import bot_choice
from server.clients.terminal.cards import Catalogue
from server.clients.terminal.render import (
    Labeler,
    card_text_lines,
    pending_about,
    render_board,
    waiting_line,
)
from server.lobby.catalog import catalogue
from tests.engine.helpers import position

CAT = Catalogue.of(catalogue())


def test_board_and_actions_render_with_names_and_stats_and_hide_secrets() -> None:
    s, lb = position(
        {
            "turn": 3,
            "turn_player": "A",
            "phase": "battle",
            "step": "battle",
            "A": {
                "hand": ["Kozaky"],
                "monsters": [{"card": "Dark Magician", "as": "dm"}],
                "graveyard": ["Celtic Guardian"],
            },
            "B": {
                "hand": ["Mirror Force"],
                "monsters": [{"card": "Mystical Elf", "as": "elf", "position": "set"}],
                "spells_traps": [{"card": "Sakuretsu Armor", "set": True}],
                "banished": ["Honest"],
            },
        }
    )
    v = view(s, 0)
    board = render_board(v, 0, CAT)
    assert "Dark Magician (Lv7, ATK 2500 / DEF 2100; Attack Position)" in board
    assert "Kozaky (Lv1, ATK 400 / DEF 400)" in board
    assert "graveyard (1): Celtic Guardian" in board and "banished (1): Honest" in board
    assert "Mystical Elf" not in board and "Mirror Force" not in board and "Sakuretsu" not in board
    lines = Labeler(v, CAT, 0).labels(legal_actions(s, 0))
    assert "Attack face-down card [opponent's monster zone 1] with Dark Magician" in lines
    assert "End the Battle Phase" in lines
    text = card_text_lines(v, CAT, [lb["elf"], lb["dm"]])
    assert text[0] == "a face-down card: its text is hidden from you"
    assert text[1].startswith("Dark Magician (Normal Monster, DARK Spellcaster, Level 7, ATK 2500 / DEF 2100)")


def test_two_actions_never_read_alike() -> None:
    s, _ = position(
        {
            "turn": 3,
            "turn_player": "A",
            "phase": "main1",
            "A": {"hand": ["Celtic Guardian", "Celtic Guardian", "Vorse Raider"]},
            "B": {},
        }
    )
    v = view(s, 0)
    lines = Labeler(v, CAT, 0).labels(legal_actions(s, 0))
    assert len(set(lines)) == len(lines)
    assert "Normal Summon Celtic Guardian [hand card 1]" in lines
    assert "Normal Summon Celtic Guardian [hand card 2]" in lines
    assert "Normal Summon Vorse Raider" in lines


def test_the_card_a_decision_is_about_is_named() -> None:
    s, lb = position(
        {
            "turn": 3,
            "turn_player": "A",
            "phase": "main1",
            "A": {"monsters": [{"card": "Honest", "as": "h"}]},
            "B": {"monsters": [{"card": "Vorse Raider", "as": "v"}]},
        }
    )
    v = view(s, 0)
    pending = {"seat": 0, "kind": "cards", "prompt": "...", "card": lb["h"], "source": lb["v"]}
    assert pending_about(v, CAT, 0, pending) == "card: Honest, asked by: the opponent's Vorse Raider"
    assert pending_about(v, CAT, 0, {"seat": 0, "kind": "priority", "prompt": "..."}) is None


def test_candidates_from_the_deck_are_named_from_the_pending_selection() -> None:
    s, _ = position({"turn": 3, "turn_player": "A", "phase": "main1", "A": {}, "B": {}})
    v = view(s, 0)
    elf = next(code for code, c in CARDS.items() if c.name == "Gemini Elf")
    pending = {
        "seat": 0,
        "kind": "cards",
        "prompt": "...",
        "cards": [{"id": 901, "code": elf, "name": "Gemini Elf"}, {"id": 902, "code": elf, "name": "Gemini Elf"}],
    }
    legal = [{"do": "choose", "cards": [901]}, {"do": "choose", "cards": [902]}, {"do": "choose", "cards": []}]
    assert Labeler(v, CAT, 0, pending).labels(legal) == [
        "Choose Gemini Elf (copy 1)",
        "Choose Gemini Elf (copy 2)",
        "Choose none (decline)",
    ]
    assert card_text_lines(v, CAT, [901], pending)[0].startswith("Gemini Elf (Normal Monster")


def test_the_waiting_line_says_whom_and_what_for() -> None:
    s, _ = position({"turn": 3, "turn_player": "B", "phase": "main1", "A": {}, "B": {}})
    v = view(s, 0)
    line = waiting_line(v, {"seat": 1, "kind": "priority", "prompt": "waiting for B"}, ["Ann", "Bot"], [61000, 5000])
    assert line == 'waiting for B "Bot": to make a move in their turn (Main Phase 1) · clock 0:05'


def test_the_catalogue_finds_cards_by_name_and_decks_by_name() -> None:
    assert [c["name"] for c in CAT.find("honest")] == ["Honest"]
    assert len(CAT.find("elemental hero")) > 1
    assert CAT.deck_names() and CAT.deck(CAT.deck_names()[0]) is not None
    assert CAT.deck("no such deck") is None
    honest = next(code for code, c in CARDS.items() if c.name == "Honest")
    assert CAT.text_lines(honest)[0] == "Honest (Effect Monster, LIGHT Fairy, Level 4, ATK 1100 / DEF 1900)"


def test_a_puzzle_goal_is_each_expectation_in_order() -> None:
    path = Path(__file__).parent / "scenarios" / "cards" / "elemental_hero_flame_wingman.yaml"
    doc = yaml.safe_load(path.read_text("utf-8"))
    played = Runner(doc).run()
    assert goal_report(doc, played.entries).met is True
    setup = rules.scenario_setup(doc)
    conceded = goal_report(doc, [setup, rules.decide(rules.fold(setup, None), 0, {"do": "concede"})])
    assert (
        conceded.met is False and "expectation 1 of 3" in conceded.text and "expected 7800, got 8000" in conceded.text
    )
    assert goal_report({**doc, "steps": []}, [setup]).met is None


def test_bot_only_picks_legal_actions() -> None:
    s, _ = position({"turn": 3, "turn_player": "A", "phase": "main1", "A": {"hand": ["Celtic Guardian"]}, "B": {}})
    legal = legal_actions(s, 0)
    rnd = random.Random(1)
    assert all(bot_choice(legal, rnd) in legal for _ in range(50))
