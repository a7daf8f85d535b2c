"""Bad frames for the fuzz tests: hypothesis strategies (the short pass in ``make test``) and a
fast plain generator (``make fuzz``'s million), each frame with the error codes that are a
clear, correct answer to it (PROTOCOL.md section 10).

Kinds of frame:

* ``bytes``: arbitrary bytes (mostly not msgpack; sometimes msgpack of any shape);
* ``not_map``: valid msgpack that is not a map;
* ``no_type``: a map with no string ``type``, or an unknown one;
* ``bad_field``: a known type with an unknown field added (and random other fields);
* ``semantic``: a well-formed message that is wrong where it is sent: an action or sync
  before taking a seat, a join, spectate or replay of a match that does not exist, a
  second hello;
* ``action``: a well-formed ``action`` with a wrong action in it (sent by a seated
  connection: must be ``rejected``, never appended);
* ``text`` and ``too_large``: a text frame, a frame above 16 KiB.
"""

from __future__ import annotations

import random
import secrets
import string
from typing import Any

import msgpack
from hypothesis import strategies as st

from engine.actions import KEYS, ActionKind
from protocol import errors as E
from protocol.messages import CLIENT_TYPES

DOCUMENTED = frozenset(v for k, v in vars(E).items() if k.isupper() and isinstance(v, str) and "/" in v)
"""Every error code PROTOCOL.md documents (protocol/errors.py)."""

TYPES = sorted(CLIENT_TYPES)
DECODE_ERRORS = frozenset({E.FRAME_MALFORMED, E.FRAME_TOO_LARGE, E.MESSAGE_UNKNOWN_TYPE, E.MESSAGE_BAD_FIELD})
ACTION_REFUSALS = frozenset(
    {
        E.ACTION_ILLEGAL,
        E.ACTION_MALFORMED,
        E.ACTION_NOT_YOUR_PRIORITY,
        E.ACTION_STALE,
        E.ACTION_ID_REUSED,
    }
)
# verbs whose bare form may be legal at the start of a duel (the actions that take no key): never
# sent by the fuzzer
_MAYBE_LEGAL = frozenset(kind.value for kind, keys in KEYS.items() if not keys)
VERBS = [kind.value for kind in ActionKind if kind not in _MAYBE_LEGAL] + [
    "shuffle",
    "draw",
    "win",
    "",
    "do",
    "start",
    "scenario",
]
"""The actions of the table (``engine.actions``) that take a card or a choice, and verbs no action has."""
ACTION_KEYS = sorted({key for keys in KEYS.values() for key in keys})
"""Every key an action of the table takes (a fuzzed action adds junk keys to them)."""

EXPECTED: dict[str, frozenset[str]] = {
    "bytes": DECODE_ERRORS,
    "not_map": frozenset({E.FRAME_MALFORMED}),
    "no_type": frozenset({E.MESSAGE_UNKNOWN_TYPE}),
    "bad_field": frozenset({E.MESSAGE_BAD_FIELD}),
    "text": frozenset({E.FRAME_NOT_BINARY}),
    "too_large": frozenset({E.FRAME_TOO_LARGE}),
    "action": ACTION_REFUSALS | {E.MESSAGE_BAD_FIELD},
}
SEMANTIC: dict[str, frozenset[str]] = {
    "action": frozenset({E.SESSION_NOT_IN_MATCH}),
    "sync": frozenset({E.SESSION_NOT_IN_MATCH}),
    "join": frozenset({E.MATCH_NOT_FOUND}),
    "spectate": frozenset({E.MATCH_NOT_FOUND}),
    "get_replay": frozenset({E.MATCH_NOT_FOUND}),
    "hello": frozenset({E.MESSAGE_UNEXPECTED}),
}

Frame = tuple[str, bytes | str, frozenset[str]]  # (kind, the frame, the codes that answer it)


def pack(obj: Any) -> bytes:
    data: bytes = msgpack.packb(obj, use_bin_type=True)
    return data


def _missing_match_id(rnd: random.Random) -> str:
    return "nx" + "".join(rnd.choice(string.ascii_letters + string.digits) for _ in range(rnd.randint(4, 20)))


def semantic_map(kind: str, rnd: random.Random) -> dict[str, Any]:
    if kind == "action":
        return {
            "type": "action",
            "client_action_id": secrets.token_hex(4),
            "expected_seq": rnd.randint(0, 99),
            "action": {"do": rnd.choice(VERBS)},
        }
    if kind == "sync":
        return {"type": "sync", "last_seq": rnd.randint(0, 10**6)}
    if kind == "hello":
        return {"type": "hello", "versions": [1]}
    return {"type": kind, "match_id": _missing_match_id(rnd)}


def wrong_action(rnd: random.Random) -> dict[str, Any]:
    """An action that is not legal now (nor ever, mostly): a verb with made-up cards, junk
    keys, or no verb at all."""
    action: dict[str, Any] = {"do": rnd.choice(VERBS)}
    for _ in range(rnd.randint(0, 4)):
        key = rnd.choice([*ACTION_KEYS, "junk", "x"])
        action[key] = rnd.choice(
            [
                rnd.randint(-(2**40), 2**40),
                "no such card",
                [rnd.randint(0, 10**9)],
                None,
                True,
                {"a": [1, {"b": 2}]},
                1.5,
            ]
        )
    if rnd.random() < 0.1:
        action.pop("do")
    return action


def action_map(action: dict[str, Any], rnd: random.Random) -> dict[str, Any]:
    return {
        "type": "action",
        "client_action_id": f"fz-{secrets.token_hex(6)}",
        "expected_seq": rnd.choice([0, 1, 1, 1, 2, 10**6]),
        "action": action,
    }


# ------------------------------------------------------------------ a fast plain generator


