"""The data a format is made of, read from ``engine/data/<format>/`` at import (docs/formats.md).

* ``banlist-*.json``: its Forbidden/Limited list (``cards``: passcode, name, limit 0/1/2, and
  ``alternate_art_passcodes``, which count as the same card).
* ``decks/*.ydk``: the format's tournament lists, named ``<archetype>_<event>_<player>.ydk``;
  they are the format's demo decks and, for a format whose pool is its lists (Goat), its pool.

Read in sorted file order, so everything derived from them is the same on every machine. Kept
as Python source by the compiled build (it reads files beside its source, as ``engine.cards``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from .ydk import DeckList, parse_ydk

DATA: Final = Path(__file__).parent / "data"

ACRONYMS: Final = frozenset({"us", "sjc", "ycs", "flc"})
"""Words of an event's name written in capitals (``2005-sjc-los-angeles``: 2005 SJC Los Angeles)."""


@dataclass(frozen=True, slots=True)
class Banlist:
    """A Forbidden/Limited list: the copies allowed of each card it names (0, 1 or 2; 3 for any
    other card), counted over the Main, Extra and Side Deck together."""

    title: str
    limits: dict[int, int]
    aliases: dict[int, int]  # an alternate-art passcode -> the card's passcode


@dataclass(frozen=True, slots=True)
class TournamentList:
    """One of a format's tournament deck lists."""

    key: str  # e.g. "goat-control-flc22"
    title: str  # e.g. "Goat Control (FLC22)"
    description: str  # the list's first comment line (what it is, who registered it)
    cards: DeckList
    source: str  # the file, relative to engine/data


NO_BANLIST: Final = Banlist("no Forbidden/Limited list", {}, {})


def load_banlist(path: Path) -> Banlist:
    raw = json.loads(path.read_text("utf-8"))
    limits: dict[int, int] = {}
    aliases: dict[int, int] = {}
    for c in raw["cards"]:
        code = int(c["passcode"])
        limits[code] = int(c["limit"])
        for alt in c.get("alternate_art_passcodes", ()):
            aliases[int(alt)] = code
    return Banlist(str(raw.get("list", path.stem)), limits, aliases)


def _event_title(slug: str) -> str:
    words = []
    for w in slug.split("-"):
        if w in ACRONYMS or (w[:3] in ACRONYMS and w[3:].isdigit()):
            words.append(w.upper())
        else:
            words.append(w.capitalize())
    return " ".join(words)


def list_names(stem: str) -> tuple[str, str]:
    """The key and title of a list from its file name ``<archetype>_<event>_<player>``:
    ``goat-control_flc22_erkator`` -> ("goat-control-flc22", "Goat Control (FLC22)")."""
    archetype, event = stem.split("_")[:2]
    title = " ".join(w.capitalize() for w in archetype.split("-"))
    return f"{archetype}-{event}", f"{title} ({_event_title(event)})"


def _description(text: str) -> str:
    for line in text.splitlines():
        if line.startswith("#created by "):
            return line[len("#created by ") :].strip()
    return ""


def load_lists(folder: Path) -> tuple[TournamentList, ...]:
    """The ``.ydk`` lists of a folder, in file-name order."""
    out: list[TournamentList] = []
    for path in sorted(folder.glob("*.ydk")):
        text = path.read_text("utf-8")
        key, title = list_names(path.stem)
        out.append(TournamentList(key, title, _description(text), parse_ydk(text), path.relative_to(DATA).as_posix()))
    return tuple(out)


GOAT_BANLIST: Final = load_banlist(DATA / "goat" / "banlist-2005-04.json")
GOAT_LISTS: Final = load_lists(DATA / "goat" / "decks")
