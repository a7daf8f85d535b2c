"""A whole duel against the server's bot by keyboard alone (issue 38, item 7): no click, only key
presses, counted (under 400). After every action the focus is back on the decision (its first
button: Space passes or moves on); digits press numbered buttons (of the decision or of a
dialog); A goes to the next card that has actions, Enter opens it. The replay viewer steps with
the arrows, Esc closes a dialog, ? lists the keys."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from browser_env import LiveServer
from browser_ui import SETTLED, open_page, shot, wait_app
from playwright.sync_api import Browser, Page

TARGETS = ".card.targetable, [data-action=attack-direct]"
FOCUS_IN_DECISION = "() => !!document.activeElement && !!document.activeElement.closest('.decision')"


class Keys:
    """The page's keyboard, counting the presses."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.count: Counter[str] = Counter()

    def press(self, key: str, why: str) -> None:
        self.count[why] += 1
        self.count["presses"] += 1
        self.page.keyboard.press(key)

    def digit_of(self, selector: str) -> str | None:
        """The digit of the first numbered button matching ``selector`` (in the dialog if open)."""
        return self.page.evaluate(
            """sel => { const d = document.querySelector('dialog.dlg[open]');
                const b = (d || document).querySelector(sel); return b ? b.dataset.num || null : null; }""",
            selector,
        )

    def focus_card(self, selector: str, why: str) -> bool:
        """Press A until a card matching ``selector`` has the focus (False: none is reachable)."""
        if not self.page.locator(selector).count():
            return False
        for _ in range(40):
            if self.page.evaluate("sel => !!document.activeElement && document.activeElement.matches(sel)", selector):
                return True
            self.press("a", why)
        return False


def seq(page: Page) -> int:
    return int(page.evaluate("() => window.duelApp.match.seq"))


def decide(k: Keys) -> None:
    """One decision by keyboard, as a keen player would make it."""
    page = k.page
    before = seq(page)
    dlg = page.locator("dialog.dlg[open][data-kind=choice]")
    if not dlg.count() and page.locator(".decision [data-action=open-choice]").count():
        k.press("Enter", "choice")  # the focus is on "Choose…"
        dlg.wait_for()
    if dlg.count():
        confirm = dlg.locator("[data-action=choose-confirm]")
        if confirm.count():
            for num in [c.get_attribute("data-num") for c in dlg.locator(".choice-card[data-num]").all()]:
                if not confirm.is_disabled():
                    break
                k.press(str(num), "choice")
            k.press(str(confirm.get_attribute("data-num")), "choice")
        else:
            k.press("1", "choice")
        page.wait_for_function("n => window.duelApp.match.seq > n", arg=before)
        return
    # the focus is the decision's, as after every action
    assert page.evaluate(FOCUS_IN_DECISION), page.evaluate("() => document.activeElement.outerHTML.slice(0, 200)")
    seat = page.evaluate("() => window.duelApp.match.seat")
    attacker = f".card.actionable[data-seat='{seat}'][data-zone=monsters][data-actions~=attack]"
    if k.focus_card(attacker, "attack"):
        k.press("Enter", "attack")
        if page.locator("dialog.dlg[open]").count():  # the card has other actions too
            k.press(str(k.digit_of("button[data-action=attack]")), "attack")
        page.wait_for_function(f"() => document.activeElement && document.activeElement.matches({TARGETS!r})")
        k.press("Enter", "attack")
        page.wait_for_function("n => window.duelApp.match.seq > n", arg=before)
        return
    for want in ("summon", "set"):
        card = f".card.actionable[data-seat='{seat}'][data-zone=hand][data-actions~={want}]"
        if k.focus_card(card, want):
            k.press("Enter", want)
            page.locator("dialog.dlg[open]").wait_for()
            k.press(str(k.digit_of(f".dlg-acts button[data-action={want}]")), want)
            page.wait_for_function("n => window.duelApp.match.seq > n", arg=before)
            return
    my_attackers = page.locator(f".card[data-seat='{seat}'][data-zone=monsters]:not(.defense):not(.own-set)").count()
    battle = k.digit_of(".decision button[data-action=enter_battle_phase]")
    end = k.digit_of(".decision button[data-action=finish_turn]")
    if battle and my_attackers:
        k.press(battle, "move on")
    elif end:
        k.press(end, "end the turn")
    else:
        k.press("Space", "pass")
    page.wait_for_function("n => window.duelApp.match.seq > n", arg=before)


def tab_to(k: Keys, selector: str, why: str) -> None:
    for _ in range(60):
        if k.page.evaluate("sel => !!document.activeElement && document.activeElement.matches(sel)", selector):
            return
        k.press("Tab", why)
    raise AssertionError(f"Tab never reached {selector}")


