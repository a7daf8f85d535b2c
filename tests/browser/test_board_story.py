"""The board tells the story (issue 38): an arrow from the attacker to its target for as long as the
attack lasts (to the player for a direct attack); a Summon, a destruction and a change of LP shown
on the board where they happen, each for less than 300 ms and then gone, on both players' pages;
with ``prefers-reduced-motion: reduce`` nothing moves, and the board still shows what happened."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from browser_env import LiveServer
from browser_ui import OWES, PHONE, both_pass_until, click_and_wait, open_page, shot, wait_app
from playwright.sync_api import Browser, Page

from server.cli.puzzle import create_puzzle_match

FX_LIMIT_MS = 300
DECK = ["Celtic Guardian"] * 5


def position(phase: str, b_monsters: list[dict[str, Any]], a_hand: list[str] | None = None) -> dict[str, Any]:
    start: dict[str, Any] = {
        "turn": 3,
        "turn_player": "A",
        "phase": phase,
        "A": {"hand": a_hand or [], "monsters": [{"card": "Dark Magician"}], "deck": DECK},
        "B": {"monsters": b_monsters, "deck": DECK},
    }
    if phase == "battle":
        start["step"] = "battle"
    return {"format": 1, "name": "board story", "start": start, "steps": []}


WATCH = """() => {
  // every frame: which effects are running on the board (an element of the effect with a running
  // animation), what they say, where, and when the page's last update arrived
  window.fx = {seen: {}, maxAnimations: 0, everFx: false};
  const kinds = {destroy: '.fx-destroy', lp: '.fx-lp', summon: '.card.fx-summon', flip: '.card.fx-flip'};
  let seq = -1, seqAt = 0;
  const tick = (t) => {
    const m = window.duelApp.match;
    if (m && m.seq !== seq) { seq = m.seq; seqAt = t; }
    window.fx.maxAnimations = Math.max(window.fx.maxAnimations, document.getAnimations().length);
    if (document.querySelector('.fx')) window.fx.everFx = true;
    for (const [k, sel] of Object.entries(kinds)) {
      const els = Array.from(document.querySelectorAll(sel));
      const running = els.filter(e => e.getAnimations().some(a => a.playState === 'running'));
      const s = window.fx.seen[k] ??=
        {first: null, last: null, afterUpdate: null, texts: [], places: [], durations: [], present: 0};
      s.present = els.length;
      if (running.length === 0) continue;
      if (s.first === null) { s.first = t; s.afterUpdate = t - seqAt; }
      s.last = t;
      for (const e of running) {
        if (!s.texts.includes(e.textContent)) s.texts.push(e.textContent);
        const at = e.closest('[data-seat]');
        const place = at ? `${at.dataset.seat}/${at.dataset.zone || ''}/${at.dataset.slot || ''}` : '';
        if (!s.places.includes(place)) s.places.push(place);
        for (const a of e.getAnimations()) s.durations.push(a.effect.getTiming().duration);
      }
    }
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}"""


def watch(page: Page) -> None:
    page.evaluate(WATCH)


def seen(page: Page, kind: str) -> dict[str, Any]:
    return dict(page.evaluate("k => window.fx.seen[k]", kind))


def assert_shown_then_gone(page: Page, kind: str) -> dict[str, Any]:
    """The effect ran, began with the update that told it, lasted less than 300 ms, and its
    elements are gone from the page afterwards."""
    page.wait_for_function(
        "k => { const s = window.fx.seen[k]; return !!s && s.first !== null && s.present === 0 }", arg=kind
    )
    s = seen(page, kind)
    assert s["afterUpdate"] < 100, s  # shown at once (the first frames after the update)
    assert s["last"] - s["first"] < FX_LIMIT_MS, s
    assert s["durations"] and max(s["durations"]) < FX_LIMIT_MS, s
    return s


def arrow_ends(page: Page) -> dict[str, Any]:
    """The attack arrow's ends, in the page's coordinates."""
    return dict(
        page.locator("[data-testid=attack-arrow]").evaluate(
            """svg => { const r = svg.getBoundingClientRect(), p = svg.querySelector('path.shaft');
                 const a = p.getPointAtLength(0), b = p.getPointAtLength(p.getTotalLength());
                 return {x1: r.left + a.x, y1: r.top + a.y, x2: r.left + b.x, y2: r.top + b.y,
                         length: p.getTotalLength(), from: svg.dataset.from, to: svg.dataset.to}; }"""
        )
    )


def inside(x: float, y: float, box: Any) -> bool:
    return bool(box["x"] <= x <= box["x"] + box["width"] and box["y"] <= y <= box["y"] + box["height"])


def pages(browser: Browser, live_server: LiveServer, doc: dict[str, Any], **context: Any) -> tuple[Page, Page]:
    _, tokens = live_server.call(create_puzzle_match(live_server.server, doc))
    a = open_page(browser, f"{live_server.http}/#/seat/{tokens[0]}", **context)
    b = open_page(browser, f"{live_server.http}/#/seat/{tokens[1]}", **context)
    wait_app(a, "() => window.duelApp.match.legal.length > 0")
    return a, b


def declare(a: Page, attacker: str, target: str | None) -> None:
    a.locator(f".card.actionable[data-name='{attacker}']").click()
    if target is None:
        click_and_wait(a, a.locator(".decision [data-action=attack-direct]"))
    else:
        click_and_wait(a, a.locator(f".card.targetable[data-name='{target}']"))


def test_an_attack_shows_its_arrow_and_the_battle_its_destruction_and_damage(
    browser: Browser, live_server: LiveServer, screenshots: Path
) -> None:
    a, b = pages(browser, live_server, position("battle", [{"card": "Gemini Elf"}]))
    for page in (a, b):
        watch(page)
        assert page.locator("[data-testid=attack-arrow]").count() == 0  # no attack yet
    declare(a, "Dark Magician", "Gemini Elf")
    for page in (a, b):
        wait_app(page, "() => !!window.duelApp.match.view.attack")
        page.locator("[data-testid=attack-arrow]").wait_for()
        ends = arrow_ends(page)
        attacker = page.locator(".card[data-name='Dark Magician']")
        target = page.locator(".card[data-name='Gemini Elf']")
        assert ends["from"] == attacker.get_attribute("data-card-id")
        assert ends["to"] == target.get_attribute("data-card-id")
        assert inside(ends["x1"], ends["y1"], attacker.bounding_box()), ends
        assert inside(ends["x2"], ends["y2"], target.bounding_box()), ends
        assert ends["length"] > 40, ends  # an arrow to be seen, though the two cards face each other
    shot(b, screenshots, "attack-arrow-1280x720")
    # the battle: Gemini Elf destroyed, 600 damage to B
    both_pass_until(a, b, "() => window.duelApp.match.view.players[1].graveyard.length === 1")
    for page in (a, b):
        wait_app(page, "() => window.duelApp.match.view.players[1].lp === 7400")
        destroy = assert_shown_then_gone(page, "destroy")
        assert destroy["places"] == ["1/monsters/0"], destroy  # where Gemini Elf was
        assert any("Gemini Elf destroyed" in t for t in destroy["texts"]), destroy
        lp = assert_shown_then_gone(page, "lp")
        assert lp["texts"] == ["\u2212600"] and lp["places"] == ["1//"], lp
        # the state stays: the card in the Graveyard, the LP and the turn's change
        assert page.locator("[data-pile='graveyard-1']").inner_text() == "Graveyard (1)"
        assert page.locator("[data-testid=lp-1]").inner_text().startswith("LP 7400")
        assert page.locator(".card[data-name='Gemini Elf']").count() == 0
    # the attack over: no arrow
    both_pass_until(a, b, "() => window.duelApp.match.view.attack === null")
    wait_app(b, "() => window.duelApp.match.view.attack === null")
    assert b.locator("[data-testid=attack-arrow]").count() == 0
    for page in (a, b):
        assert page.errors == [], page.errors  # type: ignore[attr-defined]
        page.context.close()


def test_a_summon_and_a_direct_attack(browser: Browser, live_server: LiveServer) -> None:
    a, b = pages(browser, live_server, position("main1", [], ["Celtic Guardian"]))
    for page in (a, b):
        watch(page)
    a.locator(".card.actionable[data-zone=hand][data-name='Celtic Guardian']").click()
    click_and_wait(a, a.locator("dialog.dlg[open] .dlg-acts button[data-action=summon]"))
    for page in (a, b):
        wait_app(page, "() => window.duelApp.match.view.players[0].monsters.some(c => c?.name === 'Celtic Guardian')")
        summon = assert_shown_then_gone(page, "summon")
        assert len(summon["places"]) == 1 and summon["places"][0].startswith("0/monsters/"), summon
        assert page.locator(".card[data-zone=monsters][data-name='Celtic Guardian']:not(.fx)").count() == 1
    # into the Battle Phase; Dark Magician attacks directly: the arrow points at B (B's hand)
    both_pass_until(a, b, "() => window.duelApp.match.legal.some(x => x.do === 'enter_battle_phase')")
    wait_app(a, OWES)
    click_and_wait(a, a.locator(".decision button[data-action=enter_battle_phase]"))
    both_pass_until(a, b, "() => window.duelApp.match.legal.some(x => x.do === 'attack')")
    declare(a, "Dark Magician", None)
    for page in (a, b):
        wait_app(page, "() => !!window.duelApp.match.view.attack")
        page.locator("[data-testid=attack-arrow]").wait_for()
        ends = arrow_ends(page)
        assert ends["to"] == "player-1"
        assert inside(ends["x1"], ends["y1"], page.locator(".card[data-name='Dark Magician']").bounding_box())
        assert inside(ends["x2"], ends["y2"], page.locator(".row.hand[data-seat='1']").bounding_box()), ends
    both_pass_until(a, b, "() => window.duelApp.match.view.players[1].lp === 5500")
    for page in (a, b):
        wait_app(page, "() => window.duelApp.match.view.players[1].lp === 5500")
        lp = assert_shown_then_gone(page, "lp")
        assert lp["texts"] == ["\u22122500"], lp
        assert page.errors == [], page.errors  # type: ignore[attr-defined]
        page.context.close()


def test_a_flip(browser: Browser, live_server: LiveServer) -> None:
    """An attack on a face-down monster turns it face-up: shown on the card, for less than 300 ms."""
    a, b = pages(browser, live_server, position("battle", [{"card": "Mystical Elf", "position": "set"}]))
    for page in (a, b):
        watch(page)
    a.locator(".card.actionable[data-name='Dark Magician']").click()
    click_and_wait(a, a.locator(".card.targetable[data-zone=monsters][data-seat='1']"))
    both_pass_until(a, b, "() => window.duelApp.match.view.players[1].graveyard.length === 1")
    for page in (a, b):
        wait_app(page, "() => window.duelApp.match.view.players[1].graveyard.length === 1")
        flip = assert_shown_then_gone(page, "flip")
        assert flip["places"] == ["1/monsters/0"], flip
        assert "Mystical Elf" in flip["texts"][0], flip
        destroy = assert_shown_then_gone(page, "destroy")
        assert any("Mystical Elf destroyed" in t for t in destroy["texts"]), destroy
        assert page.errors == [], page.errors  # type: ignore[attr-defined]
        page.context.close()


def test_reduced_motion_moves_nothing_and_shows_the_state(browser: Browser, live_server: LiveServer) -> None:
    a, b = pages(browser, live_server, position("battle", [{"card": "Gemini Elf"}]), reduced_motion="reduce")
    for page in (a, b):
        assert page.evaluate("() => matchMedia('(prefers-reduced-motion: reduce)').matches")
        watch(page)
    declare(a, "Dark Magician", "Gemini Elf")
    for page in (a, b):
        page.locator("[data-testid=attack-arrow]").wait_for()  # the attack's arrow: a state, drawn still
        ends = arrow_ends(page)
        assert inside(ends["x2"], ends["y2"], page.locator(".card[data-name='Gemini Elf']").bounding_box())
    both_pass_until(a, b, "() => window.duelApp.match.view.players[1].graveyard.length === 1")
    for page in (a, b):
        wait_app(page, "() => window.duelApp.match.view.players[1].lp === 7400")
        page.wait_for_timeout(400)  # longer than any effect would run
        fx = page.evaluate("() => window.fx")
        assert fx["maxAnimations"] == 0 and not fx["everFx"], fx  # nothing moved
        assert page.locator(".fx").count() == 0
        # what happened is on the board all the same
        assert page.locator("[data-pile='graveyard-1']").inner_text() == "Graveyard (1)"
        assert page.locator("[data-testid=lp-1]").inner_text().startswith("LP 7400")
        assert page.locator("[data-testid=lp-delta-1]").inner_text().strip() == "\u2212600"
        assert page.locator(".card[data-name='Gemini Elf']").count() == 0
        assert page.errors == [], page.errors  # type: ignore[attr-defined]
        page.context.close()


HONEST = Path(__file__).parent / "puzzles" / "honest_duel.yaml"


def test_the_readme_screenshots(browser: Browser, live_server: LiveServer, screenshots: Path) -> None:
    """The board mid-Damage Step (docs/board.png) and a phone-sized board (docs/board-phone.png):
    D.D. Warrior Lady attacks Blue-Eyes White Dragon, Honest chained to Honest."""
    import yaml

    doc = yaml.safe_load(HONEST.read_text("utf-8"))
    doc["start"].update({"phase": "battle", "step": "battle"})
    _, tokens = live_server.call(create_puzzle_match(live_server.server, doc))
    a = open_page(browser, f"{live_server.http}/#/seat/{tokens[0]}")
    b = open_page(browser, f"{live_server.http}/#/seat/{tokens[1]}", PHONE)
    wait_app(a, "() => window.duelApp.match.legal.length > 0")
    declare(a, "D.D. Warrior Lady", "Blue-Eyes White Dragon")
    both_pass_until(a, b, "() => window.duelApp.match.legal.some(x => x.do === 'activate')")
    wait_app(a, OWES)
    a.locator(".card.actionable[data-zone=hand][data-name='Honest']").click()
    click_and_wait(a, a.locator("dialog.dlg[open] .dlg-acts button[data-action=activate]"))
    wait_app(b, "() => window.duelApp.match.legal.some(x => x.do === 'activate')")
    b.locator(".card.actionable[data-zone=hand][data-name='Honest']").click()
    click_and_wait(b, b.locator("dialog.dlg[open] .dlg-acts button[data-action=activate]"))
    for page in (a, b):
        wait_app(page, "() => window.duelApp.match.view.chain.length === 2")
        page.locator("[data-testid=attack-arrow]").wait_for()
        assert "Damage Step" in page.locator("[data-testid=where]").inner_text()
    # A reads B's Honest in the side panel; B's phone shows the field, the arrow and the chain
    a.locator(".card[data-name='D.D. Warrior Lady']").hover()
    a.locator(".side .detail-slot h3", has_text="D.D. Warrior Lady").wait_for()
    b.evaluate(
        "() => window.scrollBy(0, document.querySelector('.half.top .zoneset').getBoundingClientRect().top"
        " - document.querySelector('.phasebar').getBoundingClientRect().bottom - 6)"
    )
    b.wait_for_timeout(300)  # no effect still running
    assert shot(a, screenshots, "board-damage-step-arrow-1280x720").stat().st_size > 10_000
    assert shot(b, screenshots, "board-phone-390x844").stat().st_size > 10_000
    for page in (a, b):
        assert page.errors == [], page.errors  # type: ignore[attr-defined]
        page.context.close()
