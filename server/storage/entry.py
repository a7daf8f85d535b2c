"""The stored log entry: what one Redis stream entry of a match holds.

An entry records one accepted action (or the match's genesis, seq 1):

==========  ==============================================================
field       meaning
==========  ==============================================================
``seq``     1-based sequence number; the stream ID is ``<seq>-0``
``seat``    the acting seat, ``""`` for the server (genesis, timeouts)
``action``  msgpack: the action as sent (genesis: ``{"do": "start", ...}``)
``facts``   msgpack: the facts ``decide`` produced (never redacted here), as their wire
            maps ``{"t": ..., key: value}`` (``engine.facts.to_wire``)
``hash``    ``engine.state_hash`` of the state after the facts
``sv``      entry schema version (:data:`ENTRY_SCHEMA_VERSION`)
``ms``      milliseconds the acting seat spent on the decision
``cid``     the client action id, ``""`` if none
``ts``      server wall clock in ms (informational; never folded)
==========  ==============================================================
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field
from typing import Any

import msgpack

from protocol.codec import pack
from protocol.messages import message
from server.rules import Fact, facts_of, wire_facts

PLAYERS_KEY = "players"
"""The genesis action's record of the players' display names (matches started since replay format 2)."""
FORMAT_KEY = "format"
"""The genesis action's record of the match's format (docs/formats.md), when it is not ``current``:
a log without it was played under ``current``, as every log made before formats existed."""


def genesis_format(action: dict[str, Any]) -> str:
    """The format a genesis entry's action names: ``format`` of a match, ``duel_format`` of a
    served scenario; ``current`` when it names none."""
    if action.get("do") == "scenario":
        doc = action.get("scenario")
        return str(doc.get("duel_format") or "current") if isinstance(doc, dict) else "current"
    return str(action.get(FORMAT_KEY) or "current")


EXTRA_KEY = "extra"
"""The genesis action's record of each seat's Extra Deck, when a seat has one (``decks`` then holds
the Main Decks alone)."""

FIRST_KEY = "first"
"""The genesis action's record of the seat that goes first, when it is not seat 0 (the duels of a
match of several: the first by a coin toss from its seed, the others by the loser's choice)."""

MATCH_KEY = "match"
"""The genesis action's record of the match a duel belongs to, for a match of several duels:
``{"id": the match's id, "duel": its number, "best_of": N}`` (informational; never folded)."""


def first_of(action: dict[str, Any]) -> int:
    """The seat a genesis action makes go first (0 when it names none)."""
    first = action.get(FIRST_KEY, 0)
    return first if first in (0, 1) and not isinstance(first, bool) else 0


ENTRY_SCHEMA_VERSION = 1

Fields = dict[str, bytes | str | int]


@message  # immutable by contract (mypy), plain at run time: one per action and per entry read
class LogEntry:
    seq: int
    seat: int | None
    action: dict[str, Any]
    facts: list[Fact]  # the engine's fact objects; the stream holds their wire maps
    state_hash: str
    time_ms: int = 0
    client_action_id: str = ""
    ts_ms: int = 0
    sv: int = field(default=ENTRY_SCHEMA_VERSION)

    def to_fields(self) -> Fields:
        """The stream fields (order kept; values as Redis stores them)."""
        return {
            "seq": self.seq,
            "seat": "" if self.seat is None else self.seat,
            "action": pack(self.action),
            "facts": pack(wire_facts(self.facts)),
            "hash": self.state_hash,
            "sv": self.sv,
            "ms": self.time_ms,
            "cid": self.client_action_id,
            "ts": self.ts_ms,
        }

    @classmethod
    def from_fields(cls, raw: Mapping[Any, Any] | None) -> LogEntry:
        """Read an entry back from the stream fields Redis returns."""
        if not raw:
            raise ValueError("empty stream entry")
        fields = {(k.decode() if isinstance(k, bytes) else str(k)): v for k, v in raw.items()}

        def text(key: str) -> str:
            value = fields.get(key, b"")
            return value.decode() if isinstance(value, bytes) else str(value)

        def blob(key: str) -> Any:
            return msgpack.unpackb(fields[key], raw=False, strict_map_key=False)

        seat = text("seat")
        sv = int(text("sv") or 0)
        if sv > ENTRY_SCHEMA_VERSION:
            raise ValueError(f"entry schema version {sv} is newer than this code ({ENTRY_SCHEMA_VERSION})")
        return cls(
            seq=int(text("seq")),
            seat=None if seat == "" else int(seat),
            action=blob("action"),
            facts=facts_of(blob("facts")),
            state_hash=text("hash"),
            time_ms=int(text("ms") or 0),
            client_action_id=text("cid"),
            ts_ms=int(text("ts") or 0),
            sv=sv,
        )

    def public(self) -> dict[str, Any]:
        """The full entry as a plain map (for finished-match replays)."""
        return {
            "seq": self.seq,
            "actor": self.seat,
            "action": self.action,
            "facts": wire_facts(self.facts),
            "state_hash": self.state_hash,
            "time_ms": self.time_ms,
        }
