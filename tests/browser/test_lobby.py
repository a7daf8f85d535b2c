"""The lobby in Chromium: it loads from the server with nothing from outside,
fits a desktop and a phone without horizontal scrolling, names a bad card in
a pasted decklist, and creates a match whose join link seats a second page."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from browser_env import LiveServer
from browser_ui import DESKTOP, PHONE, no_horizontal_scroll, open_page, shot, wait_app
from msgpack import unpackb

from protocol.messages import Accepted, CreateMatch, Join, ListMatches, MatchList, Seated, Update
from server.clients.client import DuelClient
from server.lobby.catalog import catalogue


def test_lobby_loads_only_from_its_own_server(browser: Any, live_server: LiveServer, screenshots: Path) -> None:
    foreign: list[str] = []
    frames: list[bytes] = []
    ctx = browser.new_context(viewport=DESKTOP)
    page = ctx.new_page()
    page.on(
        "request", lambda r: None if r.url.startswith((live_server.http, live_server.ws)) else foreign.append(r.url)
    )
    page.on(
        "websocket",
        lambda ws: ws.on(
            "framesent", lambda payload: frames.append(payload if isinstance(payload, bytes) else payload.encode())
        ),
    )
    page.goto(live_server.http + "/")
    wait_app(page, "() => window.duelApp && window.duelApp.connState.kind === 'open'")
    page.get_by_role("heading", name="Duel in the browser").wait_for()
    assert page.get_by_label("Your name").is_visible()
    assert page.locator("[data-testid=conn]").inner_text() == "connected"
    # the demo decks come from the server's catalogue: offered by title, with their descriptions
    cards = catalogue()
    offered = lobby_decks(cards.decks)
    assert offered, "the server has no playable demo decks of the default format"
    decks = page.locator("[data-testid=decks]")
    for deck in offered:
        option = decks.locator(".deck-option", has_text=deck["title"])
        option.wait_for()
        assert deck["description"] in option.inner_text()
    assert foreign == [], foreign
    assert no_horizontal_scroll(page)
    shot(page, screenshots, "lobby-1280x720")
    # the catalogue is kept by version: a reload does not ask for it again
    asked = [unpackb(f) for f in frames]
    assert [m["type"] for m in asked].count("get_cards") == 1
    assert page.evaluate("() => JSON.parse(localStorage.getItem('duel.cards')).version") == cards.version
    frames.clear()
    page.reload()
    wait_app(page, "() => window.duelApp && window.duelApp.connState.kind === 'open' && window.duelApp.cat.loaded")
    decks.locator(".deck-option", has_text=offered[0]["title"]).wait_for()
    assert "get_cards" not in [unpackb(f)["type"] for f in frames]
    ctx.close()


def lobby_decks(decks: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The demo decks the lobby offers: those of the default format that every card of is
    playable (a Goat list waits for its cards' scripts; docs/formats.md)."""
    return [d for d in decks if d.get("format", "current") == "current" and d.get("playable", True)]


def test_a_demo_deck_chosen_by_title_is_the_deck_played(browser: Any, live_server: LiveServer) -> None:
    deck = lobby_decks(catalogue().decks)[-1]
    page = open_page(browser, live_server.http + "/")
    page.get_by_label(deck["title"]).check()
    page.locator("[data-lobby=bot]").click()
    page.locator("[data-testid=turn]").wait_for()
    # every card A can see of its own (the opening hand) is from that deck
    codes = [
        int(c)
        for c in page.locator(".row.hand[data-seat='0'] .card").evaluate_all("els => els.map(e => e.dataset.code)")
    ]
    assert codes and set(codes) <= set(deck["cards"])
    page.locator(".decision [data-key=concede]").click()
    page.locator("dialog.dlg[open] button[data-action=concede]").click()
    page.locator("[data-testid=prompt]", has_text="you lost").wait_for()
    page.context.close()


def test_lobby_fits_a_phone(browser: Any, live_server: LiveServer, screenshots: Path) -> None:
    page = open_page(browser, live_server.http + "/", PHONE)
    page.get_by_role("button", name="Quick match").wait_for()
    assert no_horizontal_scroll(page)
    shot(page, screenshots, "lobby-390x844")
    page.context.close()


