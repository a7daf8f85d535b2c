"""Two pages play a best of three to its end, by clicking, in real Chromium (issue 39): each brings
a deck with a Side Deck (a pasted .ydk list), each swaps one card between duels on the siding
screen, the loser of each duel chooses who goes first, the duels end by "Concede this duel"; a
third page spectates from duel 1 to the match's end, following the match from duel to duel.
Neither the opponent nor the spectator is shown a card of the other's Side Deck: only counts."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from browser_env import LiveServer
from browser_ui import open_page, shot, wait_app
from playwright.sync_api import Page

from server import rules
from server.storage import keys

DECK_A, DECK_B = rules.default_deck(0), rules.default_deck(1)


def side_of(count: int, avoid: set[int]) -> list[int]:
    playable = {c.code for c in rules.supported()}
    pool = sorted(rules.named_format("current").pool)
    out = [c for c in pool if c in playable and c not in avoid and not rules.CARDS[c].extra_deck]
    return out[:count]


SIDE_A = side_of(2, set(DECK_A) | set(DECK_B))
SIDE_B = side_of(4, set(DECK_A) | set(DECK_B) | set(SIDE_A))[2:]


def ydk(deck: list[int], side: list[int]) -> str:
    return "#main\n" + "\n".join(map(str, deck)) + "\n#extra\n!side\n" + "\n".join(map(str, side)) + "\n"


def names(codes: list[int]) -> list[str]:
    return [rules.CARDS[c].name for c in codes]


def at_duel(page: Page, duel: int, phase: str) -> None:
    at = (
        "a => { const m = window.duelApp.match;"
        " return !!m && !!m.match && m.match.duel === a[0] && m.match.phase === a[1]; }"
    )
    wait_app(page, at, [duel, phase])


def board_of_duel(page: Page, duel: int) -> None:
    at_duel(page, duel, "dueling")
    page.locator(f"main.match[data-duel='{duel}'] [data-testid=turn]").wait_for()


def side_once(page: Page) -> tuple[str, str]:
    """Swap the first card of the deck with the first of the Side Deck, then Done: (out, in)."""
    siding = page.locator("[data-testid=siding]")
    out = siding.locator("[data-testid=siding-deck] .card-pick").first
    inn = siding.locator("[data-testid=siding-side] .card-pick").first
    out_name, in_name = out.inner_text(), inn.inner_text()
    out.click()
    inn.click()
    siding.locator("[data-testid=swap]").click()
    siding.locator("[data-testid=siding-deck] .card-pick", has_text=in_name).first.wait_for()
    siding.locator("[data-testid=side-done]").click()
    siding.locator("[data-testid=side-sent]").wait_for()
    return out_name, in_name


def test_two_pages_play_a_best_of_three_with_a_spectator(
    browser: Any, live_server: LiveServer, screenshots: Path
) -> None:
    a = open_page(browser, live_server.http + "/", auto_pass=True)
    wait_app(a, "() => window.duelApp.cat.loaded")
    a.get_by_label("Your name").fill("Ann")
    a.get_by_label("Paste a decklist…").check()
    a.get_by_label("Decklist", exact=True).fill(ydk(DECK_A, SIDE_A))
    a.get_by_label("Match", exact=True).select_option("3")
    a.locator("[data-lobby=create]").click()
    invite = a.locator("[data-testid=invite]")
    invite.wait_for()
    link = invite.input_value()
    match_id = link.rsplit("/", 1)[1]
    b = open_page(browser, link, auto_pass=True)
    wait_app(b, "() => window.duelApp.cat.loaded")
    b.get_by_label("Your name").fill("Bob")
    b.get_by_label("Paste a decklist…").check()
    b.get_by_label("Decklist", exact=True).fill(ydk(DECK_B, SIDE_B))
    b.locator(".joinbox [data-lobby=join]").click()
    for page in (a, b):
        board_of_duel(page, 1)
    spectator = open_page(browser, live_server.http + f"/#/watch/{match_id}")
    board_of_duel(spectator, 1)
    assert spectator.locator("main.match").get_attribute("data-role") == "spectator"
    for page in (a, b, spectator):
        page.locator("[data-testid=match-score]", has_text="Best of 3 · Duel 1").wait_for()

    # duel 1: Ann gives it up; Ann (the loser) chooses, each sides one card
    a.locator("[data-testid=concede-duel]").click()
    for page in (a, b, spectator):
        at_duel(page, 2, "siding")
        page.locator("[data-testid=siding]").wait_for()
        assert page.locator("[data-testid=match-score]").get_attribute("data-score") == "0-1"
    b.locator("[data-testid=siding]", has_text="Ann chooses who goes first").wait_for()
    a.locator("[data-testid=siding-timer]").wait_for()
    assert re.fullmatch(r"[0-3]:\d\d", a.locator("[data-testid=siding-timer]").inner_text())
    shot(a, screenshots, "siding")
    _, a_in = side_once(a)
    _, b_in = side_once(b)
    assert a_in in names(SIDE_A) and b_in in names(SIDE_B)
    # the other page and the spectator see counts, never a card of the other's Side Deck
    b.locator("[data-testid=counts-0]", has_text="done siding").wait_for()
    assert "Main 40 · Extra 0 · Side 2" in b.locator("[data-testid=counts-0]").inner_text()
    for page, hidden in ((b, names(SIDE_A)), (a, names(SIDE_B)), (spectator, names(SIDE_A + SIDE_B))):
        text = page.locator("[data-testid=siding]").inner_text()
        assert not any(n in text for n in hidden), (text, hidden)
    a.locator("[data-testid=go-second]").click()
    for page in (a, b, spectator):
        board_of_duel(page, 2)
    # Ann chose to go second: Bob's turn 1
    for page in (a, b, spectator):
        page.locator("[data-testid=turn]", has_text="Turn 1 · B's turn").wait_for()
    # Ann's sided card is in her deck now: it is one of her cards, not the one she took out
    with_in = live_server.call(live_server.server.store.entry(keys.duel_id(match_id, 2), 1))
    assert with_in is not None
    deck0 = with_in.action["decks"][0]
    assert sorted(deck0) != sorted(DECK_A) and sum(1 for c in deck0 if c in SIDE_A) == 1

    # duel 2: Bob gives it up: 1-1; Bob chooses to go first; nobody sides
    b.locator("[data-testid=concede-duel]").click()
    for page in (a, b, spectator):
        at_duel(page, 3, "siding")
        assert page.locator("[data-testid=match-score]").get_attribute("data-score") == "1-1"
    b.locator("[data-testid=go-first]").click()
    for page in (a, b):
        page.locator("[data-testid=first-chosen]", has_text="Bob goes first in duel 3").wait_for()
        page.locator("[data-testid=side-done]").click()
    for page in (a, b, spectator):
        board_of_duel(page, 3)
        page.locator("[data-testid=turn]", has_text="Turn 1 · B's turn").wait_for()

    # duel 3: Bob gives it up: Ann wins the match 2-1
    b.locator("[data-testid=concede-duel]").click()
    for page in (a, b, spectator):
        page.locator("[data-testid=match-over]", has_text="Ann wins the match 2\u20131").wait_for()
        assert page.locator("[data-testid=match-score]").get_attribute("data-score") == "2-1"
        assert page.locator("[data-testid=match-duels] li").count() == 3
    shot(spectator, screenshots, "match-over-spectator")
    # each duel has its replay, now that the match is over
    spectator.locator("[data-testid=replay-duel-2]").click()
    spectator.wait_for_url(re.compile(f"#/replay/{match_id}-2$"))
    # the replay viewer lists the match's duels; the next duel is one step away; the whole match
    # downloads as one file, every duel in order
    bar = spectator.locator("[data-testid=replay-match][data-duel='2']")
    bar.wait_for()
    assert "Ann 2 \u2013 1 Bob" in bar.inner_text() and "Ann won the match" in bar.inner_text()
    assert bar.locator("[data-testid=replay-match-duel-1]").get_attribute("href") == f"#/replay/{match_id}"
    whole = bar.locator("[data-testid=replay-match-file]").get_attribute("href")
    assert whole == f"/matches/{match_id}.duelreplay"
    got = spectator.request.get(f"{live_server.http}{whole}")
    assert got.ok and got.body().startswith(b"DUELMTC1")
    bar.locator("[data-testid=replay-next-duel]").click()
    spectator.wait_for_url(re.compile(f"#/replay/{match_id}-3$"))
    last = spectator.locator("[data-testid=replay-match][data-duel='3']")
    last.wait_for()
    assert last.locator("[data-testid=replay-next-duel]").count() == 0
    spectator.locator("[data-replay-seq]").first.wait_for()
    for page in (a, b, spectator):
        assert page.errors == [], page.errors  # type: ignore[attr-defined]
        page.context.close()
