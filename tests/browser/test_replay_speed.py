"""The replay viewer plays at 0.5x to 8x and can skip the entries where nothing but passing
happened; the log folds each run of passes into one row (issue 38, item 8)."""

from __future__ import annotations

import time
from pathlib import Path

from browser_env import LiveServer, bot_duel
from browser_ui import log_lines, open_page, shot, wait_app
from playwright.sync_api import Browser, Page

TIMES = "\u00d7"  # the multiplication sign of "8x"
ONLY_PASSES = "e => e.facts.length > 0 && e.facts.every(f => ['passed', 'priority', 'event'].includes(f.t))"


def index(page: Page) -> int:
    return int(page.evaluate("() => window.duelApp.replay.index"))


def played_in(page: Page, seconds: float) -> int:
    """How many entries the viewer steps through while playing for ``seconds``."""
    if index(page) > 0:
        page.locator("[data-replay-ctl=first]").click()
    start = index(page)
    page.locator("[data-replay-ctl=play]").click()
    t0 = time.monotonic()
    page.wait_for_timeout(seconds * 1000)
    page.locator("[data-replay-ctl=play]", has_text="Pause").click()
    took = time.monotonic() - t0
    return round((index(page) - start) / took * seconds)


def test_speeds_skipping_passes_and_the_folded_log(
    browser: Browser, live_server: LiveServer, screenshots: Path
) -> None:
    match_id = live_server.call(bot_duel(live_server.ws))
    page = open_page(browser, f"{live_server.http}/#/replay/{match_id}")
    wait_app(page, "() => { const r = window.duelApp.replay; return r && !r.loading && r.entries.length > 30; }")
    total = int(page.evaluate("() => window.duelApp.replay.entries.length"))

    # speeds: 1x shows an entry for 0.7 s; 8x eight times as many in the same time
    speed = page.locator("[data-testid=replay-speed]")
    assert speed.locator("option").all_inner_texts() == [f"{s}{TIMES}" for s in ("0.5", "1", "2", "4", "8")]
    assert speed.input_value() == "1"
    at_1 = played_in(page, 2.1)
    speed.select_option("8")
    at_8 = played_in(page, 2.1)
    speed.select_option("0.5")
    at_half = played_in(page, 2.1)
    assert 2 <= at_1 <= 4 and 18 <= at_8 <= 26 and 1 <= at_half <= 2, (at_half, at_1, at_8)
    # kept for the next replay; + and - change it from the keyboard
    assert page.evaluate("() => localStorage.getItem('duel.replay.speed')") == "0.5"
    page.locator("body").focus()
    page.keyboard.press("+")
    page.keyboard.press("+")
    assert speed.input_value() == "2"

    # skip passes: stepping forward lands only on entries where something other than passing
    # happened (the last one aside), in fewer steps than there are entries
    page.locator("[data-testid=replay-skip-passes]").check()
    if index(page) > 0:
        page.locator("[data-replay-ctl=first]").click()
    steps = 0
    while index(page) < total - 1:
        page.locator("[data-replay-ctl=forward]").click()
        steps += 1
        i = index(page)
        if i < total - 1:
            assert not page.evaluate(f"i => ({ONLY_PASSES})(window.duelApp.replay.entries[i])", i), i
    passes = int(page.evaluate(f"() => window.duelApp.replay.entries.filter({ONLY_PASSES}).length"))
    assert passes > total // 4, (passes, total)
    assert steps <= total - passes, (steps, total, passes)
    page.locator("[data-testid=replay-skip-passes]").uncheck()
    page.locator("[data-replay-ctl=back]").click()
    assert index(page) == total - 2  # without it, one entry at a time

    # the log folds each run of passes into one row; every line is still there as the story has it
    page.locator("[data-replay-ctl=last]").click()
    lines = log_lines(page)
    passes_shown = page.locator("[data-testid=log] li.pass")
    rows = passes_shown.evaluate_all("els => els.map(e => e.offsetTop)")
    runs = passes_shown.evaluate_all("els => els.filter(e => !e.previousElementSibling?.matches('.pass')).length")
    # a row per run of passes (a long run wraps onto a second row; most runs are "A moves on ·
    # B passes"): at most half as many rows as pass lines
    assert len(rows) > 20 and runs <= len(set(rows)) <= len(rows) / 2, (len(rows), len(set(rows)), runs)
    assert sum(1 for _, t in lines if t.strip() in ("A passes", "B passes")) > 10
    page.locator("[data-testid=log] li.pass").first.scroll_into_view_if_needed()
    shot(page, screenshots, "replay-speed-and-folded-log")
    assert page.errors == [], page.errors  # type: ignore[attr-defined]
    page.context.close()