def test_a_pasted_decklist_error_names_the_card(browser: Any, live_server: LiveServer) -> None:
    page = open_page(browser, live_server.http + "/")
    wait_app(page, "() => window.duelApp.cat.loaded")
    page.get_by_label("Paste a decklist…").check()
    page.get_by_label("Decklist", exact=True).fill("3 Honest\nBlue Eyes White Dragn\n37742478\n")
    page.locator("[data-lobby=create]").click()
    errors = page.locator("#deck-errors li")
    errors.first.wait_for()
    text = " | ".join(errors.all_inner_texts())
    assert 'line 2: no card named "Blue Eyes White Dragn"' in text
    assert "Blue-Eyes White Dragon" in text  # the suggestion
    # the deck was not sent: still in the lobby, no seat taken
    assert page.evaluate("() => window.duelApp.screen") == "lobby"
    # a well-formed list that breaks a deck rule is refused before sending too
    page.get_by_label("Decklist", exact=True).fill("4 Honest\n" + "Blue-Eyes White Dragon\n" * 2)
    page.locator("[data-lobby=create]").click()
    page.locator("#deck-errors li", has_text="at most 3").wait_for()
    page.context.close()


def test_joining_an_unknown_match_says_so(browser: Any, live_server: LiveServer) -> None:
    page = open_page(browser, live_server.http + "/#/join/NoSuchMatch1")
    page.locator(".joinbox [data-lobby=join]").click()
    err = page.locator(".panel .error")
    err.wait_for()
    assert "NoSuchMatch1" in err.inner_text() and "match/not_found" in err.inner_text()
    page.context.close()


def test_create_with_a_clock_join_by_link_watch_from_the_list_and_concede(
    browser: Any, live_server: LiveServer
) -> None:
    host = open_page(browser, live_server.http + "/")
    host.get_by_label("Your name").fill("Hostess")
    host.get_by_label("Chess clock").select_option("300")
    host.get_by_label("Increment").select_option("5")
    host.locator("[data-lobby=create]").click()
    invite = host.locator("[data-testid=invite]")
    invite.wait_for()
    link = invite.input_value()
    assert "#/join/" in link
    match_id = link.rsplit("/", 1)[1]
    guest = open_page(browser, link)
    guest.get_by_label("Your name").fill("Guest")
    guest.locator(".joinbox [data-lobby=join]").click()
    for page in (host, guest):
        page.locator("[data-testid=turn]").wait_for()
        assert page.locator("[data-testid=turn]").inner_text().startswith("Turn 1")
        # both clocks are shown, 5 minutes at most
        clocks = page.locator("[data-clock]")
        assert clocks.count() == 2
        for text in clocks.all_inner_texts():
            minutes, seconds = text.removeprefix("Clock ").split(":")
            assert 0 <= int(minutes) * 60 + int(seconds) <= 300
    # each sees its own hand face up and the other's as backs
    for page, me in ((host, 0), (guest, 1)):
        mine = page.locator(f".row.hand[data-seat='{me}'] .card")
        theirs = page.locator(f".row.hand[data-seat='{1 - me}'] .card")
        assert mine.count() >= 5 and theirs.count() >= 5
        assert all(c.get_attribute("data-code") for c in mine.all())
        assert all(
            "back" in (c.get_attribute("class") or "") and c.get_attribute("data-code") is None for c in theirs.all()
        )
    # a third page finds the live match in the lobby's list and watches it
    watcher = open_page(browser, live_server.http + "/")
    watcher.locator("[data-key=refresh]").click()
    watch = watcher.locator(f"[data-watch='{match_id}']")
    watch.wait_for()
    watch.click()
    watcher.locator("[data-testid=turn]").wait_for()
    assert watcher.locator("main.match").get_attribute("data-role") == "spectator"
    # the names chosen in the lobby are on the board, for the players and the spectator
    for page in (host, guest, watcher):
        page.locator(".playerbar[data-seat='0']", has_text="Hostess").wait_for()
        page.locator(".playerbar[data-seat='1']", has_text="Guest").wait_for()
    # the guest leaves: the host sees its opponent disconnected
    host.locator("[data-testid=presence-1]", has_text=re.compile("^connected$")).wait_for()
    guest.context.close()
    host.locator("[data-testid=presence-1]", has_text="disconnected").wait_for()
    # the host concedes (with a confirmation); everyone still there sees the result
    host.locator(".decision [data-key=concede]").click()
    host.locator("dialog.dlg[open] button[data-action=concede]").click()
    for page, words in ((host, "you lost"), (watcher, "B (Guest) wins")):
        page.locator("[data-testid=prompt]", has_text=words).wait_for()
    assert "Duel over: B wins" in watcher.locator("[data-testid=log]").inner_text()
    for page in (host, watcher):
        assert page.errors == [], page.errors  # type: ignore[attr-defined]
        page.context.close()


