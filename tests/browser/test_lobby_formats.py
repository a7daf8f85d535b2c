"""The lobby's formats in Chromium (issue 37): a Goat match created from the lobby with one of the
nine Goat lists, played against the server's bot (which brings a Goat list of its own) under Goat
rules; and quick match per format: two pages that ask for Goat are paired with each other, never
with a page of the default format."""

from __future__ import annotations

from typing import Any

from browser_env import LiveServer
from browser_ui import finished, open_page, take_turn_step, wait_app, wait_decision

from engine.decks import DECKS_BY_NAME
from protocol.messages import ListMatches, MatchList
from server.clients.client import DuelClient

GOAT = DECKS_BY_NAME["goat-control-flc22"]


async def live_rows(url: str) -> dict[str, dict[str, Any]]:
    c = await DuelClient.connect(url, "lister")
    try:
        await c.send(ListMatches(status="live", limit=50))
        return {r["match_id"]: r for r in (await c.expect(MatchList)).matches}
    finally:
        await c.close()


def hand_codes(page: Any, seat: int) -> list[int]:
    cards = page.locator(f".row.hand[data-seat='{seat}'] .card")
    return [int(c) for c in cards.evaluate_all("els => els.map(e => e.dataset.code)")]


def test_a_goat_match_from_the_lobby_with_a_goat_list_against_the_bot(browser: Any, live_server: LiveServer) -> None:
    page = open_page(browser, live_server.http + "/", auto_pass=True)
    wait_app(page, "() => window.duelApp.cat.loaded")
    page.get_by_label("Your name").fill("Goat")
    page.get_by_label("Format").select_option("goat")
    assert "April 2005" in page.locator("[data-testid=format-desc]").inner_text()
    # the nine Goat lists are offered, and no deck of the default format
    offered = page.locator("[data-testid=decks] .deck-option .deck-title").all_inner_texts()
    assert GOAT.title in offered and "Battle Step Ambush" not in offered
    assert len([t for t in offered if "(" in t and "yours" not in t]) == 9, offered
    page.get_by_label(GOAT.title).check()
    page.locator("[data-lobby=bot]").click()
    page.locator("[data-testid=turn]").wait_for()
    match_id = page.evaluate("() => window.duelApp.match.matchId")
    row = live_server.call(live_rows(live_server.ws))[match_id]
    assert row["format"] == "goat" and row["players"][0] == "Goat"
    # the duel is played with that list (its Fusion Deck too), under Goat rules
    assert set(hand_codes(page, 0)) <= set(GOAT.codes())
    view = page.evaluate("() => window.duelApp.match.view")
    assert view["players"][0]["extra_count"] == len(GOAT.extra_codes())
    assert view["players"][view["turn_player"]]["hand_count"] == 6  # the first player draws in Goat
    # the bot plays its seat: the page plays on until the bot's turn is over
    for _ in range(400):
        wait_decision(page, timeout=30_000)
        if finished(page) or page.evaluate("() => window.duelApp.match.view.turn") >= 3:
            break
        take_turn_step(page)
    assert finished(page) or page.evaluate("() => window.duelApp.match.view.turn") >= 3
    assert "B " in page.locator("[data-testid=log]").inner_text()
    assert page.errors == [], page.errors  # type: ignore[attr-defined]
    page.context.close()


def test_quick_match_pairs_pages_of_the_same_format(browser: Any, live_server: LiveServer) -> None:
    pages = []
    for name, fmt in (("Goat One", "goat"), ("Current", "current"), ("Goat Two", "goat")):
        page = open_page(browser, live_server.http + "/")
        wait_app(page, "() => window.duelApp.cat.loaded")
        page.get_by_label("Your name").fill(name)
        page.get_by_label("Format").select_option(fmt)
        page.locator("[data-lobby=quick]").click()
        if name != "Goat Two":
            page.get_by_role("heading", name="Waiting for an opponent").wait_for()
        pages.append(page)
    goat_one, current, goat_two = pages
    for page in (goat_one, goat_two):
        page.locator("[data-testid=turn]").wait_for()
    ids = {p.evaluate("() => window.duelApp.match.matchId") for p in (goat_one, goat_two)}
    assert len(ids) == 1
    match_id = ids.pop()
    rows = live_server.call(live_rows(live_server.ws))
    assert rows[match_id]["format"] == "goat" and rows[match_id]["players"] == ["Goat One", "Goat Two"]
    # the page of the default format still waits: nobody of its format came
    mine = current.evaluate("() => window.duelApp.match.matchId")
    assert mine != match_id and rows[mine]["status"] == "waiting" and rows[mine].get("format") == "current"
    assert current.get_by_role("heading", name="Waiting for an opponent").is_visible()
    for page in pages:
        page.context.close()
