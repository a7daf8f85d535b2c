"""Moving on without clicking (issue 38, item 2).

* "Stop at": where a player is not stopped, the page moves on for them at once, whatever their
  cards (a player holding a card they could activate moves on just the same, so the opponent
  learns nothing); a new player's page is not stopped in its own Draw and Standby Phases. A box
  ticked on the page stops it there from then on.
* "Pass for me when passing or moving on is all I can do": a window in which the only thing to
  do is to move on, to one place, is passed like a window with only a pass; a window where the
  player could activate a card stops.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from browser_env import LiveServer
from browser_ui import OWES, click_and_wait, log_lines, open_page, pass_button, shot, wait_app, wait_decision
from playwright.sync_api import Browser, Page

from server.cli.puzzle import create_puzzle_match

DECK = ["Celtic Guardian"] * 5


def puzzle(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    return {
        "format": 1,
        "name": "stops",
        "start": {
            "turn": 3,
            "turn_player": "A",
            "phase": "draw",
            "A": {"deck": DECK, **a},
            "B": {"deck": DECK, **b},
        },
        "steps": [],
    }


def seat(page: Page, url: str, token: str) -> None:
    page.goto(f"{url}/#/seat/{token}")
    wait_app(page, "t => window.duelApp.match && window.duelApp.match.token === t && window.duelApp.match.view", token)


def where(page: Page) -> str:
    return page.locator("[data-testid=where]").inner_text()


def b_passes_until(a: Page, b: Page, phase: str) -> int:
    """B clicks its pass button whenever it owes, until A's page owes a decision in ``phase``;
    how many times B clicked."""
    clicks = 0
    for _ in range(40):
        if a.evaluate(OWES):
            if where(a) != phase:
                # an update is applied a moment before the page schedules its move on: a page
                # that stopped still owes, at the same seq, half a second later
                seq = a.evaluate("() => window.duelApp.match.seq")
                a.wait_for_timeout(500)
                stopped = a.evaluate(OWES) and a.evaluate("() => window.duelApp.match.seq") == seq
                assert not stopped, f"A's page stopped in {where(a)}"
                continue
            return clicks
        if b.evaluate(OWES):
            click_and_wait(b, pass_button(b))
            clicks += 1
        else:
            a.wait_for_timeout(50)
    raise AssertionError(f"A's page never stopped in {phase}")


def a_clicks(a: Page) -> int:
    return int(a.evaluate("() => window.__clicks"))


def count_clicks(page: Page) -> None:
    page.evaluate("() => { window.__clicks = 0; document.addEventListener('click', () => window.__clicks++, true); }")


def test_the_page_moves_on_where_the_player_does_not_stop_whatever_their_cards(
    browser: Browser, live_server: LiveServer, screenshots: Path
) -> None:
    url = live_server.http
    # A: a new player's settings (not stopped in its own Draw and Standby Phases), and a Set
    # Mystical Space Typhoon it could activate in either; B stops everywhere and clicks
    a = open_page(browser, url + "/", stops="")
    b = open_page(browser, url + "/")
    assert a.evaluate("() => JSON.stringify(window.duelApp.stops)") == (
        '{"own":["damage"],"theirs":["standby","battle","damage","end"]}'
    )
    doc = puzzle(
        {"spells_traps": [{"card": "Mystical Space Typhoon", "set": True}]},
        {"spells_traps": [{"card": "Dust Tornado", "set": True}]},
    )
    _, tokens = live_server.call(create_puzzle_match(live_server.server, doc))
    seat(a, url, tokens[0])
    count_clicks(a)
    seat(b, url, tokens[1])
    # A's page moves on through the Draw and the Standby Phase by itself; B is asked in each
    assert b_passes_until(a, b, "Main Phase 1") == 2
    assert a_clicks(a) == 0
    lines = [t.strip() for _, t in log_lines(a)]
    assert lines.count("A moves on") == 2, lines
    # the same page with "Your turn: Standby Phase" ticked stops there
    a.locator("[data-testid=stops] summary").click()
    a.locator("[data-stop='own:standby']").check()
    assert a.locator("[data-testid=stops]").get_attribute("open") is not None
    shot(a, screenshots, "stop-at-settings")
    assert a.evaluate("() => JSON.parse(localStorage.getItem('duel.stops')).own") == ["damage", "standby"]
    _, tokens = live_server.call(create_puzzle_match(live_server.server, doc))
    seat(a, url, tokens[0])
    seat(b, url, tokens[1])
    assert b_passes_until(a, b, "Standby Phase") == 1
    # B no longer stops in A's Standby Phase: its page passes there for it, though it could
    # activate Dust Tornado; A moves on by clicking
    b.locator("[data-testid=stops] summary").click()
    b.locator("[data-stop='theirs:standby']").uncheck()
    count_clicks(b)
    click_and_wait(a, a.locator(".decision .acts button[data-move=main1]"))
    wait_app(a, "() => window.duelApp.match.view.phase === 'main1' && window.duelApp.match.legal.length > 0")
    assert a_clicks(b) == 0
    for p in (a, b):
        assert p.errors == [], p.errors  # type: ignore[attr-defined]
        p.context.close()


def test_a_move_the_page_makes_leaves_the_players_focus_where_it_is(browser: Browser, live_server: LiveServer) -> None:
    """A keyboard player Tabbing through the Stop-at settings while the page moves on for them is
    not pulled back to the decision (only their own actions give the focus back to it)."""
    url = live_server.http
    a = open_page(browser, url + "/", stops="")  # not stopped in its own Draw and Standby Phases
    b = open_page(browser, url + "/")
    _, tokens = live_server.call(create_puzzle_match(live_server.server, puzzle({}, {})))
    seat(a, url, tokens[0])
    seat(b, url, tokens[1])
    a.locator("[data-testid=stops] summary").click()
    box = a.locator("[data-stop='theirs:end']")
    box.focus()
    count_clicks(a)
    assert b_passes_until(a, b, "Main Phase 1") == 2  # the page moved on twice meanwhile
    assert a_clicks(a) == 0
    assert a.evaluate("() => document.activeElement.dataset.stop") == "theirs:end"
    for p in (a, b):
        assert p.errors == [], p.errors  # type: ignore[attr-defined]
        p.context.close()


def test_moving_on_when_it_is_all_one_can_do_is_a_pass(browser: Browser, live_server: LiveServer) -> None:
    url = live_server.http
    a = open_page(browser, url + "/", auto_pass=True)  # stops everywhere, auto-pass on
    b = open_page(browser, url + "/")
    assert a.evaluate("() => window.duelApp.stops.own.length") == 6
    # nothing A could do in its Draw or Standby Phase: moving on is passed for it
    _, tokens = live_server.call(create_puzzle_match(live_server.server, puzzle({}, {})))
    seat(a, url, tokens[0])
    count_clicks(a)
    seat(b, url, tokens[1])
    assert b_passes_until(a, b, "Main Phase 1") == 2
    assert a_clicks(a) == 0
    # a Set Mystical Space Typhoon A could activate (on B's Set card): its page stops in the Draw Phase
    doc = puzzle(
        {"spells_traps": [{"card": "Mystical Space Typhoon", "set": True}]},
        {"spells_traps": [{"card": "Call of the Haunted", "set": True}]},
    )
    _, tokens = live_server.call(create_puzzle_match(live_server.server, doc))
    seat(a, url, tokens[0])
    seat(b, url, tokens[1])
    wait_decision(a)
    assert where(a) == "Draw Phase"
    assert [x.inner_text() for x in a.locator(".decision .acts button[data-move]").all()] == [
        "Go to the Standby Phase",
        "End the turn",
    ]
    for p in (a, b):
        assert p.errors == [], p.errors  # type: ignore[attr-defined]
        p.context.close()
