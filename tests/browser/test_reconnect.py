"""The server restarts mid-duel (a deploy): both pages say they are
reconnecting, come back by themselves with backoff, catch up and play on."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from browser_env import LiveServer
from browser_ui import (
    DESKTOP,
    click_and_wait,
    open_page,
    owes,
    pass_button,
    wait_app,
    wait_decision,
)
from msgpack import unpackb

from protocol.messages import ListMatches, MatchList
from server.cli.puzzle import create_puzzle_match
from server.clients.client import DuelClient

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
        wait_app(page, "() => window.duelApp.conn.opens === 2 && window.duelApp.connState.kind === 'open'")
        assert page.locator("[data-testid=conn]").inner_text() == "connected"
        wait_app(page, "s => window.duelApp.match.seq === s && window.duelApp.match.view", seq)
    # and the duel goes on: whoever owes the decision passes, and the other sees it
    wait_decision(b)
    assert owes(b) and not owes(a)
    click_and_wait(b, pass_button(b))
    wait_app(a, "s => window.duelApp.match.seq > s", seq)
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


def test_a_lost_answer_to_create_match_gets_the_same_seat_back(browser: Any, live_server: LiveServer) -> None:
    """The network drops just as the server answers `seated`: the page never sees it,
    reconnects, sends the same request (same request_id) and gets the same seat of
    the same match, not a second one."""
    sent: list[dict[str, Any]] = []
    lost: list[dict[str, Any]] = []

    def route(ws: Any) -> None:
        server = ws.connect_to_server()

        def from_page(message: str | bytes) -> None:
            sent.append(unpackb(message))
            server.send(message)

        def from_server(message: str | bytes) -> None:
            msg = unpackb(message)
            if msg["type"] == "seated" and not lost:
                lost.append(msg)  # this answer never reaches the page: the connection drops
                ws.close()
                server.close()
                return
            ws.send(message)

        ws.on_message(from_page)
        server.on_message(from_server)

    ctx = browser.new_context(viewport=DESKTOP)
    page = ctx.new_page()
    page.set_default_timeout(20_000)
    page.route_web_socket(re.compile(".*"), route)
    page.goto(live_server.http + "/")
    wait_app(page, "() => window.duelApp && window.duelApp.connState.kind === 'open'")
    page.get_by_label("Your name").fill("Retrier")
    page.locator("[data-lobby=create]").click()
    invite = page.locator("[data-testid=invite]")
    invite.wait_for()
    assert lost, "the first answer was not dropped"
    match_id = lost[0]["match_id"]
    assert invite.input_value().endswith(f"#/join/{match_id}")
    assert page.evaluate("() => window.duelApp.match.token") == lost[0]["token"]
    assert page.evaluate("() => window.duelApp.conn.opens") == 2
    creates = [m for m in sent if m["type"] == "create_match"]
    assert len(creates) == 2 and creates[0]["request_id"] == creates[1]["request_id"]
    assert len(creates[0]["request_id"]) >= 22

    async def rows_named(name: str) -> list[dict[str, Any]]:
        c = await DuelClient.connect(live_server.ws, "lister")
        await c.send(ListMatches(status="live", limit=200))
        got = await c.expect(MatchList)
        await c.close()
        return [r for r in got.matches if name in r.get("players", [])]

    rows = live_server.call(rows_named("Retrier"))
    assert [r["match_id"] for r in rows] == [match_id]  # one match, not two
    assert page.evaluate("() => sessionStorage.getItem('duel.request')") is None
    ctx.close()
