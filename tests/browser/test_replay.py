"""The replay viewer: a finished match opens from the lobby's list (or its
link), steps forward and back, plays and pauses, jumps to a turn and
switches viewpoint, showing the same board and log as a live duel."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from browser_env import LiveServer, bot_duel, replay_stories
from browser_ui import PHONE, log_lines, no_horizontal_scroll, open_page, shot, wait_app


def pos(page: Any) -> int:
    return int(page.locator("main.replay").get_attribute("data-replay-seq"))


def test_the_replay_viewer_steps_through_a_finished_match(
    browser: Any, live_server: LiveServer, screenshots: Path
) -> None:
    match_id = live_server.call(bot_duel(live_server.ws))
    page = open_page(browser, f"{live_server.http}/#/replay/{match_id}")
    wait_app(page, "() => { const r = window.duelApp.replay; return r && !r.loading && r.entries.length > 10; }")
    total = int(page.evaluate("() => window.duelApp.replay.entries.length"))
    assert page.evaluate("() => window.duelApp.replay.entries.every(e => !!e.view)")  # the server's views
    assert pos(page) == 1
    assert page.locator("[data-testid=replay-pos]").inner_text() == f"entry 1 of {total}"
    log = page.locator("[data-testid=log] li")
    first_lines = log.count()
    assert first_lines >= 1 and "Duel starts" in log.first.inner_text()

    # step forward three times, then back once
    fwd = page.locator("[data-replay-ctl=forward]")
    back = page.locator("[data-replay-ctl=back]")
    for want in (2, 3, 4):
        fwd.click()
        assert pos(page) == want
    assert log.count() >= first_lines
    back.click()
    assert pos(page) == 3
    current = page.locator("[data-testid=log] li.current")
    assert all(li.get_attribute("data-seq") == "3" for li in current.all())
    # the keyboard works too: focus stays on the button after the re-render
    back.focus()
    page.keyboard.press("Enter")
    assert pos(page) == 2

    # jump to turn 3: the entry that starts it is shown, with its heading in the log
    page.locator("#jump").select_option(label="Turn 3")
    assert any(t.startswith("=== Turn 3") for t in page.locator("[data-testid=log] li.current").all_inner_texts())
    turn3 = pos(page)
    assert turn3 > 4

    # play, then pause: it moves on by itself and stops when asked
    page.locator("[data-replay-ctl=play]").click()
    page.wait_for_function("s => Number(document.querySelector('main.replay').dataset.replaySeq) > s", arg=turn3 + 1)
    page.locator("[data-replay-ctl=play]", has_text="Pause").click()
    stopped = pos(page)
    assert page.locator("[data-replay-ctl=play]").inner_text().endswith("Play")
    assert stopped > turn3 + 1
    page.locator("[data-replay-ctl=last]").click()
    assert pos(page) == int(page.evaluate("() => window.duelApp.replay.entries.at(-1).seq"))
    assert "Duel over" in page.locator("[data-testid=log]").inner_text()
    # the log is the server's story of the whole duel, line for line
    told = live_server.call(replay_stories(live_server.ws, match_id, "all"))
    assert log_lines(page) == told

    # the same board as a live duel; "everything" shows both hands
    assert page.locator("[data-testid=turn]").count() == 1
    page.locator("[data-replay-ctl=first]").click()
    page.locator("[data-replay-ctl=forward]").click()
    for seat in (0, 1):
        assert all(c.get_attribute("data-code") for c in page.locator(f".row.hand[data-seat='{seat}'] .card").all())
    # A's view: B's hand is backs; the position is kept
    page.locator("#viewpoint").select_option("0")
    wait_app(
        page,
        "() => { const r = window.duelApp.replay; return r.viewpoint === '0' && !r.loading && r.entries.length > 10; }",
    )
    assert pos(page) == 2
    theirs = page.locator(".row.hand[data-seat='1'] .card")
    assert theirs.count() >= 5 and all(c.get_attribute("data-code") is None for c in theirs.all())
    # A's story up to entry 2: what A was told (B's draws without their names)
    told_a = live_server.call(replay_stories(live_server.ws, match_id, "0"))
    assert log_lines(page) == [(s, line) for s, line in told_a if s <= 2]
    page.locator("#viewpoint").select_option("spectator")
    wait_app(
        page,
        "() => { const r = window.duelApp.replay; "
        "return r.viewpoint === 'spectator' && !r.loading && r.entries.length > 10; }",
    )
    for seat in (0, 1):
        assert all(
            c.get_attribute("data-code") is None for c in page.locator(f".row.hand[data-seat='{seat}'] .card").all()
        )
    # back to everything, in the middle of the duel: the board as the server saw it
    page.locator("#viewpoint").select_option("all")
    wait_app(
        page,
        "() => "
        "{ const r = window.duelApp.replay; return r.viewpoint === 'all' && !r.loading && r.entries.length > 10; }",
    )
    turns = page.locator("#jump option").all_inner_texts()[1:]
    page.locator("#jump").select_option(label=turns[len(turns) // 2])
    for _ in range(6):
        page.locator("[data-replay-ctl=forward]").click()
    assert page.locator(".card[data-code]").count() > 0
    assert no_horizontal_scroll(page)
    # the match's replay file, from the link (a plain GET on the same port)
    href = page.locator("[data-testid=replay-file]").get_attribute("href")
    assert href == f"/replays/{match_id}.duelreplay"
    status, body = page.evaluate(
        "async h => { const r = await fetch(h); return [r.status, (await r.arrayBuffer()).byteLength]; }", href
    )
    assert status == 200 and body > 1000
    shot(page, screenshots, "replay-1280x720")
    page.set_viewport_size(PHONE)
    assert no_horizontal_scroll(page)
    shot(page, screenshots, "replay-390x844")
    assert page.errors == [], page.errors  # type: ignore[attr-defined]
    page.context.close()
