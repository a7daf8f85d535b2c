"""A page plays a whole duel against the server's bot (``create_match`` with
``opponent: "bot"``), from the opening hands to the end, by clicking:
attackers and targets, summons from the hand, phase buttons, choices."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from browser_env import LiveServer
from browser_ui import (
    finished,
    no_horizontal_scroll,
    open_page,
    prompt,
    shot,
    take_turn_step,
    wait_app,
    wait_decision,
)


def _play_one_duel(browser: Any, live_server: LiveServer, screenshots: Path) -> dict[str, int]:
    """Open the page, start a duel against the bot and click through it to its end; returns
    how often each kind of step was taken."""
    # auto-pass on (the default for players): windows where passing is all one can do pass by themselves
    page = open_page(browser, live_server.http + "/", auto_pass=True)
    assert page.evaluate("() => window.duelApp.autoPass")
    page.get_by_label("Your name").fill("Solo")
    # the bot's level: the four on offer, "well" (a search of 0.5 s) unless the player chose
    levels = page.locator("#bot_level option").evaluate_all("os => os.map(o => o.value)")
    assert levels == ["beginner", "quick", "normal", "strong"], levels
    page.locator("#bot_level").select_option("beginner")  # the suite's server plays greedy anyway: fast
    page.locator("[data-lobby=bot]").click()
    page.locator("[data-testid=turn]").wait_for()
    match_id = page.evaluate("() => window.duelApp.match.matchId")
    info = live_server.call(live_server.server.directory.get(match_id))
    assert info is not None and info.bot_level == "beginner", info
    assert page.evaluate("() => localStorage.getItem('duel.bot_level')") == "beginner"  # kept for next time
    # the server seated its bot in seat 1, under its own name: the duel may start before the
    # name arrives (the bot's join appends the first entry, then takes its seat, and the
    # name comes in the `presence` that follows: PROTOCOL section 4)
    assert page.evaluate("() => window.duelApp.match.seat") == 0
    page.locator(".playerbar[data-seat='0']", has_text="Solo").wait_for()
    wait_app(page, "() => window.duelApp.match.names[1] !== ''")
    bot_name = page.evaluate("() => window.duelApp.match.names[1]")
    page.locator(".playerbar[data-seat='1']", has_text=bot_name).wait_for()
    done: dict[str, int] = {}
    for _ in range(1500):
        wait_decision(page, timeout=30_000)
        if finished(page):
            break
        what = take_turn_step(page)
        done[what] = done.get(what, 0) + 1
        if done.get("attack", 0) + done.get("attack directly", 0) == 1 and "board-vs-bot" not in done:
            done["board-vs-bot"] = 1
            shot(page, screenshots, "board-vs-bot-1280x720")
    else:
        raise AssertionError(f"the duel did not end: {done}")
    assert finished(page)
    text = prompt(page)
    assert "wins" in text or "draw" in text, text
    assert done.get("summon", 0) + done.get("set", 0) >= 1, done
    assert "Duel over" in page.locator("[data-testid=log]").inner_text()
    assert no_horizontal_scroll(page)
    assert page.errors == [], page.errors  # type: ignore[attr-defined]
    page.context.close()
    return done


def test_a_page_plays_against_the_servers_bot_to_the_end(
    browser: Any, live_server: LiveServer, screenshots: Path
) -> None:
    # The shuffle is random (the server draws each duel's seed): in a rare duel (one in about
    # ten runs of the suite) the page never has a monster able to attack before it ends.
    # Every duel played must end properly; one of at most three must have an attack declared
    # by clicking an attacker and a target (or "attack directly").
    played: list[dict[str, int]] = []
    while len(played) < 3:
        played.append(_play_one_duel(browser, live_server, screenshots))
        if played[-1].get("attack", 0) + played[-1].get("attack directly", 0) >= 1:
            break
    assert any(d.get("attack", 0) + d.get("attack directly", 0) >= 1 for d in played), played
