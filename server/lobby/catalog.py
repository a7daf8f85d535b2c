"""The card catalogue a client can ask for (``get_cards``): every card's facts and text (and the
text each format plays where it differs), the demo decks of every format (whether the engine
plays every card of each), and the formats (with their card pools and Forbidden/Limited lists,
so that a deck editor checks a deck as the server will), with a version that changes whenever
any of it does (clients cache by it)."""

from __future__ import annotations

import hashlib
from functools import cache
from typing import Any

from protocol.codec import pack
from protocol.messages import Cards
from server import rules


def card_entry(c: rules.CardData, playable: bool) -> dict[str, Any]:
    entry: dict[str, Any] = {
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
    texts = {f.name: t for f in rules.FORMATS.values() if (t := rules.card_text(c, f)) != c.text}
    if texts:
        entry["texts"] = texts  # the text a format plays where it is not ``text`` (Goat-era wordings)
    return entry


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


def format_names() -> list[str]:
    """The formats a match may name, the default first (``welcome.formats``)."""
    return [rules.DEFAULT_FORMAT, *(name for name in rules.FORMATS if name != rules.DEFAULT_FORMAT)]


def format_entry(f: rules.Format, playable: set[int]) -> dict[str, Any]:
    r, d = f.rules, f.deck
    return {
        "name": f.name,
        "title": f.title,
        "description": f.description,
        "rules": {
            "first_player_draws": r.first_player_draws,
            "one_field_spell": r.one_field_spell,
            "effect_position_change_counts": r.effect_position_change_counts,
            "ignition_priority": r.ignition_priority,
        },
        "deck": {
            "main": [d.main_min, d.main_max],
            "extra_max": d.extra_max,
            "extra_name": d.extra_name,
            "side_max": d.side_max,
            "side_full_or_empty": d.side_full_or_empty,
            "side_extra": d.side_extra,
        },
        "best_of": f.best_of,
        "pool": len(f.pool),
        "supported": sum(1 for c in f.pool if c in playable),
        # what a deck editor needs to check a deck as the server will (engine.deckcheck)
        "cards": sorted(f.pool),
        "copies": d.copies,
        "list": f.banlist.title,
        "limits": [[code, n] for code, n in sorted(f.banlist.limits.items()) if code in rules.CARDS],
        "aliases": [[alt, code] for alt, code in sorted(f.banlist.aliases.items())],
    }


@cache
def catalogue() -> Cards:
    """The ``cards`` message (built once per process)."""
    playable = {c.code for c in rules.supported()}
    cards = [card_entry(c, c.code in playable) for c in sorted(rules.CARDS.values(), key=lambda c: c.name)]
    ok = frozenset(playable)
    decks = [
        {
            "name": d.name,
            "title": d.title,
            "description": d.description,
            "cards": d.codes(),
            "format": d.format,
            "playable": d.playable(ok),
        }
        for d in rules.DEMO_DECKS
        if d.public
    ]
    formats = [format_entry(rules.FORMATS[name], playable) for name in format_names()]
    version = hashlib.sha256(pack({"cards": cards, "decks": decks, "formats": formats})).hexdigest()[:16]
    return Cards(version=version, cards=cards, decks=decks, formats=formats)


def by_code() -> dict[int, dict[str, Any]]:
    return {int(c["code"]): c for c in catalogue().cards}
