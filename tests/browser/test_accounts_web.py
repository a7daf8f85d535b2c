"""Accounts in the web client, in Chromium (issue 39): register, log in and out, a deck saved in the
deck editor kept with the account and found again in a fresh browser (another device) after logging
in and reloading; two logged-in pages play a rated quick match (one concedes), then the leaderboard
and each player's page show the ratings and the match, with a link to its replay; two pages too far
apart in rating both wait, then are paired as the window widens (one page moves to the other's
match)."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_env import REPO, LiveServer
from browser_ui import open_page, shot, wait_app

from server.accounts import AccountSettings
from server.accounts.ratings import Rating
from server.accounts.store import AccountStore
from server.lobby.rated_queue import RatedWindow
from server.process.webapp import web_root
from server.storage import keys

PASSWORD = "browser ladder password"
GOAT_CONTROL = REPO / "engine" / "data" / "goat" / "decks" / "goat-control_flc22_erkator.ydk"


@pytest.fixture(scope="module")
def live_server(browser_redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """The module's server: every page logs in from 127.0.0.1 (once per connection, and the client
    opens one per screen), so the per-address login limit is lifted; and a finished rated match
    is rated at once (the sweep every 0.5 s otherwise)."""
    if not (web_root() / "index.html").is_file():
        pytest.fail(f"the web client is not built in {web_root()}: run `make web` (make test does)")
    settings = AccountSettings(address_per_minute=10_000, rated_sweep_every=0.5)
    window = RatedWindow(every_s=1.0)  # rated quick match: the window widens by 50 a second
    srv = LiveServer(browser_redis_url, Path(tmp_path_factory.mktemp("adata")), accounts=settings, rated_window=window)
    try:
        yield srv
    finally:
        srv.stop()


def account_page(browser: Any, live_server: LiveServer) -> Any:
    page = open_page(browser, live_server.http + "/#/account")
    page.locator("#account-name").wait_for()
    return page


def sign(page: Any, name: str, mode: str) -> None:
    """Register (``mode`` "register") or log in on the #/account page; wait until logged in."""
    page.locator(f"[data-key=mode-{mode}]").check()
    page.locator("#account-name").fill(name)
    page.locator("#account-password").fill(PASSWORD)
    page.locator("[data-key=account-submit]").click()
    page.locator("[data-testid=account-name]", has_text=name).wait_for()
    wait_app(page, "() => window.duelApp.account.live")


def saved_names(page: Any) -> list[str]:
    return [str(x) for x in page.locator("[data-testid=saved-decks] .mname").all_inner_texts()]


def test_register_save_a_deck_and_find_it_in_a_fresh_browser(browser: Any, live_server: LiveServer) -> None:
    name = f"Web-{secrets.token_hex(3)}"
    page = account_page(browser, live_server)
    # limits are checked on the page too: a short password is refused before anything is sent
    page.locator("[data-key=mode-register]").check()
    page.locator("#account-name").fill(name)
    page.locator("#account-password").fill("short")
    page.locator("[data-key=account-submit]").click()
    page.locator("[data-testid=account-error]", has_text="a password has 8 to 128 characters").wait_for()
    sign(page, name, "register")
    # the deck editor: a .ydk file imported is kept in this browser and with the account
    page.locator("[data-key=nav-decks]").click()
    wait_app(page, "() => window.duelApp.screen === 'decks' && window.duelApp.cat.loaded")
    page.set_input_files("#deck-file", str(GOAT_CONTROL))
    page.locator("[data-testid=deck-note]", has_text="Imported").wait_for()
    page.locator("[data-testid=deck-sync]", has_text="1 deck kept with your account").wait_for()
    server = live_server.server
    account_id = live_server.call(AccountStore(server.redis).id_of(name))
    assert account_id is not None
    shelf = live_server.call(server.accounts.desk.decks.shelf(account_id))
    (kept,) = shelf.decks
    assert kept["name"] == "goat-control_flc22_erkator" and kept["format"] == "goat" and len(kept["deck"]) >= 40
    # another browser (a fresh context: nothing in its storage) logs in and finds the deck
    other = account_page(browser, live_server)
    other.goto(live_server.http + "/#/decks")
    wait_app(other, "() => window.duelApp.screen === 'decks' && window.duelApp.cat.loaded")
    assert saved_names(other) == []
    other.goto(live_server.http + "/#/account")
    sign(other, name, "login")
    other.goto(live_server.http + "/#/decks")
    other.reload()
    wait_app(other, "() => window.duelApp.screen === 'decks' && window.duelApp.account.live")
    other.locator("[data-testid=saved-decks] .mname", has_text="goat-control_flc22_erkator").wait_for()
    main_cards = other.evaluate("() => JSON.parse(localStorage.getItem('duel.decks'))[0].main.length")
    extra_cards = other.evaluate("() => JSON.parse(localStorage.getItem('duel.decks'))[0].extra.length")
    assert main_cards + extra_cards == len(kept["deck"]) and extra_cards > 0  # the Fusion Deck told apart
    # logging out revokes the session and takes the account's decks off this browser
    other.locator("[data-key=logout]").click()
    other.locator("[data-testid=login-link]").wait_for()
    wait_app(other, "() => window.duelApp.screen === 'decks'")
    assert saved_names(other) == []
    assert other.evaluate("() => localStorage.getItem('duel.account')") is None
    for p in (page, other):
        assert p.errors == [], p.errors
        p.context.close()


