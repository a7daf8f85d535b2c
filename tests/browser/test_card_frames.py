"""Cards that look like cards (issue 38): a frame per kind in the usual colours with the name, the
Attribute, the Level stars, the type line and ATK/DEF; Defense Position turned; face-down cards as
card backs; a large card view with the whole text on hover and on a long-press; at a phone's size
the decision never covers the player's LP, and no card name breaks inside a word."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from browser_env import LiveServer
from browser_ui import DESKTOP, PHONE, open_page, shot, wait_app
from playwright.sync_api import Browser, Page

from server import rules
from server.cli.puzzle import create_puzzle_match

DECK = ["Celtic Guardian"] * 5
POSITION: dict[str, Any] = {
    "format": 1,
    "name": "card frames",
    "start": {
        "turn": 3,
        "turn_player": "A",
        "phase": "main1",
        "A": {
            "hand": ["Pot of Greed", "Sakuretsu Armor", "Gemini Elf"],
            "monsters": [
                {"card": "Celtic Guardian"},
                {"card": "D.D. Warrior Lady"},
                {"card": "Dark Blade the Dragon Knight"},
                {"card": "Sheep Token"},
                {"card": "Mystical Elf", "position": "defense"},
            ],
            "spells_traps": [
                {"card": "Card of Safe Return"},
                {"card": "Gravity Bind"},
                {"card": "Sakuretsu Armor", "set": True},
                {"card": "Polymerization", "set": True},
            ],
            "field": {"card": "Skyscraper"},
            "deck": DECK,
        },
        "B": {
            "hand": ["Celtic Guardian"],
            "monsters": [
                {"card": "Gemini Elf", "position": "set"},
                {"card": "Giant Soldier of Stone", "position": "defense"},
            ],
            "spells_traps": [{"card": "Trap Jammer", "set": True}],
            "deck": DECK,
        },
    },
    "steps": [],
}

# the frames' colours (web/static/cards.css), by kind: the usual ones
FRAMES = {
    "Celtic Guardian": ("normal", (240, 207, 106)),  # yellow
    "D.D. Warrior Lady": ("effect", (255, 139, 83)),  # orange
    "Dark Blade the Dragon Knight": ("fusion", (160, 134, 183)),  # violet
    "Sheep Token": ("token", (180, 184, 191)),  # grey
    "Card of Safe Return": ("spell", (29, 158, 116)),  # green
    "Pot of Greed": ("spell", (29, 158, 116)),
    "Gravity Bind": ("trap", (196, 88, 138)),  # magenta
    "Sakuretsu Armor": ("trap", (196, 88, 138)),
    "Skyscraper": ("spell", (29, 158, 116)),
}


def card_data(name: str) -> Any:
    return next(c for c in rules.CARDS.values() if c.name == name)


def rgb(css: str) -> tuple[int, ...]:
    return tuple(int(float(v)) for v in css[css.index("(") + 1 : css.index(")")].split(",")[:3])


def rotation(page: Page, selector: str) -> float:
    """The angle (degrees) of an element's computed transform."""
    m = page.locator(selector).evaluate("el => getComputedStyle(el).transform")
    assert m.startswith("matrix("), m
    a, b = (float(v) for v in m[7:-1].split(",")[:2])
    return math.degrees(math.atan2(b, a))


def start(browser: Browser, live_server: LiveServer, seat: int, viewport: dict[str, int], **context: Any) -> Page:
    _, tokens = live_server.call(create_puzzle_match(live_server.server, POSITION))
    page = open_page(browser, f"{live_server.http}/#/seat/{tokens[seat]}", viewport, **context)
    wait_app(page, "() => !!window.duelApp.match && !!window.duelApp.match.view && window.duelApp.cat.loaded")
    page.locator(".card[data-name='Celtic Guardian'] .cf-art").first.wait_for()
    return page


