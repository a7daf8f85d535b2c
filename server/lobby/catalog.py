"""The card catalogue a client can ask for (``get_cards``): every card's facts and text, and
the demo decks, with a version that changes whenever any of it does (clients cache by it)."""

from __future__ import annotations

import hashlib
from functools import cache
from typing import Any

from protocol.codec import pack
from protocol.messages import Cards
from server import rules


def card_entry(c: rules.CardData, playable: bool) -> dict[str, Any]:
    return {
        "code": c.code,
        "name": c.name,
        "kind": c.kind,
        "prop": c.prop,
        "monster_kinds": list(c.monster_kinds),
        "attribute": c.attribute,
        "type": c.type,
        "level": c.level,
        "atk": c.atk,
        "def": c.def_,
        "text": c.text,
        "supported": playable,
        "effects": effect_labels(c.code),
    }


def effect_labels(code: int) -> list[str]:
    """A short label per activatable or trigger effect of the card, in effect order (effect 1
    first): what a client shows for ``activate`` with ``effect: N``."""

    script = rules.SCRIPTS.get(code)
    if script is None:
        return []
    kinds = {
        "spell": "activate",
        "trap": "activate",
        "quick": "quick effect",
        "ignition": "effect",
        "trigger": "trigger effect",
        "flip": "flip effect",
    }
    return [e.label or kinds.get(e.kind, e.kind) for e in script.effects]


@cache
def catalogue() -> Cards:
    """The ``cards`` message (built once per process)."""
    playable = {c.code for c in rules.supported()}
    cards = [card_entry(c, c.code in playable) for c in sorted(rules.CARDS.values(), key=lambda c: c.name)]
    decks = [
        {"name": d.name, "title": d.title, "description": d.description, "cards": d.codes()}
        for d in rules.DEMO_DECKS
        if d.public
    ]
    version = hashlib.sha256(pack({"cards": cards, "decks": decks})).hexdigest()[:16]
    return Cards(version=version, cards=cards, decks=decks)


def by_code() -> dict[int, dict[str, Any]]:
    return {int(c["code"]): c for c in catalogue().cards}
