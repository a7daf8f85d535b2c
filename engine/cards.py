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


def _token(code: int, name: str, attribute: str, level: int, atk: int, def_: int, made_by: str) -> CardData:
    return CardData(
        code=code,
        name=name,
        kind="monster",
        prop="",
        monster_kinds=("token",),
        attribute=attribute,
        type="Beast",
        level=level,
        atk=atk,
        def_=def_,
        text=f'A Token made by "{made_by}".',
        group="token",
    )


TOKENS: tuple[CardData, ...] = (
    # the stats the making cards print ("Sheep Tokens" (Beast-Type/EARTH/Level 1/ATK 0/DEF 0)); the
    # passcodes are the ones the card databases give these Tokens (the making card's + 1)
    _token(73915052, "Sheep Token", "EARTH", 1, 0, 0, "Scapegoat"),
    _token(29843092, "Ojama Token", "LIGHT", 2, 0, 1000, "Ojama Trio"),
)
"""The Tokens the cards of the pool make: card data for the field, never a card of a Deck or of the
supported list (``engine.catalog``)."""

CARDS: dict[int, CardData] = {**_load(), **{t.code: t for t in TOKENS}}
CARDS_BY_NAME: dict[str, CardData] = {c.name: c for c in CARDS.values()}


def by_name(name: str) -> CardData:
    try:
        return CARDS_BY_NAME[name]
    except KeyError:
        raise KeyError(f"unknown card name: {name!r}") from None


def card_names() -> list[str]:
    """Every card name the engine knows, sorted (a text that declares a card name: Prohibition)."""
    return sorted(CARDS_BY_NAME)