def test_a_rated_quick_match_then_the_ladder_and_the_players_pages(
    browser: Any, live_server: LiveServer, screenshots: Path
) -> None:
    ann, bob = f"Ann-{secrets.token_hex(3)}", f"Bob-{secrets.token_hex(3)}"
    pages = []
    for name in (ann, bob):
        page = account_page(browser, live_server)
        sign(page, name, "register")
        page.locator("[data-key=nav-lobby]").click()
        page.locator("[data-key=rated]").check()
        pages.append(page)
    first, second = pages
    first.locator("[data-lobby=quick]").click()
    first.get_by_role("heading", name="Waiting for an opponent").wait_for()
    second.locator("[data-lobby=quick]").click()
    for page in pages:
        page.locator("[data-testid=turn]").wait_for()
    match_id = first.evaluate("() => window.duelApp.match.matchId")
    assert second.evaluate("() => window.duelApp.match.matchId") == match_id
    info = live_server.call(live_server.server.directory.get(match_id))
    assert info is not None and info.rated and all(info.accounts)
    # Bob concedes at once: Ann wins the rated match
    second.locator(".decision [data-key=concede]").click()
    second.locator("dialog.dlg[open] button[data-action=concede]").click()
    second.locator("[data-testid=prompt]", has_text="you lost").wait_for()
    # the leaderboard of the format: both, Ann above Bob
    first.goto(live_server.http + "/#/ladder/current")
    first.locator(f"[data-testid=ladder] tr[data-player='{ann}']").wait_for()
    for _ in range(20):  # the update is applied within the sweep (0.5 s) after the end
        if first.locator(f"[data-testid=ladder] tr[data-player='{bob}']").count():
            break
        first.reload()
        first.wait_for_timeout(300)
    names = first.locator("[data-testid=ladder] tbody tr").evaluate_all("rows => rows.map(r => r.dataset.player)")
    assert names.index(ann) < names.index(bob)
    shot(first, screenshots, "ladder")
    # the player's own page (from the header): the rating, and the match with its replay
    first.locator("[data-testid=account-name]").click()
    first.locator("[data-testid=profile-name]", has_text=ann).wait_for()
    rating = float(first.locator("[data-testid=rating-current]").inner_text())
    assert rating > 1500
    row = first.locator(f"li[data-match='{match_id}']")
    row.wait_for()
    assert row.get_attribute("data-result") == "won" and "rated" in row.inner_text() and bob in row.inner_text()
    shot(first, screenshots, "player-page")
    row.locator(f"[data-replay='{match_id}']").click()
    wait_app(first, "id => window.duelApp.screen === 'replay' && window.duelApp.replay.matchId === id", match_id)
    # Bob's page, from the ladder: the same match, lost
    second.goto(live_server.http + f"/#/player/{bob}")
    second.locator(f"li[data-match='{match_id}'][data-result='lost']").wait_for()
    assert float(second.locator("[data-testid=rating-current]").inner_text()) < 1500
    for p in pages:
        assert p.errors == [], p.errors
        p.context.close()


def test_two_waiting_pages_are_paired_as_the_window_widens(browser: Any, live_server: LiveServer) -> None:
    """300 points apart in Goat: both pages wait in matches of their own; after about 4 s (the window
    widens by 50 a second here) one of them is given the other's seat 1, and both play one duel."""
    names = [f"Far-{secrets.token_hex(3)}" for _ in range(2)]
    pages = []
    for name, rating in zip(names, (1500.0, 1800.0), strict=True):
        page = account_page(browser, live_server)
        sign(page, name, "register")
        server = live_server.server
        account_id = live_server.call(AccountStore(server.redis).id_of(name))
        assert account_id is not None
        rated = Rating(rating=rating, rd=80.0, games=20).dumps()
        live_server.call(server.redis.hset(keys.ratings_key("goat"), account_id, rated))
        page.locator("[data-key=nav-lobby]").click()
        page.locator("#format").select_option("goat")
        page.locator("[data-key=rated]").check()
        page.locator("[data-lobby=quick]").click()
        page.get_by_role("heading", name="Waiting for an opponent").wait_for()
        pages.append(page)
    waiting = [p.evaluate("() => window.duelApp.match.matchId") for p in pages]
    assert waiting[0] != waiting[1]
    for page in pages:
        page.locator("[data-testid=turn]").wait_for(timeout=20_000)
    ids = {p.evaluate("() => window.duelApp.match.matchId") for p in pages}
    seats = sorted(p.evaluate("() => window.duelApp.match.seat") for p in pages)
    assert len(ids) == 1 and ids <= set(waiting) and seats == [0, 1]
    (match_id,) = ids
    for page in pages:  # the page that moved shows the match it plays now
        assert page.url.endswith(f"#/match/{match_id}")
        assert page.errors == [], page.errors
        page.context.close()
