"""The lobby in Chromium: it loads from the server with nothing from outside,
fits a desktop and a phone without horizontal scrolling, names a bad card in
a pasted decklist, and creates a match whose join link seats a second page."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from browser_env import LiveServer
from browser_ui import DESKTOP, PHONE, no_horizontal_scroll, open_page, shot


def test_lobby_loads_only_from_its_own_server(browser: Any, live_server: LiveServer, screenshots: Path) -> None:
    foreign: list[str] = []
    ctx = browser.new_context(viewport=DESKTOP)
    page = ctx.new_page()
    page.on("request", lambda r: None if r.url.startswith((live_server.http, live_server.ws)) else foreign.append(r.url))
    page.goto(live_server.http + "/")
    page.wait_for_function("() => window.duelApp && window.duelApp.connState.kind === 'open'")
    page.get_by_role("heading", name="Duel in the browser").wait_for()
    assert page.get_by_label("Your name").is_visible()
    assert page.locator("[data-testid=conn]").inner_text() == "connected"
    assert foreign == [], foreign
    assert no_horizontal_scroll(page)
    shot(page, screenshots, "lobby-1280x720")
    ctx.close()


def test_lobby_fits_a_phone(browser: Any, live_server: LiveServer, screenshots: Path) -> None:
    page = open_page(browser, live_server.http + "/", PHONE)
    page.get_by_role("button", name="Quick match").wait_for()
    assert no_horizontal_scroll(page)
    shot(page, screenshots, "lobby-390x844")
    page.context.close()


def test_a_pasted_decklist_error_names_the_card(browser: Any, live_server: LiveServer) -> None:
    page = open_page(browser, live_server.http + "/")
    page.get_by_label("Deck", exact=True).select_option("paste")
    page.get_by_label("Decklist").fill("3 Honest\nBlue Eyes White Dragn\n37742478\n")
    page.locator("[data-lobby=create]").click()
    errors = page.locator("#deck-errors li")
    errors.first.wait_for()
    text = " | ".join(errors.all_inner_texts())
    assert 'line 2: no card named "Blue Eyes White Dragn"' in text
    assert "Blue-Eyes White Dragon" in text  # the suggestion
    # the deck was not sent: still in the lobby, no seat taken
    assert page.evaluate("() => window.duelApp.screen") == "lobby"
    # a well-formed list that breaks a deck rule is refused before sending too
    page.get_by_label("Decklist").fill("4 Honest\n" + "Blue-Eyes White Dragon\n" * 2)
    page.locator("[data-lobby=create]").click()
    page.locator("#deck-errors li", has_text="at most 3").wait_for()
    page.context.close()


def test_create_then_join_by_link(browser: Any, live_server: LiveServer) -> None:
    host = open_page(browser, live_server.http + "/")
    host.get_by_label("Your name").fill("Hostess")
    host.locator("[data-lobby=create]").click()
    invite = host.locator("[data-testid=invite]")
    invite.wait_for()
    link = invite.input_value()
    assert "#/join/" in link
    guest = open_page(browser, link)
    guest.get_by_label("Your name").fill("Guest")
    guest.locator(".joinbox [data-lobby=join]").click()
    for page in (host, guest):
        page.locator("[data-testid=turn]").wait_for()
        assert page.locator("[data-testid=turn]").inner_text().startswith("Turn 1")
    # each sees its own hand face up and the other's as backs
    for page, me in ((host, 0), (guest, 1)):
        mine = page.locator(f".row.hand[data-seat='{me}'] .card")
        theirs = page.locator(f".row.hand[data-seat='{1 - me}'] .card")
        assert mine.count() >= 5 and theirs.count() >= 5
        assert all(c.get_attribute("data-code") for c in mine.all())
        assert all("back" in (c.get_attribute("class") or "") and c.get_attribute("data-code") is None for c in theirs.all())
    for page in (host, guest):
        page.context.close()
