"""A rulings example played in the browser (seed 002, Battle Step, Example 4):
set cards activated from the field, a Counter Trap paid with LP, a target and a
cost chosen in the dialog, and the attack's replay: a new target chosen on
the board."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml
from browser_env import REPO, LiveServer
from browser_ui import click_and_wait, open_page, owes, pass_button, wait_decision
from playwright.sync_api import Page

from server.cli.puzzle import create_puzzle_match

EXAMPLE = REPO / "tests" / "scenarios" / "battle_step" / "002-example-4-replay.yaml"


def activate(page: Page, name: str, label: str | None = None, screenshot: Path | None = None) -> None:
    """Click a card of one's own field by name, then its Activate button
    (the one whose text matches ``label`` when there are several)."""
    page.locator(f'.card.actionable[data-name="{name}"]').click()
    buttons = page.locator("dialog.dlg[open] .dlg-acts button[data-action=activate]")
    if label is not None:
        buttons = buttons.filter(has_text=re.compile(label))
    assert buttons.count() == 1, buttons.all_inner_texts()
    if screenshot is not None:
        page.screenshot(path=str(screenshot))
    click_and_wait(page, buttons)


def both_pass(pages: list[Page]) -> None:
    for page in pages:
        wait_decision(page)
        click_and_wait(page, pass_button(page))


def test_example_4_through_the_ui(browser: Any, live_server: LiveServer, screenshots: Path) -> None:
    doc = yaml.safe_load(EXAMPLE.read_text("utf-8"))
    _, tokens = live_server.call(create_puzzle_match(live_server.server, doc))
    a = open_page(browser, f"{live_server.http}/#/seat/{tokens[0]}")
    b = open_page(browser, f"{live_server.http}/#/seat/{tokens[1]}")
    wait_decision(a)
    # A's Dark Magician attacks Blue-Eyes White Dragon
    a.locator(".card.actionable[data-name='Dark Magician']").click()
    click_and_wait(a, a.locator(".card.targetable[data-name='Blue-Eyes White Dragon']"))
    # A activates its set Magician's Circle; B answers with Seven Tools of the Bandit (1000 LP)
    wait_decision(a)
    activate(a, "Magician's Circle")
    wait_decision(b)
    activate(b, "Seven Tools of the Bandit")
    both_pass([a, b])
    wait_decision(a)
    assert a.locator("[data-testid=lp-1]").inner_text().startswith("LP 7000")
    # Enemy Controller, its first effect, targeting Blue-Eyes: chosen in the dialog
    activate(a, "Enemy Controller", r"^Activate, targeting .*Blue-Eyes White Dragon$")
    # Raigeki Break targeting Blue-Eyes, discarding Kozaky as the cost
    wait_decision(b)
    activate(
        b,
        "Raigeki Break",
        r"Blue-Eyes White Dragon.*paying with Kozaky",
        screenshots / "dialog-target-and-cost-1280x720.png",
    )
    assert b.locator("[data-testid=chain] li").count() == 2
    both_pass([a, b])
    # the target is gone: a replay. A chooses the new target on the board
    wait_decision(a)
    replay = a.locator(".decision button[data-action=retarget]")
    assert replay.count() == 1 and a.locator("[data-action=retarget-direct]").count() == 0
    assert a.locator(".decision button[data-action=cancel_attack]").count() == 1
    replay.click()
    a.screenshot(path=str(screenshots / "replay-choose-target-1280x720.png"))
    target = a.locator(".card.targetable")
    assert target.count() == 1 and target.get_attribute("data-name") == "Giant Soldier of Stone"
    click_and_wait(a, target)
    assert "Giant Soldier of Stone" in a.locator("[data-testid=attack]").inner_text()
    log = b.locator("[data-testid=log]").inner_text()
    for line in ('"Raigeki Break" (chain link 2)', '"Kozaky" is discarded', '"Blue-Eyes White Dragon" is destroyed'):
        assert line in log, line
    # A passes; B may respond, but not with Sakuretsu Armor: choosing again is not declaring
    wait_decision(a)
    click_and_wait(a, pass_button(a))
    wait_decision(b)
    assert owes(b)
    assert b.locator(".card.actionable[data-name='Sakuretsu Armor']").count() == 0
    for page in (a, b):
        assert page.errors == [], page.errors  # type: ignore[attr-defined]
        page.context.close()
