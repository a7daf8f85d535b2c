"""The codec: round trips, limits, and one documented error for every bad input."""

from __future__ import annotations

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from protocol import (
    MAX_CLIENT_FRAME,
    Accepted,
    Act,
    CreateMatch,
    Error,
    Hello,
    Join,
    ProtocolError,
    Reconnect,
    Rejected,
    Spectate,
    Update,
    decode_client,
    decode_server,
    encode,
)
from protocol import errors as E
from protocol.messages import CLIENT_TYPES, SERVER_TYPES


def code_of(data: bytes) -> str:
    with pytest.raises(ProtocolError) as info:
        decode_client(data)
    return info.value.code


CLIENT_SAMPLES = [
    Hello(versions=[1], client="test"),
    CreateMatch(),
    CreateMatch(deck=[89631139] * 3, spectators=False),
    Join(match_id="abc_DEF-1"),
    Spectate(match_id="m1", last_seq=4),
    Reconnect(token="v1.m1.0.sig", last_seq=7),
    Act(client_action_id="c-1", expected_seq=12, action={"do": "attack", "with": 3, "target": 9}),
]


@pytest.mark.parametrize("msg", CLIENT_SAMPLES, ids=lambda m: m.type)
def test_client_messages_round_trip(msg: object) -> None:
    assert decode_client(encode(msg)) == msg  # type: ignore[arg-type]


def test_server_messages_round_trip() -> None:
    samples = [
        Accepted(client_action_id="c", seq=3),
        Rejected(client_action_id="c", code=E.ACTION_STALE, reason="behind", seq=9),
        Error(code=E.FRAME_MALFORMED, reason="x"),
        Update(
            match_id="m",
            seq=2,
            actor=None,
            facts=[{"t": "drew", "seat": 0}],
            state_hash="ab",
            view={"lp": [8000, 8000]},
            pending={"seat": 0},
            legal=[{"do": "pass"}],
        ),
    ]
    for msg in samples:
        assert decode_server(encode(msg)) == msg


def test_type_tags_are_unique_and_disjoint() -> None:
    assert not set(CLIENT_TYPES) & set(SERVER_TYPES)


def test_wire_map_puts_type_first() -> None:
    raw = msgpack.unpackb(encode(Hello(versions=[1])))
    assert next(iter(raw)) == "type"


def test_oversized_frame() -> None:
    big = msgpack.packb({"type": "hello", "versions": [1], "client": "x" * MAX_CLIENT_FRAME})
    assert code_of(big) == E.FRAME_TOO_LARGE


@pytest.mark.parametrize(
    "data",
    [
        b"",
        b"\xc1",  # never used byte
        b"\x81",  # truncated map
        msgpack.packb([1, 2]),  # not a map
        msgpack.packb({"type": "hello", "versions": [1]}) + b"\x00",  # trailing data
        msgpack.packb({1: "x"}),  # non-string key
        msgpack.packb({"type": b"hello"}, use_bin_type=True),  # binary
        msgpack.packb(msgpack.ExtType(1, b"x")),  # ext type
        b"\x91" * 2000 + b"\xc0",  # nested too deep
    ],
)
def test_malformed_frames(data: bytes) -> None:
    assert code_of(data) in {E.FRAME_MALFORMED, E.MESSAGE_UNKNOWN_TYPE}


def test_unknown_type() -> None:
    assert code_of(msgpack.packb({"type": "launch_missiles"})) == E.MESSAGE_UNKNOWN_TYPE
    assert code_of(msgpack.packb({"no_type": 1})) == E.MESSAGE_UNKNOWN_TYPE


@pytest.mark.parametrize(
    "raw",
    [
        {"type": "hello"},  # missing field
        {"type": "hello", "versions": []},  # too few
        {"type": "hello", "versions": ["1"]},  # wrong item type
        {"type": "hello", "versions": [1], "extra": 1},  # unknown field
        {"type": "action", "client_action_id": "", "expected_seq": 1, "action": {"do": "pass"}},
        {"type": "action", "client_action_id": "a", "expected_seq": -1, "action": {"do": "pass"}},
        {"type": "action", "client_action_id": "a", "expected_seq": True, "action": {"do": "pass"}},
        {"type": "action", "client_action_id": "a", "expected_seq": 1, "action": [1]},
        {"type": "action", "client_action_id": "a", "expected_seq": 1, "action": {"a": {"b": {"c": {"d": {"e": 1}}}}}},
        {"type": "join", "match_id": "bad id!"},
        {"type": "join", "match_id": "{slot}"},
        {"type": "join", "match_id": None},
        {"type": "create_match", "deck": "demo"},
        {"type": "create_match", "spectators": 1},
    ],
)
def test_bad_fields(raw: dict[str, object]) -> None:
    assert code_of(msgpack.packb(raw)) == E.MESSAGE_BAD_FIELD


def test_optional_fields_default() -> None:
    assert decode_client(msgpack.packb({"type": "create_match"})) == CreateMatch()
    assert decode_client(msgpack.packb({"type": "create_match", "deck": None})) == CreateMatch()


@settings(max_examples=400, deadline=None)
@given(st.binary(max_size=256))
def test_random_bytes_only_raise_protocol_errors(data: bytes) -> None:
    try:
        decode_client(data)
    except ProtocolError as exc:
        assert exc.code in E.ALL_CODES


_plain = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63), 2**64 - 1) | st.text(max_size=20) | st.floats(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)


@settings(max_examples=400, deadline=None)
@given(
    st.dictionaries(
        st.sampled_from(
            [
                "type",
                "versions",
                "client",
                "action",
                "expected_seq",
                "client_action_id",
                "match_id",
                "deck",
                "token",
                "last_seq",
            ]
        ),
        _plain,
        max_size=5,
    ),
    st.sampled_from(sorted(CLIENT_TYPES)),
)
def test_random_maps_only_raise_protocol_errors(raw: dict[str, object], tag: str) -> None:
    raw = {"type": tag, **{k: v for k, v in raw.items() if k != "type"}}
    try:
        msg = decode_client(msgpack.packb(raw))
    except ProtocolError as exc:
        assert exc.code in E.ALL_CODES
    else:
        assert msg.type == tag


PLAIN = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**63), max_value=2**64 - 1)
    | st.floats(allow_nan=False)
    | st.text()
    | st.binary(),
    lambda inner: (
        st.lists(inner, max_size=6)
        | st.dictionaries(st.text(max_size=8) | st.integers(min_value=-(2**63), max_value=2**63), inner, max_size=6)
    ),
    max_leaves=40,
)


@given(PLAIN)
def test_pack_is_msgpack(obj: object) -> None:
    """``pack`` (msgspec's encoder, kept per thread) gives exactly ``msgpack.packb``'s bytes."""
    from protocol.codec import pack

    assert pack(obj) == msgpack.packb(obj, use_bin_type=True)


def test_pack_refuses_what_it_cannot_pack_and_goes_on() -> None:
    from protocol.codec import pack

    with pytest.raises(TypeError):
        pack({"type": "update", "bad": object()})
    assert pack({"type": "accepted", "seq": 3}) == msgpack.packb({"type": "accepted", "seq": 3})
