"""Card facts (passcode, name, stats, text) loaded from ``engine/data/cards.json``.

The data is a copy of the project's card list; effects live in
``engine/effects/`` and are looked up by passcode.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

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
        )
    return out


CARDS: dict[int, CardData] = _load()
CARDS_BY_NAME: dict[str, CardData] = {c.name: c for c in CARDS.values()}


def by_name(name: str) -> CardData:
    try:
        return CARDS_BY_NAME[name]
    except KeyError:
        raise KeyError(f"unknown card name: {name!r}") from None


_CODES: dict[int, int] = {code: code for code in CARDS}
_SMALL: tuple[int, ...] = tuple(range(1 << 13))


def shared_code(code: int) -> Any:
    """The one int object of a known passcode (each of a held duel's 80 cards, and the alias
    books that follow them, would otherwise hold its own 32-byte copy from the log).

    Typed ``Any`` on purpose, like :func:`shared_int`: compiled code (docs/adr/0008)
    keeps an ``int`` unboxed and boxes it again, into a new object, wherever it stores it; an
    ``Any`` value stored as it is stays this one object."""
    return _CODES.get(code, code)


def shared_int(i: int) -> Any:
    """The one int object of a card id (ids count from the same bases in every duel: below
    4,096) or of a printed ATK/DEF (below 8,192), or ``i`` itself. Compiled code that keeps
    such ints in structures held for a duel's life (the alias book, the cards of a state, the
    renderings kept on cards) stores this instead of boxing each anew: 290 boxed ints, ~11 KiB
    per held duel, before."""
    return _SMALL[i] if 0 <= i < 8192 else i