def test_a_frame_per_kind_with_the_cards_facts(browser: Browser, live_server: LiveServer, screenshots: Path) -> None:
    page = start(browser, live_server, 0, {"width": 1280, "height": 860})
    for name, (frame, colour) in FRAMES.items():
        card = page.locator(f".card[data-seat='0'][data-name='{name}']").first
        assert f"frame-{frame}" in (card.get_attribute("class") or "").split(), name
        assert rgb(card.evaluate("el => getComputedStyle(el).backgroundColor")) == colour, name
    # a monster's face: its name, Attribute, Level stars, Type (in the art box) and ATK/DEF
    for name in ("Celtic Guardian", "D.D. Warrior Lady", "Dark Blade the Dragon Knight"):
        c = card_data(name)
        face = page.locator(f".card[data-zone=monsters][data-name='{name}']")
        assert face.locator(".name").inner_text().replace("\n", " ") == name
        # up to Level 4 the stars; above it one star and the number (eight would be too small to count)
        assert face.locator(".stars").inner_text() == ("★" * c.level if c.level <= 4 else f"★{c.level}")
        assert face.locator(".cf-attr").get_attribute("title") == c.attribute
        art = face.locator(".cf-art").inner_text()
        assert c.attribute in art and c.type in art
        assert face.locator(".cf-stats").inner_text().replace("\n", "").replace(" ", "") in (
            f"{c.atk}/{c.def_}",
            f"ATK/{c.atk}DEF/{c.def_}",
        )
    # a Spell or Trap: its kind in the art box, no ATK/DEF
    assert "Continuous Spell" in page.locator(".card[data-name='Card of Safe Return'] .cf-art").inner_text()
    assert page.locator(".card[data-name='Card of Safe Return'] .cf-stats").count() == 0
    # Defense Position: turned a quarter; Attack Position: not turned
    assert abs(abs(rotation(page, ".card[data-name='Mystical Elf']")) - 90) < 0.5
    assert page.locator(".card[data-name='Celtic Guardian'][data-zone=monsters]").evaluate(
        "el => getComputedStyle(el).transform"
    ) in ("none", "matrix(1, 0, 0, 1, 0, 0)")
    # a face-down card its controller knows: its face, marked Set; the opponent's: a card back
    own_set = page.locator(".card.own-set[data-name='Sakuretsu Armor']")
    assert own_set.count() == 1 and own_set.locator(".tag").inner_text() == "Set"
    backs = page.locator(".card.back[data-seat='1']")
    assert backs.count() == 3  # B's set monster, set Trap and its hand card
    for i in range(backs.count()):
        back = backs.nth(i)
        assert back.get_attribute("data-name") is None and back.inner_text().strip() == ""
        assert "radial-gradient" in back.evaluate("el => getComputedStyle(el).backgroundImage")
    assert abs(abs(rotation(page, ".card.back[data-zone=monsters][data-seat='1']")) - 90) < 0.5
    assert abs(abs(rotation(page, ".card[data-name='Giant Soldier of Stone']")) - 90) < 0.5
    shot(page, screenshots, "card-frames-1280x860")
    assert page.errors == [], page.errors  # type: ignore[attr-defined]
    page.context.close()


def test_the_large_view_on_hover(browser: Browser, live_server: LiveServer) -> None:
    c = card_data("D.D. Warrior Lady")
    page = start(browser, live_server, 0, DESKTOP)
    # a wide window: hovering shows the large view in the side panel, with the whole text
    page.locator(".card[data-zone=monsters][data-name='D.D. Warrior Lady']").hover()
    big = page.locator(".side .detail-slot .bigface")
    big.locator("h3", has_text="D.D. Warrior Lady").wait_for()
    assert c.text in big.locator(".text").inner_text()
    assert f"[{c.type} / Effect]" == big.locator(".cf-type").inner_text()
    assert "frame-effect" in (big.get_attribute("class") or "")
    assert page.locator("[data-testid=card-zoom]").is_hidden()  # the side panel shows it already
    # a narrow window (the side panel under the board): the large view over the board, by the card
    page.set_viewport_size({"width": 900, "height": 700})
    page.mouse.move(5, 5)
    card = page.locator(".card[data-zone=spells_traps][data-name='Gravity Bind']")
    card.hover()
    zoom = page.locator("[data-testid=card-zoom]")
    zoom.locator("h3", has_text="Gravity Bind").wait_for()
    assert card_data("Gravity Bind").text in zoom.inner_text()
    assert not overlap(zoom.bounding_box(), card.bounding_box())  # the card stays visible
    page.mouse.move(5, 5)
    zoom.wait_for(state="hidden")
    assert page.errors == [], page.errors  # type: ignore[attr-defined]
    page.context.close()


def overlap(a: Any, b: Any) -> bool:
    return bool(
        a["x"] < b["x"] + b["width"]
        and b["x"] < a["x"] + a["width"]
        and a["y"] < b["y"] + b["height"]
        and b["y"] < a["y"] + a["height"]
    )


