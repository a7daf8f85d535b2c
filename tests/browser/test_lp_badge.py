"""The LP badge shows the last change of this turn only, as the damage dealt, matching the log
(issue 38, item 5): 600 battle damage to a player with 250 LP reads "-600" (with a minus sign), as
the log says, not "-250", what the LP went down by; at the next turn the badge is gone."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from browser_env import LiveServer
from browser_ui import both_pass_until, click_and_wait, log_lines, open_page, shot, wait_app
from playwright.sync_api import Browser, Page

from server.cli.puzzle import create_puzzle_match

MINUS = "\u2212"  # the badge's minus sign


def puzzle(b_lp: int) -> dict[str, Any]:
    deck = ["Celtic Guardian"] * 5
    return {
        "format": 1,
        "name": "lp badge",
        "start": {
            "turn": 3,
            "turn_player": "A",
            "phase": "battle",
            "step": "battle",
            "A": {"monsters": [{"card": "Dark Magician"}], "deck": deck},
            "B": {"lp": b_lp, "monsters": [{"card": "Gemini Elf"}], "deck": deck},
        },
        "steps": [],
    }


def attack(a: Page) -> None:
    a.locator(".card.actionable[data-name='Dark Magician']").click()
    click_and_wait(a, a.locator(".card.targetable[data-name='Gemini Elf']"))


def test_the_badge_is_the_damage_dealt_as_the_log_says(
    browser: Browser, live_server: LiveServer, screenshots: Path
) -> None:
    url = live_server.http
    _, tokens = live_server.call(create_puzzle_match(live_server.server, puzzle(250)))
    a = open_page(browser, f"{url}/#/seat/{tokens[0]}")
    b = open_page(browser, f"{url}/#/seat/{tokens[1]}")
    wait_app(a, "() => window.duelApp.match.legal.length > 0")
    attack(a)
    both_pass_until(a, b, "() => window.duelApp.match.view.winner !== null")
    for page in (a, b):
        wait_app(page, "() => window.duelApp.match.view.winner !== null")
        assert page.locator("[data-testid=lp-1]").inner_text().startswith("LP 0")
        badge = page.locator("[data-testid=lp-delta-1]")
        assert badge.inner_text().strip() == f"{MINUS}600"
        assert badge.get_attribute("title") == f"{MINUS}600 battle damage this turn"
        assert "B LP -600 (battle damage) -> 0" in [t.strip() for _, t in log_lines(page)]
    shot(a, screenshots, "lp-badge-damage")
    for page in (a, b):
        assert page.errors == [], page.errors  # type: ignore[attr-defined]
        page.context.close()


def test_the_badge_is_gone_at_the_next_turn(browser: Browser, live_server: LiveServer) -> None:
    url = live_server.http
    _, tokens = live_server.call(create_puzzle_match(live_server.server, puzzle(8000)))
    a = open_page(browser, f"{url}/#/seat/{tokens[0]}")
    b = open_page(browser, f"{url}/#/seat/{tokens[1]}")
    wait_app(a, "() => window.duelApp.match.legal.length > 0")
    attack(a)
    both_pass_until(a, b, "() => window.duelApp.match.view.players[1].lp === 7400")
    wait_app(b, "() => window.duelApp.match.view.players[1].lp === 7400")
    assert b.locator("[data-testid=lp-delta-1]").inner_text().strip() == f"{MINUS}600"
    # A ends its turn; B passes in each window until its own turn begins
    both_pass_until(a, b, "() => window.duelApp.match.legal.some(x => x.do === 'finish_turn')")
    click_and_wait(a, a.locator(".decision .acts button[data-action=finish_turn]"))
    both_pass_until(a, b, "() => window.duelApp.match.view.turn === 4")
    wait_app(b, "() => window.duelApp.match.view.turn === 4")
    for page in (a, b):
        assert page.locator("[data-testid=lp-1]").inner_text() == "LP 7400"
        assert page.locator("[data-testid=lp-delta-1]").count() == 0
        assert page.errors == [], page.errors  # type: ignore[attr-defined]
        page.context.close()
