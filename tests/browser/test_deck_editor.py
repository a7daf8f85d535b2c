"""The deck editor in Chromium (issue 38): a ``.ydk`` file and a ``ydke://`` link go in and come
out the same (read back by the server's own parser, engine/ydk.py); the search filters; the
format's limits on each card and the deck checked as it grows; a deck built by clicking is kept
in the browser and played against the bot (its cards are the duel's cards); a pasted ``.ydk``
list is accepted by the lobby; the editor fits a desktop and a phone. docs/deck-editor.png (README)
is a copy of the screenshot taken here."""

from __future__ import annotations

import base64
import struct
from pathlib import Path
from typing import Any

from browser_env import REPO, LiveServer
from browser_ui import PHONE, no_horizontal_scroll, open_page, shot, wait_app
from msgpack import unpackb

from engine.ydk import DeckList, parse_ydk, parse_ydke
from server.lobby.catalog import catalogue

GOAT_DECKS = REPO / "engine" / "data" / "goat" / "decks"
GOAT_CONTROL = GOAT_DECKS / "goat-control_flc22_erkator.ydk"
WARRIOR = GOAT_DECKS / "warrior_flc22_moxies.ydk"
BY_NAME = {c["name"]: c for c in catalogue().cards}


def ydke(deck: DeckList) -> str:
    """A ydke:// link as the deck sites write it (the codec under test is the page's)."""
    parts = [base64.b64encode(struct.pack(f"<{len(p)}I", *p)).decode() for p in (deck.main, deck.extra, deck.side)]
    return "ydke://" + "!".join(parts) + "!"


def editor(browser: Any, live_server: LiveServer) -> Any:
    page = open_page(browser, live_server.http + "/#/decks")
    wait_app(page, "() => window.duelApp.cat.loaded && window.duelApp.screen === 'decks'")
    page.locator("[data-testid=results] li").first.wait_for()
    return page


def counts(page: Any) -> tuple[int, int, int]:
    got = [int(page.locator(f"[data-testid=count-{p}] b").inner_text()) for p in ("main", "extra", "side")]
    return got[0], got[1], got[2]


def downloaded_ydk(page: Any, tmp_path: Path) -> str:
    with page.expect_download() as info:
        page.locator("[data-key=deck-download]").click()
    target = tmp_path / info.value.suggested_filename
    info.value.save_as(target)
    return target.read_text("utf-8")


