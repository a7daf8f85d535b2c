"""Display names: what a player may be called, and how a name read back is shown.

A name another player sees must show as what it is: it is normalised to Unicode NFC (the
same name typed two ways is one name) and may not hold characters that are invisible or
that change how the text around them is laid out: controls (Cc: NUL, newline, ESC ...),
format characters (Cf: the bidi overrides and isolates such as U+202E, zero-width space
and joiners such as U+200B and U+200D, the soft hyphen ...), the line and paragraph
separators (Zl U+2028, Zp U+2029), private-use characters (Co), surrogates (Cs) and code
points not assigned in this Python's Unicode database (Cn). Letters of every script, marks,
digits, punctuation, symbols (emoji) and spaces are fine.

``display_name`` is the check of a name a client sends (``create_match``, ``join``,
``quick_match``, ``hello.client``: the codec refuses such a message with
``message/bad_field``) or a user types (``duel play --name``, ``duel bot --name``);
``shown`` is for a name read back from storage (Redis, a replay file) that older code or
another tool may have written: the same normalisation, each refused character replaced.
"""

from __future__ import annotations

import unicodedata
from typing import Final

NAME_MAX: Final = 32
"""Longest display name, in characters (after normalisation)."""

REFUSED: Final = {
    "Cc": "a control character",
    "Cf": "a format character (bidi control, zero-width character ...)",
    "Zl": "a line separator",
    "Zp": "a paragraph separator",
    "Co": "a private-use character",
    "Cs": "a surrogate",
    "Cn": "an unassigned code point",
}
"""The Unicode general categories a display name may not contain, and what each is."""

REPLACEMENT: Final = "\ufffd"


class BadName(ValueError):
    """The name holds a character it may not (the message names it)."""


def display_name(text: str) -> str:
    """``text`` in NFC, or BadName naming its first refused character."""
    name = unicodedata.normalize("NFC", text)
    if name.isascii() and name.isprintable():
        return name  # the usual name: nothing to look up per character
    for ch in name:
        what = REFUSED.get(unicodedata.category(ch))
        if what is not None:
            label = unicodedata.name(ch, "")
            raise BadName(f"must not contain U+{ord(ch):04X}{' ' + label if label else ''} ({what})")
    return name


def shown(text: str) -> str:
    """A stored name as it may be shown: NFC, each refused character replaced by U+FFFD, at most
    ``NAME_MAX`` characters."""
    name = unicodedata.normalize("NFC", text)
    if not (name.isascii() and name.isprintable()):
        name = "".join(REPLACEMENT if unicodedata.category(ch) in REFUSED else ch for ch in name)
    return name[:NAME_MAX]
