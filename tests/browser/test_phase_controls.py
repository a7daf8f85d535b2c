"""Every control that moves the turn says where it takes the duel, and takes it there (issue 38).

For each phase and step of A's turn (a puzzle position started there), A's page shows its
controls; each is clicked in a fresh match of that position, B's page passes where it is asked
(its pass button naming the same place), and the board then shows the phase the label named, or
B's turn for "End the turn", which takes one click from any phase: A is not asked again."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from browser_env import LiveServer
from browser_ui import ALL_STOPS, DESKTOP, SETTLED, shot, wait_app
from playwright.sync_api import Browser, Page

from server.cli.puzzle import create_puzzle_match

MOVES = ["pass", "finish_turn", "enter_battle_phase", "end_battle_phase", "next_phase", "end_turn"]

START: dict[str, dict[str, Any]] = {
    "Draw Phase": {"phase": "draw"},
    "Standby Phase": {"phase": "standby"},
    "Main Phase 1": {"phase": "main1"},
    "Battle Phase · Start Step": {"phase": "battle", "step": "start"},
    "Battle Phase · Battle Step": {"phase": "battle", "step": "battle"},
    "Battle Phase · End Step": {"phase": "battle", "step": "end"},
    "Main Phase 2": {"phase": "main2"},
    "End Phase": {"phase": "end"},
}

CONTROLS: dict[str, list[str]] = {
    "Draw Phase": ["Go to the Standby Phase", "End the turn"],
    "Standby Phase": ["Go to Main Phase 1", "End the turn"],
    "Main Phase 1": ["Enter the Battle Phase", "Go to the End Phase (skip the Battle Phase)", "End the turn"],
    "Battle Phase · Start Step": ["Go to the Battle Step", "End the turn"],
    "Battle Phase · Battle Step": ["End the Battle Phase (go to the End Step)", "End the turn"],
    "Battle Phase · End Step": ["Go to Main Phase 2", "End the turn"],
    "Main Phase 2": ["Go to the End Phase", "End the turn"],
    "End Phase": ["End the turn"],
}
"""The controls A's page shows in each phase, in this order (one per place the duel can go)."""

GOES_TO: dict[str, str] = {
    "Go to the Standby Phase": "Standby Phase",
    "Go to Main Phase 1": "Main Phase 1",
    "Enter the Battle Phase": "Battle Phase · Start Step",
    "Go to the Battle Step": "Battle Phase · Battle Step",
    "End the Battle Phase (go to the End Step)": "Battle Phase · End Step",
    "Go to Main Phase 2": "Main Phase 2",
    "Go to the End Phase": "End Phase",
    "Go to the End Phase (skip the Battle Phase)": "End Phase",
}
"""Where the board must say the duel is once the control was clicked and B passed."""

B_PASS: dict[str, str] = {
    "Standby Phase": "Pass: on to the Standby Phase",
    "Main Phase 1": "Pass: on to Main Phase 1",
    "Battle Phase · Start Step": "Pass: on to the Battle Phase",
    "Battle Phase · Battle Step": "Pass: on to the Battle Step",
    "Battle Phase · End Step": "Pass: on to the End Step",
    "Main Phase 2": "Pass: on to Main Phase 2",
    "End Phase": "Pass: on to the End Phase",
}


def puzzle(start: dict[str, Any]) -> dict[str, Any]:
    deck = ["Celtic Guardian"] * 5
    return {
        "format": 1,
        "name": f"phase controls: {start}",
        "start": {
            "turn": 3,
            "turn_player": "A",
            **start,
            "A": {"monsters": [{"card": "Gemini Elf"}], "deck": deck},
            "B": {"monsters": [{"card": "Giant Soldier of Stone", "position": "defense"}], "deck": deck},
        },
        "steps": [],
    }


def seat_page(browser: Browser) -> Page:
    ctx = browser.new_context(viewport=DESKTOP)  # type: ignore[arg-type]
    ctx.add_init_script(
        "localStorage.setItem('duel.autopass', 'off'); localStorage.setItem('duel.autopass_ms', '0'); "
        f"localStorage.setItem('duel.stops', '{ALL_STOPS}')"
    )
    page = ctx.new_page()
    page.set_default_timeout(20_000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.errors = errors  # type: ignore[attr-defined]
    return page


def take_seat(page: Page, url: str, token: str) -> None:
    page.goto(f"{url}/#/seat/{token}")
    wait_app(page, "t => window.duelApp.match && window.duelApp.match.token === t && window.duelApp.match.view", token)


def where(page: Page) -> str:
    return page.locator("[data-testid=where]").inner_text()


def owes_now(page: Page) -> bool:
    return bool(page.evaluate(f"() => ({SETTLED})() && window.duelApp.match.legal.length > 0"))


def move_labels(page: Page) -> list[str]:
    sel = ", ".join(f".decision .acts button[data-action={m}]" for m in MOVES)
    return [b.inner_text() for b in page.locator(sel).all()]


def settle_both(a: Page, b: Page) -> None:
    """Until both pages show the same entry and one of them owes a decision (or the turn is B's)."""
    for _ in range(100):
        seqs = [int(p.evaluate("() => window.duelApp.match.seq")) for p in (a, b)]
        if seqs[0] == seqs[1] and (owes_now(a) or owes_now(b)):
            return
        a.wait_for_timeout(50)
    raise AssertionError("neither page owes a decision")


@pytest.mark.parametrize("phase", list(START))
def test_each_phase_control_takes_the_duel_where_it_says(
    phase: str, browser: Browser, live_server: LiveServer, screenshots: Path
) -> None:
    a, b = seat_page(browser), seat_page(browser)
    url = live_server.http
    doc = puzzle(START[phase])
    _, tokens = live_server.call(create_puzzle_match(live_server.server, doc))
    take_seat(a, url, tokens[0])
    take_seat(b, url, tokens[1])
    a.wait_for_function(SETTLED)
    assert where(a) == phase
    labels = move_labels(a)
    assert labels == CONTROLS[phase], labels
    if phase == "Main Phase 1":
        shot(a, screenshots, "phase-controls-main1")
    for label in labels:
        _, tokens = live_server.call(create_puzzle_match(live_server.server, doc))
        take_seat(a, url, tokens[0])
        take_seat(b, url, tokens[1])
        a.wait_for_function(SETTLED)
        a.locator(".decision .acts button", has_text=label).filter(has_text=label).first.click()
        # B passes in each window it is asked in, until the duel is where the label said it would go
        b_labels: list[str] = []
        for _ in range(12):
            settle_both(a, b)
            if a.evaluate("() => window.duelApp.match.view.turn") == 4:
                break
            if owes_now(a) and label != "End the turn":
                break
            assert not owes_now(a), f"{label}: A was asked again in {where(a)}"
            btn = b.locator(".decision .acts button[data-action=pass]")
            b_labels.append(btn.inner_text())
            btn.click()
            wait_app(b, "() => window.duelApp.match.inflight === null")
        if label == "End the turn":
            assert a.locator("[data-testid=turn]").inner_text() == "Turn 4 · B's turn", label
            assert b_labels[-1] == "Pass: the turn ends", b_labels
        else:
            assert where(a) == GOES_TO[label], f"{phase}: {label!r} went to {where(a)}"
            assert b_labels == [B_PASS[GOES_TO[label]]], b_labels
    for page in (a, b):
        assert page.errors == [], page.errors  # type: ignore[attr-defined]
        page.context.close()