def test_a_ydk_file_and_a_ydke_link_round_trip(browser: Any, live_server: LiveServer, tmp_path: Path) -> None:
    listed = parse_ydk(GOAT_CONTROL.read_text("utf-8"))
    page = editor(browser, live_server)
    # a .ydk file from a deck site: imported as a new deck, in the format it is legal in
    page.set_input_files("#deck-file", str(GOAT_CONTROL))
    page.locator("[data-testid=deck-note]", has_text="Imported").wait_for()
    assert "legal in Goat (April 2005)" in page.locator("[data-testid=deck-note]").inner_text()
    assert counts(page) == (40, 15, 15)
    assert page.get_by_label("Format").input_value() == "goat"
    assert page.locator("[data-testid=deck-legal]").inner_text() == "Legal in Goat (April 2005)."
    # the format's limits are on the cards: Sangan is Limited in Goat
    sangan = page.locator(f".deckcards li[data-code='{BY_NAME['Sangan']['code']}'] .badge")
    assert sangan.inner_text() == "Limited 1"
    # exported as a .ydk file: the server reads the same three lists, in the same order
    text = downloaded_ydk(page, tmp_path)
    assert text.startswith("#created by the duel server's deck editor")
    assert parse_ydk(text) == listed
    # and as a ydke:// link: the server reads the same lists again, and a deck site's own link is the same
    link = page.locator("[data-testid=ydke-link]").input_value()
    assert parse_ydke(link) == listed and link == ydke(listed)

    # a ydke:// link pasted: another list, imported and exported unchanged
    warrior = parse_ydk(WARRIOR.read_text("utf-8"))
    page.locator("#deck-paste").fill(ydke(warrior))
    page.locator("[data-key=deck-import]").click()
    page.locator("[data-testid=deck-note]", has_text='Imported "Pasted deck"').wait_for()
    assert counts(page) == (len(warrior.main), len(warrior.extra), len(warrior.side))
    assert page.locator("[data-testid=ydke-link]").input_value() == ydke(warrior)
    assert parse_ydk(downloaded_ydk(page, tmp_path)) == warrior
    # both decks are kept in the browser, and outlive a reload
    page.reload()
    wait_app(page, "() => window.duelApp.cat.loaded && window.duelApp.screen === 'decks'")
    page.locator("[data-testid=saved-decks] li").nth(1).wait_for()
    assert page.locator("[data-testid=saved-decks] li").count() == 2
    assert page.get_by_label("Deck name").input_value() == "Pasted deck"
    # a list that is not one: every bad line is named, nothing is imported
    page.locator("#deck-paste").fill("#main\n18036057\nBlue-Eyes White Dragon\n!side\n0\n")
    page.locator("[data-key=deck-import]").click()
    problems = page.locator("[data-testid=import-problems] li")
    problems.first.wait_for()
    assert problems.all_inner_texts() == [
        "line 3: 'Blue-Eyes White Dragon' is not a passcode (a card is its passcode on a line)",
        "line 5: 0 is not a passcode",
    ]
    assert page.locator("[data-testid=saved-decks] li").count() == 2
    assert page.errors == [], page.errors  # type: ignore[attr-defined]
    page.context.close()


def test_the_search_filters_and_the_limits_as_a_deck_grows(browser: Any, live_server: LiveServer) -> None:
    page = editor(browser, live_server)
    page.locator("[data-key=deck-new]").click()
    page.get_by_label("Format").select_option("goat")
    page.locator("[data-testid=found]", has_text="128 cards of Goat (April 2005)").wait_for()

    def shown() -> list[dict[str, Any]]:
        codes = page.locator("[data-testid=results] li").evaluate_all("els => els.map(e => Number(e.dataset.code))")
        return [BY_NAME[next(n for n, c in BY_NAME.items() if c["code"] == code)] for code in codes]

    page.get_by_label("Kind").select_option("monster:effect")
    page.get_by_label("Attribute").select_option("DARK")
    page.get_by_label("ATK at least").fill("1500")
    page.get_by_label("DEF at most").fill("1500")
    page.wait_for_timeout(100)
    cards = shown()
    assert cards and all(
        "effect" in c["monster_kinds"] and c["attribute"] == "DARK" and c["atk"] >= 1500 and c["def"] <= 1500
        for c in cards
    ), cards
    assert "Breaker the Magical Warrior" in [c["name"] for c in cards]
    page.get_by_label("Level").select_option("4")
    page.get_by_label("Type").select_option("Spellcaster")
    page.wait_for_timeout(100)
    goat = set(next(f for f in catalogue().formats if f["name"] == "goat")["cards"])
    want = {
        c["name"]
        for c in BY_NAME.values()
        if c["code"] in goat
        and "effect" in c["monster_kinds"]
        and (c["attribute"], c["type"], c["level"]) == ("DARK", "Spellcaster", 4)
        and c["atk"] >= 1500
        and c["def"] <= 1500
    }
    assert "Breaker the Magical Warrior" in want and {c["name"] for c in shown()} == want
    # the text search reads the card's text (the wording the format plays)
    for label, value in (("Kind", ""), ("Attribute", ""), ("Type", ""), ("Level", "")):
        page.get_by_label(label).select_option(value)
    page.get_by_label("ATK at least").fill("")
    page.get_by_label("DEF at most").fill("")
    # typed key by key: the field keeps its text and caret while the results are drawn again
    page.get_by_label("Search name or text").press_sequentially("banish graveyard")
    assert page.get_by_label("Search name or text").input_value() == "banish graveyard"
    page.wait_for_timeout(100)
    found = shown()
    assert found and all("banish" in c["text"].lower() and "graveyard" in c["text"].lower() for c in found)
    # a Limited card: one copy, then the button says why no more
    page.get_by_label("Search name or text").fill("Sangan")
    row = page.locator(f"[data-testid=results] li[data-code='{BY_NAME['Sangan']['code']}']")
    assert row.locator(".badge").inner_text() == "Limited 1"
    row.locator("button[data-add=main]").click()
    assert row.locator("button[data-add=main]").is_disabled() and row.locator("button[data-add=side]").is_disabled()
    assert "1 in the deck: at most 1" in (row.locator("button[data-add=main]").get_attribute("title") or "")
    # the deck is checked as it grows: sizes, and an Extra Deck monster goes to the Fusion Deck
    assert page.locator("[data-testid=deck-problems] li").first.inner_text() == (
        "the Main Deck has 1 cards; it must have 40 to 60"
    )
    page.get_by_label("Search name or text").fill("Thousand-Eyes Restrict")
    page.locator("[data-testid=results] li button[data-add=extra]").first.click()
    assert counts(page) == (1, 1, 0)
    page.locator(".part[data-part=extra] li button[data-move=side]").click()
    assert counts(page) == (1, 0, 1)
    problems = page.locator("[data-testid=deck-problems]").inner_text()
    assert "the Side Deck has 1 cards; it must have 0 or 15" in problems
    assert page.locator("[data-key=deck-play]").is_disabled()
    page.context.close()


