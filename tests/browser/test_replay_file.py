"""Replay files in the browser (issue 13): a finished match's file, downloaded
through the replay viewer's link, opens in a fresh page (the lobby's file
input, or dropped onto the page), is sent to the server in parts
(``upload_replay``) and plays back like the stored match: steps, viewpoints,
the same story.  A damaged file shows the server's reason; a file recorded
by other rules says so; the parts are paced under the server's rate limit."""

from __future__ import annotations

import base64
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_env import REPO, LiveServer, bot_duel, replay_stories
from browser_ui import log_lines, no_horizontal_scroll, open_page, shot, wait_app
from msgpack import unpackb
from playwright.sync_api import Page

from server.history import replay_file

GOLDEN = REPO / "tests" / "golden" / "classic.duelreplay"

LOADED = (
    "() => { const r = window.duelApp.replay; "
    "return !!r && !!r.file && !!r.file.loaded && !r.loading && r.nextSeq === null; }"
)
REFUSED = "() => { const r = window.duelApp.replay; return !!r && !!r.file && r.file.error !== null; }"


def pos(page: Page) -> int:
    return int(page.locator("main.replay").get_attribute("data-replay-seq") or 0)


def drop_file(page: Page, target: Any, name: str, data: bytes) -> None:
    """Drop a file onto ``target`` the way a browser does (dragover, then drop)."""
    transfer = page.evaluate_handle(
        """([name, b64]) => {
          const bin = atob(b64);
          const bytes = new Uint8Array(bin.length);
          for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
          const dt = new DataTransfer();
          dt.items.add(new File([bytes], name, { type: "application/octet-stream" }));
          return dt;
        }""",
        [name, base64.b64encode(data).decode()],
    )
    target.dispatch_event("dragover", {"dataTransfer": transfer})
    target.dispatch_event("drop", {"dataTransfer": transfer})


def viewpoint(page: Page, v: str) -> None:
    page.locator("#viewpoint").select_option(v)
    wait_app(
        page,
        "() => "
        f"{{ const r = window.duelApp.replay; return r.viewpoint === '{v}' && !r.loading && r.nextSeq === null; }}",
    )


@pytest.fixture(scope="module")
def finished_match(live_server: LiveServer) -> str:
    return live_server.call(bot_duel(live_server.ws, seed=5))


