from __future__ import annotations

from engine.facts import LifePoints, Moved
from protocol.codec import pack
from server.storage.entry import ENTRY_SCHEMA_VERSION, LogEntry


def test_entry_round_trip_through_stream_fields() -> None:
    entry = LogEntry(
        seq=3,
        seat=1,
        action={"do": "attack", "with": 4, "direct": True},
        facts=[LifePoints(seat=0, lp=6200, delta=-1800, reason="battle"), Moved(card=7, to="hand", from_="deck")],
        state_hash="ff00",
        time_ms=1234,
        client_action_id="c9",
        ts_ms=99,
    )
    fields = entry.to_fields()
    # the stream holds the facts' wire maps, keys in the engine's order (PROTOCOL.md)
    assert fields["facts"] == pack(
        [
            {"t": "lp", "seat": 0, "lp": 6200, "delta": -1800, "reason": "battle"},
            {"t": "moved", "card": 7, "to": "hand", "from": "deck"},
        ]
    )
    stored = {k.encode(): (v if isinstance(v, bytes) else str(v).encode()) for k, v in fields.items()}
    assert LogEntry.from_fields(stored) == entry
    assert entry.public()["facts"][1] == {"t": "moved", "card": 7, "to": "hand", "from": "deck"}
    assert entry.sv == ENTRY_SCHEMA_VERSION


def test_server_entry_has_no_seat() -> None:
    entry = LogEntry(seq=1, seat=None, action={"do": "start"}, facts=[], state_hash="x")
    stored = {k.encode(): (v if isinstance(v, bytes) else str(v).encode()) for k, v in entry.to_fields().items()}
    assert LogEntry.from_fields(stored).seat is None