def test_a_deck_built_in_the_editor_is_played_against_the_bot(
    browser: Any, live_server: LiveServer, screenshots: Path
) -> None:
    page = editor(browser, live_server)
    page.locator("[data-key=deck-new]").click()
    page.get_by_label("Format").select_option("current")
    page.get_by_label("Deck name").fill("Normals")
    page.get_by_label("Kind").select_option("monster:normal")
    page.get_by_label("Sort by").select_option("atk")
    rows = page.locator("[data-testid=results] li")
    rows.nth(13).wait_for()
    built: list[int] = []
    for i in range(14):
        add = rows.nth(i).locator("button[data-add=main]")
        for _ in range(3):
            if len(built) == 40:
                break
            add.click()
            built.append(int(rows.nth(i).get_attribute("data-code") or 0))
    assert counts(page) == (40, 0, 0)
    page.locator("[data-testid=deck-legal]", has_text="Legal in Current rules.").wait_for()
    # kept in the browser as built
    kept = page.evaluate("() => JSON.parse(localStorage.getItem('duel.decks'))")
    assert [(d["name"], d["format"], sorted(d["main"])) for d in kept] == [("Normals", "current", sorted(built))]
    sent: list[dict[str, Any]] = []
    page.on(
        "websocket",
        lambda ws: ws.on(
            "framesent",
            lambda payload: sent.append(unpackb(payload if isinstance(payload, bytes) else payload.encode())),
        ),
    )
    # "Play this deck": the lobby offers it, chosen, for a match of its format
    page.locator("[data-key=deck-play]").click()
    page.get_by_role("heading", name="Duel in the browser").wait_for()
    mine = page.get_by_label("Normals (yours)")
    mine.wait_for()
    assert mine.is_checked() and page.get_by_label("Format").input_value() == "current"
    page.locator("[data-lobby=bot]").click()
    page.locator("[data-testid=turn]").wait_for()
    create = next(m for m in sent if m.get("type") == "create_match")
    assert sorted(create["deck"]) == sorted(built) and create["format"] == "current" and create["opponent"] == "bot"
    hand = page.locator(".row.hand[data-seat='0'] .card").evaluate_all("els => els.map(e => Number(e.dataset.code))")
    assert len(hand) >= 5 and set(hand) <= set(built), hand
    page.locator(".decision [data-key=concede]").click()
    page.locator("dialog.dlg[open] button[data-action=concede]").click()
    page.locator("[data-testid=prompt]", has_text="you lost").wait_for()
    assert page.errors == [], page.errors  # type: ignore[attr-defined]
    page.context.close()


