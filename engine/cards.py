"""Card facts (passcode, name, stats, text) loaded from ``engine/data/cards.json``.

The data is a copy of the project's card list; effects live in
``engine/effects/`` and are looked up by passcode.
"""

from __future__ import annotations

import json
from pathlib import Path

from .card_data import CardData


def _stat(value: object) -> int:
    if isinstance(value, int):
        return value
    return -1


def _load() -> dict[int, CardData]:
    raw = json.loads((Path(__file__).parent / "data" / "cards.json").read_text("utf-8"))
    out: dict[int, CardData] = {}
    for c in raw["cards"]:
        out[int(c["id"])] = CardData(
            code=int(c["id"]),
            name=str(c["name"]),
            kind=str(c["kind"]),
            prop=str(c.get("property", "")),
            monster_kinds=tuple(c.get("monster_kinds", ())),
            attribute=str(c.get("attribute", "")),
            type=str(c.get("type", "")),
            level=int(c.get("level", 0) or 0),
            atk=_stat(c.get("atk", 0)),
            def_=_stat(c.get("def", 0)),
            text=str(c.get("text", "")),
            group=str(c.get("group", "")),
            text_goat=str(c.get("text_goat", "")),
        )
    return out


CARDS: dict[int, CardData] = _load()
CARDS_BY_NAME: dict[str, CardData] = {c.name: c for c in CARDS.values()}


def by_name(name: str) -> CardData:
    try:
        return CARDS_BY_NAME[name]
    except KeyError:
        raise KeyError(f"unknown card name: {name!r}") from None


def card_names() -> list[str]:
    """Every card name the engine knows, sorted (a text that declares a card name: Prohibition)."""
    return sorted(CARDS_BY_NAME)
