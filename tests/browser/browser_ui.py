"""Driving the web client like a player: open pages, wait for decisions,
click cards, targets and buttons.  Every action goes through a click on what
the page shows; the app's state (``window.duelApp``) is read only to know
when the page has settled."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page

DESKTOP = {"width": 1280, "height": 720}
PHONE = {"width": 390, "height": 844}

SETTLED = """() => {
  const app = window.duelApp;
  if (!app || app.connState.kind !== 'open' || app.renderPending) return false;
  const m = app.match;
  if (!m || !m.view) return false;
  if (m.view.winner !== null && m.view.winner !== undefined) return true;
  const busy = m.inflight !== null || m.seq < m.awaitSeq || m.autoPassing;
  return !busy && m.legal.length > 0;
}"""


ALL_STOPS = (
    '{"own": ["draw", "standby", "battle/start", "battle/end", "damage", "end"],'
    ' "theirs": ["draw", "standby", "main1", "battle", "damage", "main2", "end"]}'
)
"""The page's "Stop at" setting with every box ticked: it stops wherever the player may act."""


def open_page(
    browser: Browser,
    url: str,
    viewport: dict[str, int] = DESKTOP,
    *,
    auto_pass: bool = False,
    stops: str = ALL_STOPS,
    **context: Any,
) -> Page:
    """A page of the client in a fresh browser context.  Auto-pass (on by default
    for players) is off unless asked for, and the page stops at every phase (a new player's
    page moves on through some of its own), so that tests click every pass; when on,
    it passes at once (a player gets a moment to see the board first); the lobby's bot plays as a
    beginner.  ``context``: more
    options of the browser context (``has_touch``, ``reduced_motion``...)."""
    ctx = browser.new_context(viewport=viewport, **context)  # type: ignore[arg-type]
    ctx.add_init_script(
        f"localStorage.setItem('duel.autopass', '{'on' if auto_pass else 'off'}'); "
        + (f"localStorage.setItem('duel.stops', '{stops}'); " if stops else "")  # "": a new player's
        + "localStorage.setItem('duel.autopass_ms', '0'); "
        # the lobby's bot plays as a beginner (greedy, at once) unless a test chooses: a searching
        # bot takes its budget at every decision
        + "if (localStorage.getItem('duel.bot_level') === null) localStorage.setItem('duel.bot_level', 'beginner')"
    )
    page = ctx.new_page()
    page.set_default_timeout(20_000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.errors = errors  # type: ignore[attr-defined]
    page.goto(url)
    wait_app(page, "() => window.duelApp && window.duelApp.connState.kind === 'open'")
    return page


def wait_app(page: Page, condition: str, arg: Any = None, timeout: float = 20_000) -> None:
    """Until ``condition`` (a JS function of ``arg``) holds of the app's state and the
    page shows it (the app renders what the server says at the next frame)."""
    page.wait_for_function(f"arg => ({condition})(arg) && !window.duelApp.renderPending", arg=arg, timeout=timeout)


def no_horizontal_scroll(page: Page) -> bool:
    return bool(page.evaluate("() => document.documentElement.scrollWidth <= document.documentElement.clientWidth"))


def seq(page: Page) -> int:
    return int(page.evaluate("() => window.duelApp.match ? window.duelApp.match.seq : 0"))


def wait_seq_above(page: Page, n: int) -> None:
    wait_app(page, "n => window.duelApp.match && window.duelApp.match.seq > n", n)


def wait_decision(page: Page, timeout: float = 20_000) -> None:
    """Until the page owes a decision (its buttons are live) or the duel is over."""
    page.wait_for_function(SETTLED, timeout=timeout)


def finished(page: Page) -> bool:
    return bool(
        page.evaluate(
            "() => { const v = window.duelApp.match && window.duelApp.match.view; "
            "return !!v && v.winner !== null && v.winner !== undefined; }"
        )
    )


def owes(page: Page) -> bool:
    return bool(page.evaluate(f"({SETTLED})") and not finished(page))


def prompt(page: Page) -> str:
    return page.locator("[data-testid=prompt]").inner_text()


OWES = "() => { const m = window.duelApp.match; return m.legal.length > 0 && !m.autoPassing && m.inflight === null; }"
"""The page owes a decision: it has legal actions, is not passing on its own, and sent nothing unanswered."""


def click_and_wait(page: Page, locator: Any) -> None:
    """Click what sends an action and wait until its update has arrived."""
    before = seq(page)
    locator.click()
    wait_seq_above(page, before)


def pass_button(page: Page) -> Any:
    """The pass button; in a window of one's own turn with nothing to answer, where the pass is
    shown as the move it makes, the nearest move through the turn."""
    btn = page.locator(".decision button[data-action=pass]")
    if btn.count():
        return btn
    return page.locator(".decision .acts button[data-move]").first


def my_actionable(page: Page, zone: str | None = None) -> Any:
    seat = page.evaluate("() => window.duelApp.match.seat")
    sel = f".card.actionable[data-seat='{seat}']"
    if zone:
        sel += f"[data-zone='{zone}']"
    return page.locator(sel)


def card_actions(page: Page, card: Any) -> list[str]:
    """Open a card's dialog; the data-action of each button in it."""
    card.click()
    dlg = page.locator("dialog.dlg[open]")
    dlg.wait_for()
    return [b.get_attribute("data-action") or "" for b in dlg.locator(".dlg-acts button").all()]


def choose_in_dialog(page: Page, action: str) -> None:
    before = seq(page)
    page.locator(f"dialog.dlg[open] .dlg-acts button[data-action={action}]").first.click()
    wait_seq_above(page, before)


def close_dialog(page: Page) -> None:
    page.locator("dialog.dlg[open] button[data-key=dlg-close]").click()


def take_turn_step(page: Page) -> str:
    """Make one decision the way a keen player would: attack when possible,
    summon, go to battle, move on; pass otherwise.  Returns what it did."""
    # a decision away from the board (a trigger, cards or an option to choose): its dialog
    if page.locator(".decision [data-action=open-choice]").count():
        if not page.locator("dialog.dlg[open][data-kind=choice]").count():
            page.locator(".decision [data-action=open-choice]").click()
        dlg = page.locator("dialog.dlg[open][data-kind=choice]")
        confirm = dlg.locator("[data-action=choose-confirm]")
        if confirm.count():  # several cards to pick: toggle them until the choice is complete
            cards = dlg.locator(".choice-card")
            for i in range(cards.count()):
                if not confirm.is_disabled():
                    break
                cards.nth(i).click()
            click_and_wait(page, confirm)
        else:
            click_and_wait(page, dlg.locator(".choice-list button:not([disabled])").first)
        return "choice"
    # attack: click an attacker (a card whose actions include attacking), then a target
    attackers = page.locator(".card.actionable[data-zone=monsters][data-actions~=attack]")
    for i in range(attackers.count()):
        a = attackers.nth(i)
        a.click()
        if page.locator("dialog.dlg[open]").count():
            page.locator("dialog.dlg[open] .dlg-acts button[data-action=attack]").click()
        direct = page.locator("[data-action=attack-direct]")
        targets = page.locator(".card.targetable")
        if targets.count():
            click_and_wait(page, targets.first)
            return "attack"
        if direct.count():
            click_and_wait(page, direct)
            return "attack directly"
        page.locator("[data-key=act-cancel-select]").click()
    # summon from the hand
    for want in ("summon", "set"):
        hand = my_actionable(page, "hand").and_(page.locator(f"[data-actions~={want}]"))
        if hand.count():
            assert want in card_actions(page, hand.first)
            choose_in_dialog(page, want)
            return want
    for want in ("enter_battle_phase", "end_battle_phase", "next_phase", "end_turn", "finish_turn", "pass"):
        btn = page.locator(f".decision .acts button[data-action={want}]")
        if btn.count():
            click_and_wait(page, btn.first)
            return want
    # a choice (discard, trigger...): the first button the decision bar offers
    btn = page.locator(".decision .acts button")
    if btn.count():
        click_and_wait(page, btn.first)
        return "other"
    raise AssertionError(f"nothing to click; prompt: {prompt(page)}")


def shot(page: Page, folder: Path, name: str) -> Path:
    path = folder / f"{name}.png"
    page.screenshot(path=str(path), full_page=False)
    return path


def log_lines(page: Page) -> list[tuple[int, str]]:
    """The battle log as the page shows it: each line's entry and its exact text."""
    rows = page.locator("[data-testid=log] li").evaluate_all(
        "els => els.map(e => [Number(e.dataset.seq), e.textContent])"
    )
    return [(int(seq), str(text)) for seq, text in rows]


def both_pass_until(a: Page, b: Page, done: str) -> None:
    """The two players' pages pass in turn (whichever owes a decision) until ``done`` holds on ``a``."""
    for _ in range(40):
        if a.evaluate(done):
            return
        for page in (a, b):
            if page.evaluate(OWES) and not a.evaluate(done):
                click_and_wait(page, pass_button(page))
                break
        else:
            a.wait_for_timeout(50)
    raise AssertionError("the condition never came")