def test_a_pasted_ydk_list_is_accepted_by_the_lobby(browser: Any, live_server: LiveServer) -> None:
    warrior = parse_ydk(WARRIOR.read_text("utf-8"))
    page = open_page(browser, live_server.http + "/")
    wait_app(page, "() => window.duelApp.cat.loaded")
    page.get_by_label("Format").select_option("goat")
    page.get_by_label("Paste a decklist…").check()
    # a .ydk with a line that is not a passcode: named, nothing sent
    page.get_by_label("Decklist", exact=True).fill("#main\nSangan\n!side\n")
    page.locator("[data-lobby=bot]").click()
    page.locator("#deck-errors li", has_text="line 2: 'Sangan' is not a passcode").wait_for()
    assert page.evaluate("() => window.duelApp.screen") == "lobby"
    # the whole list, Side Deck and all (checked, not sent): a Goat duel against the bot
    page.get_by_label("Decklist", exact=True).fill(WARRIOR.read_text("utf-8"))
    page.locator("[data-lobby=bot]").click()
    page.locator("[data-testid=turn]").wait_for()
    hand = page.locator(".row.hand[data-seat='0'] .card").evaluate_all("els => els.map(e => Number(e.dataset.code))")
    assert len(hand) >= 5 and set(hand) <= set(warrior.main), hand
    assert page.locator(".playerbar[data-seat='0']").count() == 1
    assert page.evaluate("() => window.duelApp.match.view.players[0].extra_count") == len(warrior.extra)
    page.locator(".decision [data-key=concede]").click()
    page.locator("dialog.dlg[open] button[data-action=concede]").click()
    page.locator("[data-testid=prompt]", has_text="you lost").wait_for()
    page.context.close()


def test_the_deck_editor_screenshot(browser: Any, live_server: LiveServer, screenshots: Path) -> None:
    """The editor as the README shows it (docs/deck-editor.png is a copy of this screenshot): a
    Goat list with the card view open, fitting a desktop without horizontal scrolling."""
    page = open_page(browser, live_server.http + "/#/decks", {"width": 1280, "height": 800})
    wait_app(page, "() => window.duelApp.cat.loaded && window.duelApp.screen === 'decks'")
    page.set_input_files("#deck-file", str(GOAT_CONTROL))
    page.locator("[data-testid=deck-note]", has_text="Imported").wait_for()
    page.get_by_label("Deck name").fill("Goat Control (FLC22)")
    page.get_by_label("Search name or text").fill("spellcaster")
    breaker = BY_NAME["Breaker the Magical Warrior"]["code"]
    page.locator(f"[data-testid=results] li[data-code='{breaker}'] .ecard").click()
    page.locator("[data-testid=card-view]", has_text="Breaker the Magical Warrior").wait_for()
    page.mouse.move(0, 0)
    assert page.locator("[data-testid=deck-legal]").inner_text() == "Legal in Goat (April 2005)."
    assert no_horizontal_scroll(page)
    assert shot(page, screenshots, "deck-editor-1280x800").stat().st_size > 10_000
    page.context.close()


def test_the_deck_editor_fits_a_phone(browser: Any, live_server: LiveServer, screenshots: Path) -> None:
    page = open_page(browser, live_server.http + "/#/decks", PHONE)
    wait_app(page, "() => window.duelApp.cat.loaded && window.duelApp.screen === 'decks'")
    page.set_input_files("#deck-file", str(WARRIOR))
    page.locator("[data-testid=deck-note]", has_text="Imported").wait_for()
    assert no_horizontal_scroll(page)
    shot(page, screenshots, "deck-editor-390x844")
    page.context.close()
