"""``choose`` on an activation is for the few selections a card's text makes as it is activated
(ruling SEL-1; the cards of the shared list make none: theirs are made as they resolve). The
framework still offers them: ``Effect.choices`` lists the possible picks, non-card values are
strings, and the pick reaches the link as ``link.data["choose"]``. A test-only effect on a vanilla
monster exercises it (its card facts are unchanged)."""

from __future__ import annotations

from typing import Any

import pytest

from engine import by_name, legal_actions
from engine.ctx import Ctx
from engine.effects.base import SCRIPTS, Effect, Script
from engine.state import Card, Link, State
from tests.engine.helpers import act, pass_until, position

CARD = "Celtic Guardian"
SEEN: list[Any] = []


def _choices(s: State, card: Card, seat: int) -> list[list[Any]]:
    return [["DARK"], ["LIGHT"]]


def _resolve(ctx: Ctx, link: Link) -> None:
    SEEN.append(link.data.get("choose"))


def test_choose_at_activation_reaches_the_link(monkeypatch: pytest.MonkeyPatch) -> None:
    eff = Effect(kind="ignition", speed=1, choices=_choices, resolve=_resolve)
    monkeypatch.setitem(SCRIPTS, by_name(CARD).code, Script(effects=(eff,)))
    SEEN.clear()
    s, labels = position(
        {"turn": 3, "turn_player": "A", "phase": "main1", "A": {"monsters": [{"card": CARD, "as": "cg"}]}}
    )
    acts = [a for a in legal_actions(s, 0) if a["do"] == "activate"]
    assert [a["choose"] for a in acts] == [["DARK"], ["LIGHT"]]
    assert all(isinstance(v, str) for a in acts for v in a["choose"])
    s = act(s, 0, {"do": "activate", "card": labels["cg"], "choose": ["LIGHT"]})
    assert s.chain[0].data["choose"] == ["LIGHT"]
    pass_until(s, lambda st: not st.chain)
    assert SEEN == [["LIGHT"]]
