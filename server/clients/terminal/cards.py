"""The card catalogue as the server sends it (``get_cards``): names, facts, text, demo decks."""

from __future__ import annotations

import textwrap
from dataclasses import dataclass, field
from typing import Any

from protocol.messages import Cards

PROPS = {
    "quick-play": "Quick-Play",
    "continuous": "Continuous",
    "counter": "Counter",
    "field": "Field",
    "equip": "Equip",
    "ritual": "Ritual",
}


@dataclass
class Catalogue:
    version: str = ""
    cards: dict[int, dict[str, Any]] = field(default_factory=dict)
    decks: list[dict[str, Any]] = field(default_factory=list)
    formats: list[dict[str, Any]] = field(default_factory=list)
    format: str = "current"
    """The format of the duel shown: a card's text is the one it plays (``texts``)."""

    @classmethod
    def of(cls, msg: Cards) -> Catalogue:
        return cls(msg.version, {int(c["code"]): c for c in msg.cards}, list(msg.decks), list(msg.formats))

    def get(self, code: object) -> dict[str, Any] | None:
        return self.cards.get(code) if isinstance(code, int) else None

    def name(self, code: object) -> str | None:
        c = self.get(code)
        return None if c is None else str(c["name"])

    def effect_labels(self, code: object) -> list[str]:
        """The short name of each of a card's effects ("gain ATK"), effect 1 first, as the
        server's catalogue gives them (none for a card it does not list)."""
        c = self.get(code)
        return [] if c is None else [str(x) for x in c.get("effects") or []]

    # ------------------------------------------------------------------ decks

    def deck_names(self) -> list[str]:
        return [str(d["name"]) for d in self.decks]

    def deck(self, name: str) -> list[int] | None:
        d = self.deck_entry(name)
        return None if d is None else [int(x) for x in d["cards"]]

    def deck_entry(self, name: str) -> dict[str, Any] | None:
        """The demo deck called ``name`` (any case): name, title, cards, format, playable."""
        for d in self.decks:
            if str(d["name"]).lower() == name.lower():
                return d
        return None

    def deck_list_words(self) -> str:
        """ "battle-step, end-step, goat-control-flc22 (goat, not playable yet)"."""
        out = []
        for d in self.decks:
            fmt = str(d.get("format", "current"))
            notes = [] if fmt == "current" else [fmt]
            if not d.get("playable", True):
                notes.append("not playable yet")
            out.append(str(d["name"]) + (f" ({', '.join(notes)})" if notes else ""))
        return ", ".join(out)

    def format_names(self) -> list[str]:
        return [str(f["name"]) for f in self.formats] or ["current"]

    # ------------------------------------------------------------------ lookup

    def find(self, words: str) -> list[dict[str, Any]]:
        """Cards whose name is ``words`` (any case), else starts with it, else contains it."""
        want = " ".join(words.lower().split())
        if not want:
            return []
        named = sorted(self.cards.values(), key=lambda c: str(c["name"]))
        for test in (
            lambda n: n == want,
            lambda n: n.startswith(want),
            lambda n: want in n,
            lambda n: all(w in n for w in want.split()),
        ):
            found = [c for c in named if test(str(c["name"]).lower())]
            if found:
                return found
        return []

    # ------------------------------------------------------------------ words

    def kind_words(self, code: object) -> str:
        """ "Quick-Play Spell", "Counter Trap", "Effect Monster"."""
        c = self.get(code)
        if c is None:
            return ""
        kind = str(c.get("kind"))
        if kind in ("spell", "trap"):
            prop = PROPS.get(str(c.get("prop")), "Normal")
            return f"{prop} {kind.title()}"
        kinds = [str(k).title() for k in c.get("monster_kinds", []) if k != "normal"] or ["Normal"]
        return " ".join(kinds) + " Monster"

    def level_words(self, code: object) -> str:
        c = self.get(code)
        if c is None or c.get("kind") != "monster" or not c.get("level"):
            return ""
        rank = "xyz" in c.get("monster_kinds", [])
        return f"{'Rank' if rank else 'Lv'}{c['level']}"

    def facts(self, code: object) -> str:
        """One line: "Effect Monster, LIGHT Fairy, Level 4, ATK 1100 / DEF 1900"."""
        c = self.get(code)
        if c is None:
            return ""
        parts = [self.kind_words(code)]
        if c.get("kind") == "monster":
            parts.append(f"{c.get('attribute', '')} {c.get('type', '')}".strip())
            level = self.level_words(code).replace("Lv", "Level ").replace("Rank", "Rank ")
            if level:
                parts.append(level)
            parts.append(f"ATK {_stat(c.get('atk'))} / DEF {_stat(c.get('def'))}")
        if not c.get("supported", True):
            parts.append("not playable on this server")
        return ", ".join(p for p in parts if p)

    def text_lines(self, code: object, width: int = 78) -> list[str]:
        """The card: its name, its facts, and its text, wrapped."""
        c = self.get(code)
        if c is None:
            return [f"no card with the passcode {code}"]
        lines = [f"{c['name']} ({self.facts(code)})"]
        text = str((c.get("texts") or {}).get(self.format) or c.get("text") or "").strip()
        for para in text.splitlines() or [""]:
            lines.extend(textwrap.wrap(para, width, initial_indent="  ", subsequent_indent="  ") or ["  "])
        return lines


def _stat(v: Any) -> str:
    return "?" if v is None or (isinstance(v, int) and v < 0) else str(v)
