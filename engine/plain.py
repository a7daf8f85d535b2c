"""``plain_value``: an enum member's plain value, anything else as it is.

What facts on the wire, views and ``state_hash`` hold: msgpack packs a str subclass (the
engine's ``StrEnum`` members) about ten times slower than a str, into the same bytes (a view's
16 µs were 9 with plain strs). Its own module so that the engine's compiled build
(docs/adr/0008) compiles it: views call it for every card they render, and from
``engine.facts`` (which stays Python) each call went through the interpreter.

The engine's own enums (``engine.types``) are registered here: their members are looked up in
a table. ``isinstance(v, Enum)`` asks the ``EnumType`` metaclass, through the interpreter's
slow path for classes with a metaclass: it was ~1,000 machine instructions a call, 3.8 % of the
engine's work per action (callgrind, 2026-11-25), where the table lookup is a hash already
kept on the str.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import Enum, StrEnum
from typing import Any, Final

_PLAIN: Final[dict[Any, str]] = {}
"""Each registered StrEnum member -> its value (a plain str: the same hash and the same text)."""


def register(enums: Iterable[type[StrEnum]]) -> None:
    """Let ``plain_value`` find the members of ``enums`` in its table."""
    for e in enums:
        for m in e:
            _PLAIN[m] = m._value_


def plain_value(v: Any) -> Any:
    """An enum member's value (a plain str for the engine's StrEnums), anything else as it is."""
    if v is None or type(v) is str:
        return v
    if isinstance(v, str):
        got = _PLAIN.get(v)
        if got is not None:
            return got
    return v._value_ if isinstance(v, Enum) else v