def stop_less(k: Keys, boxes: list[str]) -> None:
    """Untick "Stop at" boxes by keyboard: Tab to "Stop at…", Enter, Tab to each box, Space; Esc."""
    tab_to(k, "[data-testid=stops] summary", "settings")
    k.press("Enter", "settings")
    for box in boxes:
        tab_to(k, f"[data-stop='{box}']", "settings")
        k.press("Space", "settings")
    k.press("Escape", "settings")
    stops = k.page.evaluate("() => window.duelApp.stops")
    assert all(b.split(":")[1] not in stops[b.split(":")[0]] for b in boxes), stops
    assert k.page.evaluate(FOCUS_IN_DECISION)


def test_a_whole_duel_against_the_bot_by_keyboard(browser: Browser, live_server: LiveServer, screenshots: Path) -> None:
    # a new player's settings: auto-pass on, the page not stopped in its own Draw and Standby Phases
    page = open_page(browser, live_server.http + "/", auto_pass=True, stops="")
    k = Keys(page)
    # the lobby by keyboard too: Tab to the name, type it, Enter (the form plays against the bot)
    for _ in range(30):
        if page.evaluate("() => document.activeElement && document.activeElement.id === 'name'"):
            break
        k.press("Tab", "lobby")
    for ch in "Keys":
        k.press(ch, "lobby")
    for _ in range(30):
        if page.evaluate("() => document.activeElement && document.activeElement.matches('[data-lobby=bot]')"):
            break
        k.press("Tab", "lobby")
    k.press("Enter", "lobby")
    page.locator("[data-testid=turn]").wait_for()
    page.wait_for_function(SETTLED, timeout=30_000)
    # a player who wants a quick duel: not stopped in the opponent's Standby and Battle Phases nor
    # in any Damage Step (the page passes there for them, whatever their cards); set by keyboard
    stop_less(k, ["own:damage", "theirs:standby", "theirs:battle", "theirs:damage"])
    for _ in range(2000):
        page.wait_for_function(SETTLED, timeout=30_000)
        if page.evaluate("() => window.duelApp.match.view.winner !== null"):
            break
        decide(k)
        if k.count["attack"] and "shot" not in k.count:
            k.count["shot"] = 1
            shot(page, screenshots, "keyboard-duel")
    assert page.evaluate("() => window.duelApp.match.view.winner !== null")
    print(f"key presses: {dict(k.count)}; turns: {page.evaluate('() => window.duelApp.match.view.turn')}")
    assert k.count["presses"] < 400, k.count
    assert k.count["summon"] + k.count["set"] > 0, k.count
    assert page.errors == [], page.errors  # type: ignore[attr-defined]

    # the replay of that duel, by keyboard: the arrows step, Home and End go to the ends
    k.press("Tab", "replay")
    page.goto(page.url.replace("#/match/", "#/replay/"))
    wait_app(page, "() => { const r = window.duelApp.replay; return r && r.entries.length > 10 && !r.loading; }")
    index = "() => window.duelApp.replay.index"
    page.locator("body").focus()
    k.press("End", "replay")
    last = page.evaluate(index)
    assert last > 10
    k.press("ArrowLeft", "replay")
    k.press("ArrowLeft", "replay")
    assert page.evaluate(index) == last - 2
    k.press("ArrowRight", "replay")
    assert page.evaluate(index) == last - 1
    k.press("Home", "replay")
    assert page.evaluate(index) == 0
    # ? lists the keys; Esc closes it
    k.press("?", "help")
    help_list = page.locator("dialog.dlg[open] [data-testid=keys-help]")
    help_list.wait_for()
    assert "step back / forward" in help_list.inner_text()
    shot(page, screenshots, "keyboard-help")
    k.press("Escape", "help")
    page.wait_for_function("() => !document.querySelector('dialog.dlg[open]')")
    page.context.close()


def test_focus_comes_back_to_the_decision_after_an_action_from_a_dialog(
    browser: Browser, live_server: LiveServer
) -> None:
    """A card's action sent from its dialog: the dialog closes and the focus is the decision's
    first button once the answer is in (not the card, nor the page)."""
    page: Any = open_page(browser, live_server.http + "/", auto_pass=False)
    page.get_by_label("Your name").fill("Focus")
    page.locator("[data-lobby=bot]").click()
    page.locator("[data-testid=turn]").wait_for()
    for _ in range(60):
        page.wait_for_function(SETTLED)
        hand = page.locator(".card.actionable[data-seat='0'][data-zone=hand][data-actions~=set]")
        if hand.count():
            break
        now = seq(page)
        page.keyboard.press("Space")
        page.wait_for_function("n => window.duelApp.match.seq > n", arg=now)
    hand.first.focus()
    page.keyboard.press("Enter")
    page.locator("dialog.dlg[open]").wait_for()
    before = seq(page)
    digit = page.locator("dialog.dlg[open] .dlg-acts button[data-action=set]").first.get_attribute("data-num")
    page.keyboard.press(str(digit))
    page.wait_for_function("n => window.duelApp.match.seq > n", arg=before)
    page.wait_for_function(SETTLED)
    page.wait_for_function(FOCUS_IN_DECISION)
    assert page.evaluate("() => document.activeElement.hasAttribute('data-primary')")
    page.context.close()
