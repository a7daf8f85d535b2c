"""The server restarts mid-duel (a deploy): both pages say they are
reconnecting, come back by themselves with backoff, catch up and play on."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from browser_env import LiveServer
from browser_ui import click_and_wait, open_page, owes, pass_button, wait_decision

from server.puzzle import create_puzzle_match

PUZZLE = Path(__file__).parent / "puzzles" / "honest_duel.yaml"


@pytest.fixture
def own_server(browser_redis_url: str, tmp_path: Path) -> Iterator[LiveServer]:
    srv = LiveServer(browser_redis_url, tmp_path)
    try:
        yield srv
    finally:
        srv.stop()


def test_pages_reconnect_after_a_server_restart(browser: Any, own_server: LiveServer) -> None:
    doc = yaml.safe_load(PUZZLE.read_text("utf-8"))
    match_id, tokens = own_server.call(create_puzzle_match(own_server.server, doc))
    a = open_page(browser, f"{own_server.http}/#/seat/{tokens[0]}")
    b = open_page(browser, f"{own_server.http}/#/seat/{tokens[1]}")
    wait_decision(a)
    click_and_wait(a, a.locator(".decision button[data-action=enter_battle_phase]"))
    seq = int(a.evaluate("() => window.duelApp.match.seq"))

    own_server.restart()
    for page in (a, b):
        # it noticed, and came back by itself
        page.wait_for_function("() => window.duelApp.conn.opens === 2 && window.duelApp.connState.kind === 'open'")
        assert page.locator("[data-testid=conn]").inner_text() == "connected"
        page.wait_for_function("s => window.duelApp.match.seq === s && window.duelApp.match.view", arg=seq)
    # and the duel goes on: whoever owes the decision passes, and the other sees it
    wait_decision(b)
    assert owes(b) and not owes(a)
    click_and_wait(b, pass_button(b))
    a.wait_for_function("s => window.duelApp.match.seq > s", arg=seq)
    assert "Battle Phase" in a.locator("[data-testid=where]").inner_text()
    for page in (a, b):
        assert page.errors == [], page.errors  # type: ignore[attr-defined]
        page.context.close()
    assert match_id


def test_a_seat_taken_over_by_another_tab_stops_and_says_so(browser: Any, live_server: LiveServer) -> None:
    doc = yaml.safe_load(PUZZLE.read_text("utf-8"))
    _, tokens = live_server.call(create_puzzle_match(live_server.server, doc))
    first = open_page(browser, f"{live_server.http}/#/seat/{tokens[0]}")
    wait_decision(first)
    second = open_page(browser, f"{live_server.http}/#/seat/{tokens[0]}")  # the same seat, elsewhere
    wait_decision(second)
    conn = first.locator("[data-testid=conn]")
    conn.filter(has_text="taken over").wait_for()
    assert "another tab or device" in conn.inner_text()
    assert first.evaluate("() => window.duelApp.connState.kind") == "closed"
    # the new tab plays on; the old one does not come back by itself
    click_and_wait(second, second.locator(".decision button[data-action=enter_battle_phase]"))
    assert first.evaluate("() => window.duelApp.conn.opens") == 1
    for page in (first, second):
        page.context.close()