def _junk(rnd: random.Random, depth: int = 0) -> Any:
    r = rnd.random()
    if depth > 3 or r < 0.5:
        return rnd.choice(
            [
                None,
                True,
                rnd.randint(-(2**63), 2**64 - 1),
                rnd.random(),
                "x" * rnd.randint(0, 40),
                "\u00e9\u0000",
                rnd.randint(0, 255),
            ]
        )
    if r < 0.75:
        return [_junk(rnd, depth + 1) for _ in range(rnd.randint(0, 4))]
    return {rnd.choice(["a", "type", "seq", "", "match_id"]): _junk(rnd, depth + 1) for _ in range(rnd.randint(0, 4))}


def random_frame(rnd: random.Random, *, seated: bool = False) -> Frame:
    """One bad frame and its acceptable answers (fast: for the million)."""
    if seated:
        return "action", pack(action_map(wrong_action(rnd), rnd)), EXPECTED["action"]
    r = rnd.random()
    if r < 0.25:
        data = rnd.randbytes(rnd.randint(0, 64))
        if data[:1] and 0x80 <= data[0] <= 0x8F:  # a fixmap header: keep it from being a message
            data = b"\xc1" + data
        return "bytes", data, EXPECTED["bytes"]
    if r < 0.35:
        base = pack({"type": rnd.choice(TYPES), "x": 1})
        cut = base[: rnd.randint(0, len(base) - 1)]
        return "bytes", cut + rnd.randbytes(rnd.randint(0, 3)) if rnd.random() < 0.3 else cut, EXPECTED["bytes"]
    if r < 0.45:
        return "not_map", pack(rnd.choice([[1, 2], "hello", 7, None, [{"type": "hello"}], 1.5])), EXPECTED["not_map"]
    if r < 0.55:
        m = (
            {rnd.choice(["typ", "Type", "kind"]): "hello"}
            if rnd.random() < 0.5
            else {"type": rnd.choice(["helo", "", "HELLO", "action ", "admin", 7, None, ["hello"]])}
        )
        return "no_type", pack(m), EXPECTED["no_type"]
    if r < 0.85:
        m = {"type": rnd.choice(TYPES)}
        for _ in range(rnd.randint(0, 3)):
            m[rnd.choice(["match_id", "token", "last_seq", "versions", "deck", "name", "action", "limit"])] = _junk(rnd)
        m[f"unknown_{rnd.randint(0, 99)}"] = _junk(rnd)
        return "bad_field", pack(m), EXPECTED["bad_field"]
    kind = rnd.choice(sorted(SEMANTIC))
    return "semantic", pack(semantic_map(kind, rnd)), SEMANTIC[kind]


# ------------------------------------------------------------------ hypothesis strategies

# no msgpack bin values in maps (the codec refuses them as frame/malformed: the "bytes" kind
# covers that); no NaN (it is fine on the wire, but not equal to itself in a report)
_scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-(2**63), 2**64 - 1), st.floats(allow_nan=False), st.text(max_size=20)
)
_data = st.recursive(
    _scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)


@st.composite
def bad_frames(draw: st.DrawFn) -> Frame:
    """Any bad frame an unseated connection may send, with the codes that answer it."""
    kind = draw(st.sampled_from(["bytes", "not_map", "no_type", "bad_field", "semantic", "text", "too_large"]))
    if kind == "bytes":
        data = draw(st.binary(max_size=200))
        if data[:1] and 0x80 <= data[0] <= 0x8F:
            data = b"\xc1" + data
        return kind, data, EXPECTED[kind]
    if kind == "not_map":
        value = draw(st.one_of(_scalars, st.lists(_data, max_size=4)))
        return kind, pack(value), EXPECTED[kind]
    if kind == "no_type":
        m = draw(st.dictionaries(st.text(max_size=8).filter(lambda k: k != "type"), _data, max_size=4))
        if draw(st.booleans()):
            m["type"] = draw(
                st.one_of(
                    st.text(max_size=12).filter(lambda t: t not in CLIENT_TYPES),
                    st.integers(-(2**63), 2**63),
                    st.none(),
                )
            )
        return kind, pack(m), EXPECTED[kind]
    if kind == "bad_field":
        m = draw(st.dictionaries(st.text(max_size=12), _data, max_size=5))
        m["type"] = draw(st.sampled_from(TYPES))
        m[draw(st.text(min_size=1, max_size=12).map(lambda t: "zz_" + t))] = draw(_data)
        return kind, pack(m), EXPECTED[kind]
    if kind == "semantic":
        name = draw(st.sampled_from(sorted(SEMANTIC)))
        return kind, pack(semantic_map(name, draw(st.randoms(use_true_random=False)))), SEMANTIC[name]
    if kind == "text":
        return kind, draw(st.text(max_size=50)), EXPECTED[kind]
    return kind, b"\x81\xa4type" + draw(st.binary(min_size=16 * 1024 + 1, max_size=17 * 1024)), EXPECTED[kind]


@st.composite
def bad_actions(draw: st.DrawFn) -> Frame:
    """A well-formed ``action`` message from a seated connection with a wrong action in it."""
    action: dict[str, Any] = draw(
        st.dictionaries(
            st.sampled_from([*ACTION_KEYS, "zz"]),
            _data,
            max_size=4,
        )
    )
    verb = draw(st.one_of(st.sampled_from(VERBS), st.text(max_size=10).filter(lambda v: v not in _MAYBE_LEGAL)))
    if draw(st.integers(0, 9)) > 0:
        action["do"] = verb
    if action.get("do") in _MAYBE_LEGAL or (not action.get("card") and action.get("do") in ("", None)):
        action["zz"] = 1
    return "action", pack(action_map(action, draw(st.randoms(use_true_random=False)))), EXPECTED["action"]