def test_quick_match_pairs_two_pages(browser: Any, live_server: LiveServer) -> None:
    first = open_page(browser, live_server.http + "/")
    first.locator("[data-lobby=quick]").click()
    first.get_by_role("heading", name="Waiting for an opponent").wait_for()
    second = open_page(browser, live_server.http + "/")
    second.locator("[data-lobby=quick]").click()
    for page in (first, second):
        page.locator("[data-testid=turn]").wait_for()
    ids = {p.evaluate("() => window.duelApp.match.matchId") for p in (first, second)}
    seats = sorted(p.evaluate("() => window.duelApp.match.seat") for p in (first, second))
    assert len(ids) == 1 and seats == [0, 1]
    for page in (first, second):
        page.context.close()


async def conceded_matches(url: str, n: int, tag: str) -> list[str]:
    """``n`` matches between "<tag> A<i>" and "<tag> B<i>", each conceded by A at once;
    their ids, in the order they finished."""
    ids: list[str] = []
    for i in range(n):
        a = await DuelClient.connect(url, "A")
        b = await DuelClient.connect(url, "B")
        await a.send(CreateMatch(name=f"{tag} A{i}"))
        match_id = (await a.expect(Seated)).match_id
        await b.send(Join(match_id=match_id, name=f"{tag} B{i}"))
        await b.expect(Seated)
        while a.view is None:
            await a.expect(Update)
        assert isinstance(await a.act({"do": "concede"}), Accepted)
        ids.append(match_id)
        await a.close()
        await b.close()
    # until the history lists the last of them
    lister = await DuelClient.connect(url, "lister")
    for _ in range(200):
        await lister.send(ListMatches(status="finished", limit=5))
        if ids[-1] in [r["match_id"] for r in (await lister.expect(MatchList)).matches]:
            break
    else:
        pytest.fail("the finished matches never reached the history")
    await lister.close()
    return ids


async def finished_rows(url: str, n: int) -> list[dict[str, Any]]:
    lister = await DuelClient.connect(url, "lister")
    try:
        await lister.send(ListMatches(status="finished", limit=n))
        return list((await lister.expect(MatchList)).matches)
    finally:
        await lister.close()


def test_finished_matches_are_listed_newest_first_a_page_at_a_time(browser: Any, live_server: LiveServer) -> None:
    ids = live_server.call(conceded_matches(live_server.ws, 21, "Pager"))
    # the server's own order, newest first (by finish time; the rows of one millisecond by id)
    listed = live_server.call(finished_rows(live_server.ws, 21))
    newest_first = [r["match_id"] for r in listed]
    assert sorted(newest_first) == sorted(ids)
    page = open_page(browser, live_server.http + "/")
    sent: list[dict[str, Any]] = []
    page.on(
        "websocket",
        lambda ws: ws.on(
            "framesent",
            lambda payload: sent.append(unpackb(payload if isinstance(payload, bytes) else payload.encode())),
        ),
    )
    page.reload()  # so that the socket is watched from its start
    wait_app(page, "() => window.duelApp && window.duelApp.connState.kind === 'open'")
    rows = page.locator("[data-list=replay] li")
    rows.first.wait_for()
    shown = rows.evaluate_all("els => els.map(e => e.dataset.match)")
    assert shown == newest_first[:20]  # one page
    first = rows.first.text_content() or ""
    a, b = listed[0]["players"]
    assert first.startswith(f"{a} vs {b} · {b} won (a player conceded) · 1 turn, 2 entries · "), first
    assert rows.first.locator("[data-replay]").get_attribute("href") == f"#/replay/{newest_first[0]}"
    # the next page: older matches, after the first page's
    page.locator("[data-more=finished]").click()
    page.wait_for_function("() => document.querySelectorAll('[data-list=replay] li').length > 20")
    shown = rows.evaluate_all("els => els.map(e => e.dataset.match)")
    assert shown[:21] == newest_first and len(shown) == len(set(shown))
    # asked with the tie-safe cursor: the last row's finish time and its id
    older = [m for m in sent if m.get("type") == "list_matches" and m.get("before_ms") is not None]
    assert len(older) == 1, older
    assert (older[0]["before_ms"], older[0]["before_id"]) == (listed[19]["finished_ms"], listed[19]["match_id"])
    page.context.close()
