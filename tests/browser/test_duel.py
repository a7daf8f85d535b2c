"""Two pages play a duel against each other by clicking, a third spectates.

The position is a puzzle (tests/browser/puzzles/honest_duel.yaml, served as
``duel scenario --serve`` serves it): A's D.D. Warrior Lady attacks B's
Blue-Eyes White Dragon, A activates Honest from the hand in the Damage Step
and B chains its own Honest; B, down to 1500 LP, loses the battle and the
duel.  Along the way B reloads its page and carries on, and neither the
spectator nor A ever sees a card that is hidden from them (B's hand and
B's face-down Trap)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import yaml
from browser_env import LiveServer, replay_stories
from browser_ui import (
    PHONE,
    click_and_wait,
    finished,
    log_lines,
    no_horizontal_scroll,
    open_page,
    owes,
    pass_button,
    prompt,
    shot,
    wait_app,
    wait_decision,
)
from playwright.sync_api import Page

from protocol.messages import Spectate, Spectating, Update
from server.cli.puzzle import create_puzzle_match
from server.clients.client import DuelClient

PUZZLE = Path(__file__).parent / "puzzles" / "honest_duel.yaml"
HIDDEN_FROM_A = ("Celtic Guardian", "Trap Jammer")  # B's hand card and B's face-down Trap


async def python_spectator(url: str, match_id: str) -> DuelClient:
    """A spectator of the same match through the project's Python client."""
    c = await DuelClient.connect(url, "py-spectator")
    await c.send(Spectate(match_id=match_id))
    await c.expect(Spectating)
    return c


async def stories_until(c: DuelClient, seq: int) -> list[tuple[int, str]]:
    """The story lines ``c`` was sent, once it has received entry ``seq``."""
    while c.seq < seq:
        c.changed.clear()
        await asyncio.wait_for(c.changed.wait(), 20)
    await c.close()
    return [(m.seq, line) for m in c.inbox if isinstance(m, Update) for line in m.story]


def hidden_cards_shown(page: Page, names: tuple[str, ...]) -> list[str]:
    html = page.content()
    return [n for n in names if n in html]


def whose_turn(pages: dict[str, Page]) -> str:
    """The name of the page that owes a decision now (waits for one)."""
    for _ in range(200):
        for name, page in pages.items():
            if owes(page):
                return name
        next(iter(pages.values())).wait_for_timeout(50)
    raise AssertionError("nobody owes a decision")


def pass_until(pages: dict[str, Page], done: Any, watchers: list[Page], limit: int = 30) -> None:
    """Both players pass (clicking the pass button) until ``done()``."""
    for _ in range(limit):
        if done():
            return
        name = whose_turn(pages)
        # again once a page owes: an update that arrived after the first check (the condition
        # now true) would otherwise have its decision passed away
        if done():
            return
        page = pages[name]
        btn = pass_button(page)
        assert btn.count() == 1, f"{name}: no pass button; prompt {prompt(page)!r}"
        assert btn.inner_text().startswith(("Pass", "Go to")), btn.inner_text()
        click_and_wait(page, btn)
        for w in watchers:
            assert hidden_cards_shown(w, HIDDEN_FROM_A) == []
    raise AssertionError("the condition never came")


