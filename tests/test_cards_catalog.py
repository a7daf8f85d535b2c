"""Issue 4: a card with no scenario is not supported; docs/cards.md is generated, not hand-kept."""

from __future__ import annotations

from pathlib import Path

import yaml

from engine.catalog import cards_doc, supported

ROOT = Path(__file__).resolve().parent.parent
CARD_SCENARIOS = ROOT / "tests" / "scenarios" / "cards"


def _names_in(obj: object) -> set[str]:
    out: set[str] = set()
    if isinstance(obj, dict):
        if isinstance(obj.get("card"), str):
            out.add(obj["card"])
        for v in obj.values():
            out |= _names_in(v)
    elif isinstance(obj, list):
        for v in obj:
            out |= _names_in(v) if not isinstance(v, str) else {v}
    return out


def test_every_supported_card_has_a_card_scenario() -> None:
    used: set[str] = set()
    for path in CARD_SCENARIOS.rglob("*.yaml"):
        doc = yaml.safe_load(path.read_text("utf-8"))
        used |= _names_in(doc.get("start", {}))
    missing = [c.name for c in supported() if c.name not in used]
    assert not missing, f"supported cards with no scenario under tests/scenarios/cards: {missing}"


def test_docs_cards_md_is_generated() -> None:
    howto = (ROOT / "docs" / "cards-howto.md").read_text("utf-8")
    current = (ROOT / "docs" / "cards.md").read_text("utf-8")
    assert current == cards_doc(howto), "docs/cards.md is stale: run `.venv/bin/duel cards --write-docs`"


def test_every_seed_card_is_supported() -> None:
    import json

    data = json.loads((ROOT / "engine" / "data" / "cards.json").read_text("utf-8"))
    names = {c.name for c in supported()}
    seed = [c["name"] for c in data["cards"] if c["group"] == "seed"]
    missing = [n for n in seed if n not in names]
    assert not missing, f"seed cards not supported yet: {missing}"
