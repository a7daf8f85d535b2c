"""How many of a duel's clicks only move the duel on (issue 38, item 2): a page plays whole duels
against the server's bot, by clicking, as a keen player would (attack, summon, enter the Battle
Phase, otherwise move on), with the page's settings as a new player has them (the auto-pass box
on); each click is counted, and those that only move on (a move through the turn, or a pass on an
empty chain with nothing to answer) apart.

    PYTHONPATH=$PWD DUEL_ENGINE=pure .venv/bin/python tests/browser/click_census.py --duels 3

Runs against the client built in ``$DUEL_WEB_DIR`` (default web/dist) and the server of the
sources on ``PYTHONPATH``: the same script measured the client before and after the change
(``test_clicks.py`` keeps the share under a bound)."""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from browser_env import LAUNCH_ARGS, LiveServer, chromium_path

MOVE_ACTIONS = ("enter_battle_phase", "end_battle_phase", "next_phase", "end_turn", "finish_turn")
SETTLED = """() => {
  const app = window.duelApp;
  if (!app || app.connState.kind !== 'open' || app.renderPending) return false;
  const m = app.match;
  if (!m || !m.view) return false;
  if (m.view.winner !== null && m.view.winner !== undefined) return true;
  const busy = m.inflight !== null || m.seq < m.awaitSeq || m.autoPassing;
  return !busy && m.legal.length > 0;
}"""


def _wait_sent(page: Any, before: int) -> None:
    page.wait_for_function("n => window.duelApp.match.seq > n && !window.duelApp.renderPending", arg=before)


def _click(page: Any, locator: Any, counts: Counter[str], kind: str) -> None:
    counts["clicks"] += 1
    counts[kind] += 1
    locator.click()


def _open_window(page: Any) -> bool:
    """A window with nothing to answer: an empty chain, no attack declared, no "respond to"."""
    return bool(
        page.evaluate(
            "() => { const m = window.duelApp.match; return m.view.chain.length === 0 && m.view.attack === null"
            " && !/respond to/.test(m.pending ? m.pending.prompt : ''); }"
        )
    )


def step(page: Any, counts: Counter[str]) -> None:
    """One decision, made by clicking; ``counts`` gets each click."""
    before = int(page.evaluate("() => window.duelApp.match.seq"))
    if page.locator(".decision [data-action=open-choice]").count():
        if not page.locator("dialog.dlg[open][data-kind=choice]").count():
            _click(page, page.locator(".decision [data-action=open-choice]"), counts, "choice")
        dlg = page.locator("dialog.dlg[open][data-kind=choice]")
        confirm = dlg.locator("[data-action=choose-confirm]")
        if confirm.count():
            cards = dlg.locator(".choice-card")
            for i in range(cards.count()):
                if not confirm.is_disabled():
                    break
                _click(page, cards.nth(i), counts, "choice")
            _click(page, confirm, counts, "choice")
        else:
            _click(page, dlg.locator(".choice-list button:not([disabled])").first, counts, "choice")
        _wait_sent(page, before)
        return
    attackers = page.locator(".card.actionable[data-zone=monsters][data-actions~=attack]")
    for i in range(attackers.count()):
        _click(page, attackers.nth(i), counts, "attack")
        if page.locator("dialog.dlg[open]").count():
            _click(page, page.locator("dialog.dlg[open] .dlg-acts button[data-action=attack]"), counts, "attack")
        targets = page.locator(".card.targetable")
        direct = page.locator("[data-action=attack-direct]")
        if targets.count() or direct.count():
            _click(page, targets.first if targets.count() else direct, counts, "attack")
            _wait_sent(page, before)
            return
        _click(page, page.locator("[data-key=act-cancel-select]"), counts, "attack")
    seat = page.evaluate("() => window.duelApp.match.seat")
    for want in ("summon", "set"):
        hand = page.locator(f".card.actionable[data-seat='{seat}'][data-zone=hand][data-actions~={want}]")
        if hand.count():
            _click(page, hand.first, counts, want)
            page.locator("dialog.dlg[open]").wait_for()
            _click(page, page.locator(f"dialog.dlg[open] .dlg-acts button[data-action={want}]").first, counts, want)
            _wait_sent(page, before)
            return
    for want in (*MOVE_ACTIONS, "pass"):
        btn = page.locator(f".decision .acts button[data-action={want}]")
        if btn.count():
            moving_on = want != "pass" or _open_window(page)
            if moving_on:
                here = page.locator("[data-testid=where]").inner_text()
                own = page.evaluate("() => window.duelApp.match.view.turn_player === window.duelApp.match.seat")
                counts[f"  {'own' if own else 'their'} {here}: {btn.first.inner_text()}"] += 1
            _click(page, btn.first, counts, "moves on" if moving_on else "passes (answering)")
            _wait_sent(page, before)
            return
    btn = page.locator(".decision .acts button")
    _click(page, btn.first, counts, "other")
    _wait_sent(page, before)


def play_duel(browser: Any, server: LiveServer) -> Counter[str]:
    ctx = browser.new_context(viewport={"width": 1280, "height": 720})
    ctx.add_init_script("localStorage.setItem('duel.autopass_ms', '0')")  # the box as a new player has it
    page = ctx.new_page()
    page.set_default_timeout(30_000)
    page.goto(server.http + "/")
    page.wait_for_function("() => window.duelApp && window.duelApp.connState.kind === 'open'")
    page.get_by_label("Your name").fill("Census")
    page.locator("[data-lobby=bot]").click()
    page.locator("[data-testid=turn]").wait_for()
    counts: Counter[str] = Counter()
    for _ in range(3000):
        page.wait_for_function(SETTLED)
        if page.evaluate("() => window.duelApp.match.view.winner !== null"):
            break
        step(page, counts)
    counts["turns"] = int(page.evaluate("() => window.duelApp.match.view.turn"))
    ctx.close()
    return counts


def census(duels: int) -> Counter[str]:
    from playwright.sync_api import sync_playwright

    total: Counter[str] = Counter()
    with tempfile.TemporaryDirectory() as tmp:
        from server.storage.embedded_redis import EmbeddedRedis

        for d in ("redis", "data"):
            (Path(tmp) / d).mkdir()
        redis = EmbeddedRedis(Path(tmp) / "redis", fsync="no").start()
        server = LiveServer(redis.url, Path(tmp) / "data")
        pw = sync_playwright().start()
        browser = pw.chromium.launch(executable_path=chromium_path(), headless=True, args=LAUNCH_ARGS)
        try:
            for _ in range(duels):
                total += play_duel(browser, server)
        finally:
            browser.close()
            pw.stop()
            server.stop()
            redis.stop()
    return total


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--duels", type=int, default=3)
    n = ap.parse_args().duels
    c = census(n)
    share = c["moves on"] / max(1, c["clicks"])
    print(f"{n} duels, {c['turns']} turns: {c['clicks']} clicks, {c['moves on']} only move on ({share:.0%})")
    for k, v in sorted(c.items(), key=lambda kv: -kv[1]):
        print(f"  {v:5d} {k}")


if __name__ == "__main__":
    main()