def test_two_pages_duel_with_a_spectator_and_a_reload(browser: Any, live_server: LiveServer, screenshots: Path) -> None:
    doc = yaml.safe_load(PUZZLE.read_text("utf-8"))
    match_id, tokens = live_server.call(create_puzzle_match(live_server.server, doc))
    a = open_page(browser, f"{live_server.http}/#/seat/{tokens[0]}")
    b = open_page(browser, f"{live_server.http}/#/seat/{tokens[1]}", PHONE)  # B plays on a phone
    spectator = open_page(browser, f"{live_server.http}/#/watch/{match_id}")
    py_spectator = live_server.call(python_spectator(live_server.ws, match_id))
    pages = {"A": a, "B": b}
    watchers = [a, spectator]
    for p in (a, b, spectator):
        p.locator("[data-testid=turn]").wait_for()
    assert spectator.locator("main.match").get_attribute("data-role") == "spectator"
    # the spectator sees both hands as backs and B's set card as a back, with no identities
    for seat in (0, 1):
        hand = spectator.locator(f".row.hand[data-seat='{seat}'] .card")
        assert hand.count() >= 1
        assert all(
            c.get_attribute("data-code") is None and "back" in (c.get_attribute("class") or "") for c in hand.all()
        )
    assert spectator.locator(".card.back[data-zone=spells_traps][data-seat='1']").count() == 1
    assert hidden_cards_shown(spectator, (*HIDDEN_FROM_A, "Honest")) == []
    assert hidden_cards_shown(a, HIDDEN_FROM_A) == []
    # B sees its own set Trap by name
    assert b.locator("[data-zone=spells_traps][data-seat='1'][data-name='Trap Jammer']").count() == 1

    # A: Main Phase 1 -> Battle Phase, with the button that says so
    wait_decision(a)
    assert "Main Phase 1" in a.locator("[data-testid=where]").inner_text()
    click_and_wait(a, a.locator(".decision button[data-action=enter_battle_phase]"))

    # both pass through the Start Step until A can attack
    def a_can_attack() -> bool:
        return owes(a) and a.locator(".card.actionable[data-zone=monsters][data-seat='0']").count() > 0

    pass_until(pages, a_can_attack, watchers)
    assert "Battle Step" in a.locator("[data-testid=where]").inner_text()
    # attack, from the keyboard: Enter on D.D. Warrior Lady moves the focus to the only
    # possible target, Blue-Eyes White Dragon; Enter again declares the attack
    a.locator(".card.actionable[data-name='D.D. Warrior Lady']").focus()
    a.keyboard.press("Enter")
    target = a.locator(".card.targetable[data-name='Blue-Eyes White Dragon']")
    assert target.count() == 1
    a.wait_for_function(
        "() => document.activeElement && document.activeElement.dataset.name === 'Blue-Eyes White Dragon'"
    )
    outline = a.evaluate("() => getComputedStyle(document.activeElement).outlineStyle")
    assert outline != "none"  # the focus is visible
    before = int(a.evaluate("() => window.duelApp.match.seq"))
    a.keyboard.press("Enter")
    wait_app(a, "n => window.duelApp.match.seq > n", before)
    assert "attacks" in a.locator("[data-testid=attack]").inner_text()

    # B owes the response to the attack declaration ... and reloads its page first
    wait_decision(b)
    assert "attack declaration" in pass_button(b).inner_text()
    seq_before = int(b.evaluate("() => window.duelApp.match.seq"))
    b.reload()
    wait_app(b, "() => window.duelApp && window.duelApp.match && window.duelApp.match.view")
    wait_decision(b)
    assert int(b.evaluate("() => window.duelApp.match.seq")) == seq_before
    assert b.evaluate("() => window.duelApp.match.seat") == 1
    # the log came back with the catch-up (facts since entry 1)
    assert "attacks" in b.locator("[data-testid=log]").inner_text()
    assert "attack declaration" in pass_button(b).inner_text()
    click_and_wait(b, pass_button(b))

    # the Damage Step: A's Honest in the hand becomes clickable
    def a_can_activate() -> bool:
        return owes(a) and a.locator(".card.actionable[data-zone=hand][data-name='Honest']").count() > 0

    pass_until(pages, a_can_activate, watchers)
    assert "Damage Step" in a.locator("[data-testid=where]").inner_text()
    a.locator(".card.actionable[data-zone=hand][data-name='Honest']").click()
    activate = a.locator("dialog.dlg[open] .dlg-acts button[data-action=activate]")
    assert activate.count() == 1
    click_and_wait(a, activate)
    assert "Honest" in a.locator("[data-testid=chain]").inner_text()

    # A's network drops now; B answers while A is away
    a.evaluate("() => window.duelApp.conn.drop()")
    # B chains its own Honest (a chain response, in the Damage Step)
    wait_decision(b)
    assert "chain link 1" in pass_button(b).inner_text()
    b.locator(".card.actionable[data-zone=hand][data-name='Honest']").click()
    click_and_wait(b, b.locator("dialog.dlg[open] .dlg-acts button[data-action=activate]"))
    # A is back by itself (backoff, reconnect with its token) and caught up from its last seq
    wait_decision(a)
    assert a.evaluate("() => window.duelApp.conn.opens") == 2  # one reconnect
    assert a.evaluate("() => window.duelApp.match.seq") == b.evaluate("() => window.duelApp.match.seq")
    assert 'B activates "Honest" (effect 2) (chain link 2)' in a.locator("[data-testid=log]").inner_text()
    chain = a.locator("[data-testid=chain] li")
    assert chain.count() == 2
    assert "chain link 2" in pass_button(a).inner_text()
    spectator.locator("[data-testid=chain] li").nth(1).wait_for()
    assert "Damage Step" in spectator.locator("[data-testid=where]").inner_text()
    shot(a, screenshots, "board-damage-step-1280x720")
    shot(b, screenshots, "board-damage-step-390x844")
    assert no_horizontal_scroll(a) and no_horizontal_scroll(b)

    # everyone passes: the chain resolves, damage is calculated, B loses
    pass_until(pages, lambda: finished(a) and finished(b), watchers)
    for page in (a, b, spectator):
        page.locator(".decision [data-testid=prompt]", has_text="A wins").wait_for()
    assert "you won" in prompt(a) and "you lost" in prompt(b)
    assert b.locator("[data-testid=lp-1]").inner_text().startswith("LP 0")
    assert (
        b.locator("[data-testid=lp-1] .lp-delta").inner_text().strip() == "\u22121500"
    )  # the change, shown (U+2212 minus)
    log = a.locator("[data-testid=log]").inner_text()
    assert "LP -1500 (battle damage) -> 0" in log
    assert '"Honest"' in log and "Duel over: A wins" in log
    assert hidden_cards_shown(spectator, HIDDEN_FROM_A) == []
    assert hidden_cards_shown(a, HIDDEN_FROM_A) == []
    # each log is exactly the story the server told that page: the spectator's what a Python
    # spectator was sent; each seat's what the match's replay says that seat was sent (B's
    # rebuilt after its reload from the catch-up)
    last = int(a.evaluate("() => window.duelApp.match.seq"))
    told = live_server.call(stories_until(py_spectator, last))
    wait_app(spectator, "s => window.duelApp.match.seq === s", last)
    assert log_lines(spectator) == told
    assert log_lines(spectator) == live_server.call(replay_stories(live_server.ws, match_id, "spectator"))
    for page, seat in ((a, "0"), (b, "1")):
        assert log_lines(page) == live_server.call(replay_stories(live_server.ws, match_id, seat))
    # the Graveyards open as lists: each Honest went to its owner's (the duel ended at
    # damage calculation, before Blue-Eyes could be destroyed)
    for seat in (0, 1):
        spectator.locator(f"[data-pile='graveyard-{seat}']").click()
        listed = spectator.locator(f"dialog.dlg[open] [data-pile-list='graveyard-{seat}'] summary").all_inner_texts()
        assert listed == ["Honest"]
        spectator.keyboard.press("Escape")
        assert spectator.locator("dialog.dlg[open]").count() == 0
    for page in (a, b, spectator):
        assert page.errors == [], page.errors  # type: ignore[attr-defined]
        page.context.close()
