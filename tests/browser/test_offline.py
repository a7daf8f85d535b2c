"""A page that knows when it is offline (issue 38, item 6).

A's page reaches the server through a TCP proxy (tests/browser/tcp_proxy.py), B's directly.
Held traffic: A's page says "offline — reconnecting" within a few seconds (its heartbeat goes
unanswered though its socket looks open), offers no action, shows its own seat offline and B's
presence unknown; the server, hearing nothing from A for the silence A asked for, tells B that
A is gone; once the traffic flows again A's page is back within a second, presence as it is,
and plays on. A cut network: the same, and back within a second of the network returning."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_env import LiveServer
from browser_ui import click_and_wait, open_page, shot, wait_app
from playwright.sync_api import Browser, Page
from tcp_proxy import TcpProxy

from server.cli.puzzle import create_puzzle_match

PUZZLE: dict[str, Any] = {
    "format": 1,
    "name": "offline",
    "start": {
        "turn": 3,
        "turn_player": "A",
        "phase": "main1",
        "A": {"monsters": [{"card": "Gemini Elf"}], "deck": ["Celtic Guardian"] * 5},
        "B": {"monsters": [{"card": "Celtic Guardian"}], "deck": ["Celtic Guardian"] * 5},
    },
    "steps": [],
}
ONLINE = "() => window.duelApp.connState.kind === 'open'"


@pytest.fixture
def proxy(live_server: LiveServer) -> Iterator[TcpProxy]:
    p = live_server.call(TcpProxy(live_server.port).start())
    try:
        yield p
    finally:
        live_server.call(p.stop())


def conn(page: Page) -> str:
    return page.locator("[data-testid=conn]").inner_text()


def presence(page: Page, seat: int) -> str:
    return page.locator(f"[data-testid=presence-{seat}]").inner_text()


def seconds_until(page: Page, condition: str, timeout: float = 20) -> float:
    """How long until ``condition`` holds of the page's state (polled every 20 ms)."""
    start = time.monotonic()
    page.wait_for_function(condition, timeout=timeout * 1000, polling=20)
    return time.monotonic() - start


def test_held_traffic_and_a_cut_network(
    browser: Browser, live_server: LiveServer, proxy: TcpProxy, screenshots: Path
) -> None:
    _, tokens = live_server.call(create_puzzle_match(live_server.server, PUZZLE))
    a = open_page(browser, f"{proxy.http}/#/seat/{tokens[0]}")
    b = open_page(browser, f"{live_server.http}/#/seat/{tokens[1]}")
    wait_app(a, "() => window.duelApp.match.legal.length > 0")
    wait_app(b, "() => window.duelApp.match.presence && window.duelApp.match.presence[0]")
    assert conn(a) == "connected" and presence(a, 0) == "connected" and presence(a, 1) == "connected"
    opens = int(a.evaluate("() => window.duelApp.conn.opens"))

    # the network stalls: A's socket stays open, nothing arrives
    live_server.call(proxy.hold())
    took = seconds_until(a, "() => window.duelApp.connState.kind !== 'open'")
    assert took < 6.5, took
    a.locator("[data-testid=conn]", has_text="offline — reconnecting").wait_for()
    # nothing can be sent while offline, and presence says what the page can know
    assert a.locator(".decision .acts button").count() == 0
    assert a.locator("[data-testid=prompt]").inner_text().startswith("Offline — reconnecting")
    assert presence(a, 0) == "offline (this page)" and presence(a, 1) == "unknown (this page is offline)"
    shot(a, screenshots, "offline-held")
    # the server hears nothing from A for the 7 s A's heartbeat asked for: B is told A is gone
    took = seconds_until(b, "() => window.duelApp.match.presence[0] === false")
    assert took < 8, took
    assert presence(b, 0) == "disconnected" and presence(b, 1) == "connected"
    assert conn(b) == "connected"

    # the traffic flows again: A is back within a second, and so is its presence for B
    live_server.call(proxy.release())
    took = seconds_until(a, ONLINE + " && window.duelApp.match.legal.length > 0")
    assert took < 1.0, took
    assert int(a.evaluate("() => window.duelApp.conn.opens")) > opens
    wait_app(a, "() => window.duelApp.match.presence[0] && window.duelApp.match.presence[1]")
    assert conn(a) == "connected" and presence(a, 0) == "connected" and presence(a, 1) == "connected"
    wait_app(b, "() => window.duelApp.match.presence[0] === true")
    # and plays on
    click_and_wait(a, a.locator(".decision .acts button[data-action=enter_battle_phase]"))

    # the network is cut (every connection closed, none accepted): offline at once
    live_server.call(proxy.cut())
    took = seconds_until(a, "() => window.duelApp.connState.kind !== 'open'")
    assert took < 1.0, took
    a.locator("[data-testid=conn]", has_text="offline — reconnecting").wait_for()
    a.wait_for_timeout(3000)  # several attempts fail meanwhile: no backoff grows while visible
    assert a.evaluate("() => window.duelApp.connState.kind") != "open"
    live_server.call(proxy.restore())
    took = seconds_until(a, ONLINE)
    assert took < 1.0, took
    # B passes; A's page, back, sees the Battle Phase begin
    wait_app(b, "() => window.duelApp.match.legal.length > 0")
    click_and_wait(b, b.locator(".decision .acts button[data-action=pass]"))
    wait_app(a, "() => window.duelApp.match.view.phase === 'battle'")
    for page in (a, b):
        assert page.errors == [], page.errors  # type: ignore[attr-defined]
        page.context.close()
