"""Decisions made away from the board, each in its dialog: ordering one's own
simultaneous trigger effects (pending ``trigger`` with several cards), an
optional trigger, the card(s) an effect picks as it resolves (``cards``),
and an option (``options``).  The positions are rulings scenarios served as
puzzles; both pages pass by themselves where passing is all they can do."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml
from browser_env import REPO, LiveServer
from browser_ui import click_and_wait, log_lines, open_page, pass_button, wait_decision
from playwright.sync_api import Page

from server.cli.puzzle import create_puzzle_match

SCENARIOS = REPO / "tests" / "scenarios"
PUZZLES = Path(__file__).parent / "puzzles"


def seat_pages(browser: Any, live_server: LiveServer, path: Path) -> tuple[Page, Page]:
    doc = yaml.safe_load(path.read_text("utf-8"))
    _, tokens = live_server.call(create_puzzle_match(live_server.server, doc))
    a = open_page(browser, f"{live_server.http}/#/seat/{tokens[0]}", auto_pass=True)
    b = open_page(browser, f"{live_server.http}/#/seat/{tokens[1]}", auto_pass=True)
    return a, b


def attack(page: Page, attacker: str, target: str) -> None:
    wait_decision(page)
    page.locator(f".card.actionable[data-name='{attacker}']").click()
    click_and_wait(page, page.locator(f".card.targetable[data-name='{target}']"))


def choice_dialog(page: Page) -> Any:
    """The choice dialog, opened by itself when the page owes such a decision."""
    wait_decision(page)
    dlg = page.locator("dialog.dlg[open][data-kind=choice]")
    dlg.wait_for()
    return dlg


def test_the_turn_player_orders_its_own_triggers_then_the_opponent_decides_its_own(
    browser: Any, live_server: LiveServer
) -> None:
    a, b = seat_pages(browser, live_server, SCENARIOS / "rules" / "ch5-segoc-turn-player-orders-own-triggers.yaml")
    attack(a, "Hydrogeddon", "Apprentice Magician")
    # end of the Damage Step: A's Hydrogeddon and Domino Effect trigger together; A puts one first
    dlg = choice_dialog(a)
    assert "which goes on the chain first" in dlg.locator("h2").inner_text()
    assert "choose which goes on the chain first" in dlg.locator("[data-testid=choice-prompt]").inner_text()
    first = dlg.locator(".choice-list button[data-action=activate]")
    # one button per way: Domino Effect's cost is either monster
    assert sorted(first.all_inner_texts()) == [
        "First: Activate Domino Effect (effect 2) (paying with Hydrogeddon)",
        "First: Activate Domino Effect (effect 2) (paying with Kozaky)",
        "First: Activate Hydrogeddon",
    ]
    # hovering a choice shows that card's text in the dialog
    domino = first.filter(has_text="paying with Kozaky")
    domino.hover()
    dlg.locator(".dlg-detail h3", has_text="Domino Effect").wait_for()
    assert dlg.locator(".choice-list button[data-action=pass]").inner_text() == "Do not activate"
    click_and_wait(a, domino)
    # the other one is still A's to decide, alone now
    dlg = choice_dialog(a)
    assert dlg.locator("h2").inner_text() == "Hydrogeddon's effect"
    click_and_wait(a, dlg.locator(".choice-list button[data-action=activate]"))
    # A stops passing by itself, so that the chain of three waits for A's answer (with
    # auto-pass on, both pages would pass at once and the chain would resolve under us)
    a.locator(".decision [data-key=autopass]").uncheck()
    # then B's own trigger, from its Graveyard
    dlg = choice_dialog(b)
    assert "Apprentice Magician" in dlg.locator("h2").inner_text()
    click_and_wait(b, dlg.locator(".choice-list button[data-action=activate]"))
    wait_decision(a)  # A owes the answer to chain link 3: passing is all it can do
    for page in (a, b):
        chain = [re.sub(r"\s+", " ", t) for t in page.locator("[data-testid=chain] li").all_inner_texts()]
        assert [t.split(" (")[0] for t in chain] == ["3. Apprentice Magician", "2. Hydrogeddon", "1. Domino Effect"]
    click_and_wait(a, pass_button(a))
    text = "\n".join(line for _, line in log_lines(b))
    for line in (
        'A activates "Domino Effect"',
        'A activates "Hydrogeddon"',
        'B activates "Apprentice Magician"\'s effect',
    ):
        assert line in text, line
    for page in (a, b):
        assert page.errors == [], page.errors  # type: ignore[attr-defined]
        page.context.close()


def test_cards_chosen_as_an_effect_resolves(browser: Any, live_server: LiveServer, screenshots: Path) -> None:
    a, b = seat_pages(browser, live_server, SCENARIOS / "cards" / "chthonian_blast.yaml")
    attack(a, "Vorse Raider", "Silver Fang")
    # the end of the Damage Step: B activates its set Chthonian Blast (Silver Fang was destroyed)
    wait_decision(b)
    b.locator(".card.actionable[data-name='Chthonian Blast']").click()
    click_and_wait(b, b.locator("dialog.dlg[open] .dlg-acts button[data-action=activate]"))
    # as it resolves, two monsters tie for the lowest ATK (both Kozaky): B picks one, in a dialog
    dlg = choice_dialog(b)
    assert dlg.locator("h2").inner_text() == "Chthonian Blast"
    assert "choose 1 card" in dlg.locator("[data-testid=choice-prompt]").inner_text()
    cards = dlg.locator(".choice-card")
    assert sorted(cards.all_inner_texts()) == ["Kozaky — the opponent's Monster Zone 2", "Kozaky — your Monster Zone 2"]
    theirs = cards.filter(has_text="the opponent's")
    theirs.hover()
    dlg.locator(".dlg-detail h3", has_text="Kozaky").wait_for()
    assert "Level 1" in dlg.locator(".dlg-detail").inner_text()
    b.screenshot(path=str(screenshots / "dialog-choose-cards-1280x720.png"))
    click_and_wait(b, theirs)
    # A's Kozaky went to A's Graveyard; both took half its ATK
    a.locator("[data-testid=lp-0]", has_text="LP 7800").wait_for()
    b.locator("[data-testid=lp-1]", has_text="LP 7100").wait_for()
    a.locator("[data-pile='graveyard-0']", has_text="Graveyard (1)").wait_for()
    assert b.locator(".card[data-seat='1'][data-name='Kozaky']").count() == 1
    assert any('"Kozaky" is destroyed' in line for _, line in log_lines(a))
    for page in (a, b):
        assert page.errors == [], page.errors  # type: ignore[attr-defined]
        page.context.close()


def test_a_card_chosen_from_ones_own_deck_is_named_and_its_text_shown(
    browser: Any, live_server: LiveServer, screenshots: Path
) -> None:
    a, b = seat_pages(browser, live_server, SCENARIOS / "cards" / "apprentice_magician.yaml")
    attack(a, "Vorse Raider", "Apprentice Magician")
    # the end of the Damage Step: B's Apprentice Magician (destroyed by battle) may summon from B's Deck
    dlg = choice_dialog(b)
    click_and_wait(b, dlg.locator(".choice-list button[data-action=activate]"))
    # as it resolves, B picks a Level 2 or lower Spellcaster from its own Deck: the server names
    # the candidates for B (pending.cards), so the dialog does too, with their texts
    dlg = choice_dialog(b)
    assert dlg.locator("h2").inner_text() == "Apprentice Magician"
    cards = dlg.locator(".choice-card")
    assert sorted(cards.all_inner_texts()) == ["Apprentice Magician — your Deck", "Miracle Flipper — your Deck"]
    assert "cannot see" not in dlg.inner_text()
    boxes = set()
    for name, words in (("Miracle Flipper", "Level 2"), ("Apprentice Magician", "Spell Counter")):
        cards.filter(has_text=name).hover()
        detail = dlg.locator(".dlg-detail")
        detail.locator("h3", has_text=name).wait_for()
        assert words in detail.inner_text()
        # whatever card it shows, the dialog keeps its place and size (no jumping under the pointer)
        boxes.add(
            tuple(
                round(v)
                for v in dlg.evaluate(
                    "d => { const r = d.getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; }"
                )
            )
        )
    assert len(boxes) == 1, boxes
    b.screenshot(path=str(screenshots / "dialog-choose-from-deck-1280x720.png"))
    click_and_wait(b, cards.filter(has_text="Miracle Flipper"))
    # B set it face-down: B sees which card it is, A a face-down card
    b.locator(".card[data-zone=monsters][data-seat='1'][data-name='Miracle Flipper']").wait_for()
    a.locator(".card[data-zone=monsters][data-seat='1']").wait_for()
    assert a.locator(".card[data-zone=monsters][data-seat='1'][data-name='Miracle Flipper']").count() == 0
    for page in (a, b):
        assert page.errors == [], page.errors  # type: ignore[attr-defined]
        page.context.close()


def test_an_option_chosen_as_an_effect_resolves(browser: Any, live_server: LiveServer) -> None:
    a, b = seat_pages(browser, live_server, PUZZLES / "miracle_flipper.yaml")
    attack(a, "Dark Magician", "Miracle Flipper")
    # nothing left to attack with: going on to the End Step is all A can do, so its page does it
    # (auto-pass); the End Step: Miracle Flipper comes back to A's side; B, its owner, picks the position
    dlg = choice_dialog(b)
    assert "A moves on" in [line.strip() for _, line in log_lines(b)]
    options = dlg.locator(".choice-list button[data-option]")
    assert [o.get_attribute("data-option") for o in options.all()] == ["attack", "defense"]
    assert options.all_inner_texts() == ["Attack", "Defense"]
    click_and_wait(b, options.filter(has_text="Defense"))
    flipper = a.locator(".card[data-zone=monsters][data-seat='0'][data-name='Miracle Flipper']")
    flipper.wait_for()
    assert "defense" in (flipper.get_attribute("class") or "")
    for page in (a, b):
        assert page.errors == [], page.errors  # type: ignore[attr-defined]
        page.context.close()