def touch(page: Page, x: float, y: float, hold_ms: int) -> None:
    """A finger on the screen at (x, y) for ``hold_ms`` (Chromium's touch events, as a phone's)."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    page.wait_for_timeout(hold_ms)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


def test_the_large_view_on_a_long_press(browser: Browser, live_server: LiveServer, screenshots: Path) -> None:
    page = start(browser, live_server, 0, PHONE, has_touch=True, is_mobile=True)
    card = page.locator(".card[data-zone=hand][data-name='Pot of Greed']")
    page.evaluate("() => window.scrollTo(0, document.documentElement.scrollHeight)")  # the hand: above the decision
    box = card.bounding_box()
    assert box is not None
    zoom = page.locator("[data-testid=card-zoom]")
    # a tap opens the card's actions, as before
    touch(page, box["x"] + box["width"] / 2, box["y"] + box["height"] / 2, 60)
    page.locator("dialog.dlg[open]").wait_for()
    assert zoom.is_hidden()
    page.keyboard.press("Escape")
    page.locator("dialog.dlg[open]").wait_for(state="detached")
    # touch and hold: the large view, with the whole text; the actions do not open
    box = card.bounding_box()
    assert box is not None
    touch(page, box["x"] + box["width"] / 2, box["y"] + box["height"] / 2, 700)
    zoom.locator("h3", has_text="Pot of Greed").wait_for()
    assert card_data("Pot of Greed").text in zoom.inner_text()
    page.wait_for_timeout(150)
    assert page.locator("dialog.dlg[open]").count() == 0
    zb = zoom.bounding_box()
    assert zb is not None and zb["x"] >= 0 and zb["x"] + zb["width"] <= PHONE["width"]
    shot(page, screenshots, "card-long-press-390x844")
    # a touch elsewhere: it goes
    touch(page, 5, 100, 40)
    zoom.wait_for(state="hidden")
    assert page.errors == [], page.errors  # type: ignore[attr-defined]
    page.context.close()


WORDS_SPLIT = """() => {
  // each word of each card name (each part of a hyphenated one) on one line, and whole: not cut
  // short (an ellipsis), measured along the text (a card in Defense Position is turned a quarter)
  const bad = [];
  let words = 0;
  for (const name of document.querySelectorAll('.card .name')) {
    const walker = document.createTreeWalker(name, NodeFilter.SHOW_TEXT);
    for (let t = walker.nextNode(); t !== null; t = walker.nextNode()) {
      for (const m of t.data.matchAll(/[^\\s-]+-*/g)) {
        words++;
        const range = document.createRange();
        range.setStart(t, m.index);
        range.setEnd(t, m.index + m[0].length);
        const text = range.getBoundingClientRect(), box = t.parentElement.getBoundingClientRect();
        const along = t.parentElement.closest('.card.defense') ? 'height' : 'width';
        const broken = range.getClientRects().length !== 1 || text[along] > box[along] + 0.1;
        if (broken) bad.push(name.textContent + ': ' + m[0]);
      }
    }
  }
  return {bad, words};
}"""


def test_a_phone_keeps_the_lp_in_sight_and_names_whole(
    browser: Browser, live_server: LiveServer, screenshots: Path
) -> None:
    page = start(browser, live_server, 0, PHONE)
    lp = page.locator("[data-testid=lp-0]")
    decision = page.locator(".decision")
    height = PHONE["height"]
    # scrolled to the top, half way and to the end: the LP on screen, never under the decision
    full = int(page.evaluate("() => document.documentElement.scrollHeight"))
    assert full > height  # the board is taller than the phone: it scrolls
    for y in (0, (full - height) // 2, full):
        page.evaluate("y => window.scrollTo(0, y)", y)
        page.wait_for_timeout(50)
        lb, db = lp.bounding_box(), decision.bounding_box()
        assert lb is not None and db is not None
        assert lb["y"] >= 0 and lb["y"] + lb["height"] <= height, (y, lb)
        assert not overlap(lb, db), (y, lb, db)
        # and the LP is what is drawn there (nothing over it)
        at = page.evaluate(
            "([x, y]) => !!document.elementFromPoint(x, y)?.closest('[data-testid=lp-0]')",
            [lb["x"] + 4, lb["y"] + lb["height"] / 2],
        )
        assert at, y
    page.evaluate("() => window.scrollTo(0, 0)")
    # every card name on the board in words that are whole, each on one line
    names = page.locator(".card .name")
    assert names.count() >= 12
    words = page.evaluate(WORDS_SPLIT)
    assert words["bad"] == [] and words["words"] >= 30, words
    sak = page.locator(".card[data-zone=spells_traps][data-name='Sakuretsu Armor'] .name .w").all_inner_texts()
    assert sak == ["Sakuretsu", "Armor"]
    assert page.evaluate("() => document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    shot(page, screenshots, "card-frames-390x844")
    assert page.errors == [], page.errors  # type: ignore[attr-defined]
    page.context.close()