def test_a_downloaded_replay_file_plays_back_in_a_fresh_page(
    browser: Any, live_server: LiveServer, finished_match: str, screenshots: Path, tmp_path: Path
) -> None:
    match_id = finished_match
    # the stored match's replay viewer: its link downloads the file
    page = open_page(browser, f"{live_server.http}/#/replay/{match_id}")
    with page.expect_download() as got:
        page.locator("[data-testid=replay-file]").click()
    download = got.value
    assert download.suggested_filename == f"{match_id}.duelreplay"
    path = tmp_path / download.suggested_filename
    download.save_as(path)
    data = path.read_bytes()
    assert data.startswith(b"DUELRPL1")
    page.context.close()

    # a fresh page: the lobby's file input opens it in the replay viewer
    page = open_page(browser, live_server.http + "/")
    page.locator("[data-testid=replay-file-input]").set_input_files(str(path))
    wait_app(page, LOADED)
    assert page.url.endswith("#/replay-file")
    status = page.locator("[data-testid=replay-file-status]").inner_text()
    assert status == "Recorded by the rules this server runs: every entry's state was checked. Signed by this server."
    assert page.locator("[data-testid=replay-file]").count() == 0  # no download link: the file is the user's
    told = live_server.call(replay_stories(live_server.ws, match_id, "all"))
    total = told[-1][0]
    assert page.locator("[data-testid=replay-pos]").inner_text() == f"entry 1 of {total}"
    assert f"Replay file {match_id}.duelreplay:" in page.locator(".replay-title").inner_text()

    # steps: forward three times, back once; the log is the stored match's story up to there
    fwd = page.locator("[data-replay-ctl=forward]")
    for want in (2, 3, 4):
        fwd.click()
        assert pos(page) == want
    page.locator("[data-replay-ctl=back]").click()
    assert pos(page) == 3
    assert log_lines(page) == [(s, line) for s, line in told if s <= 3]
    # jump to turn 2, then A's viewpoint: the position is kept, the story is A's
    page.locator("#jump").select_option(label="Turn 2")
    at = pos(page)
    assert at > 3
    viewpoint(page, "0")
    assert pos(page) == at
    told_a = live_server.call(replay_stories(live_server.ws, match_id, "0"))
    assert log_lines(page) == [(s, line) for s, line in told_a if s <= at]
    theirs = page.locator(".row.hand[data-seat='1'] .card")
    assert theirs.count() >= 1 and all(c.get_attribute("data-code") is None for c in theirs.all())
    # play and pause
    page.locator("[data-replay-ctl=play]").click()
    page.wait_for_function("s => Number(document.querySelector('main.replay').dataset.replaySeq) > s", arg=at)
    page.locator("[data-replay-ctl=play]", has_text="Pause").click()
    # to the end, from every viewpoint: the whole story, line for line, as the stored match tells it
    page.locator("[data-replay-ctl=last]").click()
    assert log_lines(page) == told_a
    for v in ("1", "spectator", "all"):
        viewpoint(page, v)
        assert pos(page) == total
        assert log_lines(page) == live_server.call(replay_stories(live_server.ws, match_id, v)), v
    assert "Duel over" in page.locator("[data-testid=log]").inner_text()
    assert no_horizontal_scroll(page)
    shot(page, screenshots, "replay-file-1280x720")

    # a damaged file, dropped onto the viewer: the server's reason, verbatim, and no controls
    bad = bytearray(data)
    bad[len(bad) // 2] ^= 0xFF
    with pytest.raises(replay_file.ReplayFileError) as why:
        replay_file.loads(bytes(bad), live_server.server.tokens.replay_key())
    drop_file(page, page.locator("main.replay"), "damaged.duelreplay", bytes(bad))
    wait_app(page, REFUSED)
    error = page.locator("[data-testid=replay-file-error]")
    assert error.inner_text() == f"The server cannot play this file back: {why.value}"
    assert page.locator("[data-replay-ctl]").count() == 0
    shot(page, screenshots, "replay-file-damaged-1280x720")
    # not a replay file at all
    drop_file(page, page.locator("main.replay"), "notes.txt", b"just some notes\n")
    wait_app(page, REFUSED)
    assert (
        error.inner_text()
        == "The server cannot play this file back: not a duel replay file (it does not start with DUELRPL1)"
    )
    # the good file again, dropped onto the same page: it plays
    drop_file(page, page.locator("main.replay"), path.name, data)
    wait_app(page, LOADED)
    assert pos(page) == 1 and page.evaluate("() => window.duelApp.replay.viewpoint") == "all"
    assert page.errors == [], page.errors  # type: ignore[attr-defined]
    page.context.close()


def test_a_replay_file_dropped_on_the_lobby_from_other_rules_says_so(browser: Any, live_server: LiveServer) -> None:
    data = GOLDEN.read_bytes()
    header = replay_file.loads(data).header
    assert header["rules_version"] != replay_file.rules_version() and "signature" not in header
    page = open_page(browser, live_server.http + "/")
    drop_file(page, page.locator("main.lobby"), GOLDEN.name, data)
    wait_app(page, LOADED)
    status = page.locator("[data-testid=replay-file-status]").inner_text()
    assert status == (
        f"Recorded by another version of the rules ({header['rules_version']}): played back from its record, "
        "not re-checked against today's rules. Not signed by this server: its entries hold together, "
        "but where it comes from cannot be checked."
    )
    assert page.evaluate("() => window.duelApp.replay.entries.length") == header["entries"]
    page.locator("[data-replay-ctl=last]").click()
    assert "Duel over" in page.locator("[data-testid=log]").inner_text()
    assert page.errors == [], page.errors  # type: ignore[attr-defined]
    page.context.close()


@pytest.fixture(scope="module")
def slow_server(browser_redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A second server (same Redis) that lets a client send 2 frames a second, in bursts of 4."""
    srv = LiveServer(browser_redis_url, tmp_path_factory.mktemp("slow"), rate_per_second=2, rate_burst=4)
    try:
        yield srv
    finally:
        srv.stop()


def test_the_parts_are_paced_under_the_servers_rate_limit(browser: Any, slow_server: LiveServer) -> None:
    data = GOLDEN.read_bytes()
    parts = -(-len(data) // 3000)
    assert parts > 4  # more parts than the server's burst
    page = open_page(browser, slow_server.http + "/#/replay-file")
    assert "not kept after a reload" in page.locator(".replay-file").inner_text()
    sent: list[dict[str, Any]] = []
    received: list[dict[str, Any]] = []
    page.on(
        "websocket",
        lambda ws: (
            ws.on("framesent", lambda p: sent.append(unpackb(p if isinstance(p, bytes) else p.encode()))),
            ws.on("framereceived", lambda p: received.append(unpackb(p if isinstance(p, bytes) else p.encode()))),
        ),
    )
    page.locator("[data-testid=replay-file-again]").set_input_files(str(GOLDEN))
    wait_app(page, f"() => ({LOADED})() || ({REFUSED})()", timeout=60_000)
    assert page.locator("[data-testid=replay-file-error]").count() == 0, page.locator(
        "[data-testid=replay-file-error]"
    ).inner_text()
    uploads = [m for m in sent if m.get("type") == "upload_replay"]
    assert [m["index"] for m in uploads] == list(range(parts))
    assert all(len(m["part"]) <= 4000 for m in uploads)
    assert base64.b64decode("".join(m["part"] for m in uploads)) == data
    assert [m for m in received if m.get("type") == "error"] == []  # never rate/limited
    assert page.evaluate("() => window.duelApp.replay.entries.length") == replay_file.loads(data).header["entries"]
    assert page.errors == [], page.errors  # type: ignore[attr-defined]
    page.context.close()
