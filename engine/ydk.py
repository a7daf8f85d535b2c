"""Deck lists as players write them: ``.ydk`` files and ``ydke://`` addresses (docs/formats.md).

A ``.ydk`` file is lines of text: ``#main``, ``#extra`` and ``!side`` start the Main, Extra
(Fusion) and Side Deck sections; every other line starting with ``#`` is a comment (``#created
by ...``); a card is its passcode on a line of its own; blank lines are ignored. Cards before any
section header belong to the Main Deck (as ygopro reads them). A ``ydke://`` address is the same
three lists, each the base64 of its passcodes as little-endian 32-bit numbers, ended by ``!``.

The sizes are checked before any other work (``MAX_BYTES``, ``MAX_LINES``, ``MAX_LINE``), so
that a hostile list costs nothing; every problem found is reported, each naming its line.
Whether the cards exist, fit a format and its limits is ``engine.deckcheck``'s business.
"""

from __future__ import annotations

import base64
import binascii
import struct
from dataclasses import dataclass
from typing import Final

MAX_BYTES: Final = 32 * 1024
"""The longest deck list read (a 60/15/15 list with its comments is a few KiB)."""
MAX_LINES: Final = 300
"""The most lines a ``.ydk`` file may have."""
MAX_LINE: Final = 1000
"""The longest line (a comment: the lists of engine/data have lines of 260 characters)."""
MAX_PASSCODE: Final = 2**32 - 1

SECTIONS: Final = {"#main": "main", "#extra": "extra", "!side": "side"}


class DeckListError(ValueError):
    """The text is not a deck list; ``problems`` says why, one line each."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = problems


@dataclass(frozen=True, slots=True)
class DeckList:
    """A deck list: passcodes in the order written (copies repeated)."""

    main: tuple[int, ...] = ()
    extra: tuple[int, ...] = ()
    side: tuple[int, ...] = ()

    def all(self) -> tuple[int, ...]:
        """Every card of the list: Main, Extra and Side Deck."""
        return self.main + self.extra + self.side

    def to_ydk(self, comment: str = "") -> str:
        """The list as a ``.ydk`` file."""
        lines = [f"#{line}" for line in comment.splitlines()] if comment else []
        lines.append("#main")
        lines += [str(c) for c in self.main]
        lines.append("#extra")
        lines += [str(c) for c in self.extra]
        lines.append("!side")
        lines += [str(c) for c in self.side]
        return "\n".join(lines) + "\n"


def _size_problem(text: str) -> str | None:
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_BYTES:
        return f"the list has {size} bytes; at most {MAX_BYTES} are read"
    return None


def parse_ydk(text: str) -> DeckList:
    """The deck list a ``.ydk`` file's text writes; :class:`DeckListError` lists every problem."""
    if (too_big := _size_problem(text)) is not None:
        raise DeckListError([too_big])
    lines = text.splitlines()
    if len(lines) > MAX_LINES:
        raise DeckListError([f"the list has {len(lines)} lines; at most {MAX_LINES} are read"])
    long = [n for n, line in enumerate(lines, start=1) if len(line) > MAX_LINE]
    if long:
        raise DeckListError([f"line {n}: longer than {MAX_LINE} characters" for n in long[:5]])
    out: dict[str, list[int]] = {"main": [], "extra": [], "side": []}
    section = "main"
    problems: list[str] = []
    for n, raw in enumerate(lines, start=1):
        line = raw.strip().lstrip("\ufeff")
        if not line:
            continue
        head = line.split()[0].lower()
        if head in SECTIONS:
            section = SECTIONS[head]
            continue
        if line.startswith(("#", "!")):
            continue  # a comment (``#created by ...``)
        if not line.isdigit() or not line.isascii():
            problems.append(f"line {n}: {line[:40]!r} is not a passcode (a card is its passcode on a line)")
            continue
        code = int(line)
        if not 0 < code <= MAX_PASSCODE:
            problems.append(f"line {n}: {line[:40]} is not a passcode")
            continue
        out[section].append(code)
    if problems:
        raise DeckListError(problems)
    return DeckList(tuple(out["main"]), tuple(out["extra"]), tuple(out["side"]))


YDKE: Final = "ydke://"


def parse_ydke(text: str) -> DeckList:
    """The deck list a ``ydke://`` address writes; :class:`DeckListError` says why not."""
    text = text.strip()
    if (too_big := _size_problem(text)) is not None:
        raise DeckListError([too_big])
    if not text.startswith(YDKE):
        raise DeckListError([f"a ydke address starts with {YDKE}"])
    parts = text[len(YDKE) :].split("!")
    if len(parts) != 4 or parts[3] != "":
        raise DeckListError(["a ydke address is three lists (Main, Extra, Side), each ended by '!'"])
    lists: list[tuple[int, ...]] = []
    for name, part in zip(("Main", "Extra", "Side"), parts[:3], strict=True):
        try:
            raw = base64.b64decode(part, validate=True)
        except (binascii.Error, ValueError):
            raise DeckListError([f"the {name} Deck of the ydke address is not base64"]) from None
        if len(raw) % 4:
            raise DeckListError([f"the {name} Deck of the ydke address is not a list of 4-byte passcodes"])
        codes = tuple(c for (c,) in struct.iter_unpack("<I", raw))
        if any(c == 0 for c in codes):
            raise DeckListError([f"the {name} Deck of the ydke address holds passcode 0"])
        lists.append(codes)
    return DeckList(*lists)


def parse_deck_list(text: str) -> DeckList:
    """A ``ydke://`` address or a ``.ydk`` file's text."""
    if text.lstrip().startswith(YDKE):
        return parse_ydke(text)
    return parse_ydk(text)
