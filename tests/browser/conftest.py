"""Fixtures for the browser tests: a real Redis, a real duel server (in a
thread with its own event loop, serving the built web client), and Debian's
Chromium driven by Playwright for Python.

Chromium is ``/usr/bin/chromium`` (or ``$CHROMIUM``); Playwright never
downloads a browser here.  Without Chromium the tests fail, saying how to
install it (.ci/run does).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_env import HOW_TO_INSTALL, LAUNCH_ARGS, SCREENSHOTS, LiveServer, chromium_path
from browser_env import REPO as REPO_ROOT

from server.process.webapp import web_root
from server.storage.embedded_redis import EmbeddedRedis


@pytest.fixture(scope="session")
def browser_redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    url = os.environ.get("REDIS_URL")
    if url:
        yield url
        return
    embedded = EmbeddedRedis(Path(tmp_path_factory.mktemp("bredis")), fsync="everysec").start()
    try:
        yield embedded.url
    finally:
        embedded.stop()


# one per test module, not per session: a server left running in its thread for the rest of
# the session drew from the global random module (websockets' keepalive pings) while Hypothesis
# generated examples in later tests, which it warns about
@pytest.fixture(scope="module")
def live_server(browser_redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    if not (web_root() / "index.html").is_file():
        pytest.fail(f"the web client is not built in {web_root()}: run `make web` (make test does)")
    srv = LiveServer(browser_redis_url, Path(tmp_path_factory.mktemp("bdata")))
    try:
        yield srv
    finally:
        srv.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    path = chromium_path()
    if not Path(path).exists():
        # a missing browser is a failure, never a skip: .ci/run installs it, and so can you
        pytest.fail(HOW_TO_INSTALL.format(path=path))
    from playwright.sync_api import sync_playwright  # a dev dependency: make installs it

    pw = sync_playwright().start()
    b = pw.chromium.launch(executable_path=path, headless=True, args=LAUNCH_ARGS)
    try:
        yield b
    finally:
        b.close()
        pw.stop()


@pytest.fixture
def screenshots() -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    report = yield
    if report.when == "call":
        item.stash[FAILED] = report.failed
    return report


FAILED = pytest.StashKey[bool]()


@pytest.fixture(autouse=True)
def _pages_on_failure(request: pytest.FixtureRequest) -> Iterator[None]:
    """When a browser test fails, keep a screenshot and the state of every page
    it had open (artifacts/failures/), for the person reading the CI log."""
    yield
    if not request.node.stash.get(FAILED, False) or "browser" not in request.fixturenames:
        return
    browser = request.getfixturevalue("browser")
    out = REPO_ROOT / "artifacts" / "failures"
    out.mkdir(parents=True, exist_ok=True)
    for i, ctx in enumerate(browser.contexts):
        for j, page in enumerate(ctx.pages):
            stem = out / f"{request.node.name}-{i}-{j}"
            try:
                page.screenshot(path=f"{stem}.png")
                state = page.evaluate(
                    "() => { const a = window.duelApp; const m = a && a.match; return JSON.stringify({"
                    "url: location.href, conn: a && a.connState, seq: m && m.seq, pending: m && m.pending,"
                    " legal: m && m.legal, inflight: m && m.inflight, error: m && m.error,"
                    " log: m && m.log.slice(-30)}, null, 1); }"
                )
                stem.with_suffix(".txt").write_text(str(state))
                print(f"failure artifacts: {stem}.png, {stem}.txt")
            except Exception as exc:  # a closed page: nothing to keep
                print(f"no artifacts for page {i}-{j}: {exc}")
