"""A page plays a whole duel against the bot, from the opening hands to the end,
by clicking: attackers and targets, summons from the hand, phase buttons, passes."""

from __future__ import annotations

import asyncio
import contextlib
import random
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
    wait_decision,
)

from protocol.messages import Join, Seated
from server.client import DuelClient, bot_choice


async def python_bot(url: str, match_id: str, seed: int = 7) -> str:
    """The bot seat for a server that cannot start one itself (no
    ``create_match.opponent``): the project's bot policy over the protocol."""
    c = await DuelClient.connect(url, "bot")
    await c.send(Join(match_id=match_id))
    await c.expect(Seated)
    rnd = random.Random(seed)
    try:
        for _ in range(5000):
            if c.finished or c.closed:
                break
            if c.owes_decision:
                await asyncio.sleep(0.02)
                await c.act(bot_choice(c.legal, rnd))
                continue
            c.changed.clear()
            c.drain()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(c.changed.wait(), 1.0)
        return str(c.view.get("winner") if c.view else None)
    finally:
        await c.close()


def test_a_page_plays_against_the_bot_to_the_end(browser: Any, live_server: LiveServer, screenshots: Path) -> None:
    # auto-pass on (the default for players): windows where passing is all one can do pass by themselves
    page = open_page(browser, live_server.http + "/", auto_pass=True)
    assert page.evaluate("() => window.duelApp.autoPass")
    page.get_by_label("Your name").fill("Solo")
    bot = None
    page.locator("[data-lobby=bot]").click()
    page.locator("[data-testid=turn], main.lobby .error").first.wait_for()
    if page.locator("main.lobby .error").count():
        # this server cannot seat a bot itself (no create_match.opponent yet): the page
        # says so; then create a match and let the project's protocol bot join it
        assert "cannot start a bot opponent" in page.locator("main.lobby .error").inner_text()
        page.locator("[data-lobby=create]").click()
        link = page.locator("[data-testid=invite]").input_value()
        match_id = link.rsplit("/", 1)[1]
        bot = asyncio.run_coroutine_threadsafe(python_bot(live_server.ws, match_id), live_server.loop)
    page.locator("[data-testid=turn]").wait_for()
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
    assert done.get("attack", 0) + done.get("attack directly", 0) >= 1, done
    assert done.get("summon", 0) + done.get("set", 0) >= 1, done
    assert "Duel over" in page.locator("[data-testid=log]").inner_text()
    assert no_horizontal_scroll(page)
    if bot is not None:
        assert bot.result(30) in ("0", "1", "draw")
    assert page.errors == [], page.errors  # type: ignore[attr-defined]
    page.context.close()
