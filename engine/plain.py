"""``plain_value``: an enum member's plain value, anything else as it is.

What facts on the wire, views and ``state_hash`` hold: msgpack packs a str subclass (the
engine's ``StrEnum`` members) about ten times slower than a str, into the same bytes (a view's
16 µs were 9 with plain strs). Its own module so that the engine's compiled build
(docs/adr/0008) compiles it: views call it for every card they render, and from
``engine.facts`` (which stays Python) each call went through the interpreter.
"""

from __future__ import annotations

from enum import Enum
from typing import Any


def plain_value(v: Any) -> Any:
    """An enum member's value (a plain str for the engine's StrEnums), anything else as it is."""
    return v._value_ if isinstance(v, Enum) else v
