"""Display names (protocol/names.py): normalised to NFC, no invisible or layout-changing
characters; the codec refuses a message carrying one (issue 34)."""

from __future__ import annotations

import pytest

from protocol import errors as E
from protocol.codec import decode_client, pack
from protocol.errors import ProtocolError
from protocol.names import BadName, display_name, shown

HOSTILE = {
    "\u202e": "RIGHT-TO-LEFT OVERRIDE",
    "\u2028": "LINE SEPARATOR",
    "\u2029": "PARAGRAPH SEPARATOR",
    "\u200b": "ZERO WIDTH SPACE",
    "\u200d": "ZERO WIDTH JOINER",
    "\u2066": "LEFT-TO-RIGHT ISOLATE",
    "\ufeff": "ZERO WIDTH NO-BREAK SPACE",
    "\x00": "",
    "\x1b": "",
    "\x85": "",
    "\ue000": "",  # private use
    "\U000e0001": "LANGUAGE TAG",
    "\u0378": "",  # unassigned
}


@pytest.mark.parametrize("char", sorted(HOSTILE))
def test_a_name_with_an_invisible_or_layout_character_is_refused_naming_it(char: str) -> None:
    with pytest.raises(BadName) as caught:
        display_name(f"Ann{char}Bob")
    said = str(caught.value)
    assert f"U+{ord(char):04X}" in said and HOSTILE[char] in said


def test_names_are_nfc_and_every_script_and_symbol_is_fine() -> None:
    assert display_name("Zoe\u0301") == "Zo\u00e9"  # e + combining acute -> é
    assert display_name("\u1100\u1161") == "\uac00"  # conjoining jamo -> one syllable
    for fine in ("Ann", "Zoë", "Ελένη", "李小龙", "محمد", "שרה", "Bob 🐉", "a\u00a0b", "", "  "):
        assert display_name(fine) == fine


def test_a_stored_name_is_shown_with_each_refused_character_replaced() -> None:
    assert shown("Ann\u202eboB") == "Ann\ufffdboB"
    assert shown("e\u0301\x00") == "\u00e9\ufffd"
    assert shown("x" * 40) == "x" * 32
    assert shown("Ann") == "Ann"


@pytest.mark.parametrize("kind", ["create_match", "join", "quick_match"])
def test_the_codec_refuses_a_lobby_request_with_a_hostile_name(kind: str) -> None:
    extra = {"match_id": "Xq3vB9kLm2Pa"} if kind == "join" else {}
    with pytest.raises(ProtocolError) as caught:
        decode_client(pack({"type": kind, "name": "evil\u202egnp.exe", **extra}))
    assert caught.value.code == E.MESSAGE_BAD_FIELD
    assert "field 'name' must not contain U+202E RIGHT-TO-LEFT OVERRIDE" in caught.value.reason
    msg = decode_client(pack({"type": kind, "name": "Zoe\u0301", **extra}))
    assert msg.name == "Zo\u00e9"


def test_the_length_limit_counts_the_normalised_name() -> None:
    decoded = decode_client(pack({"type": "create_match", "name": "e\u0301" * 32}))  # 64 code points in, 32 out
    assert decoded.name == "\u00e9" * 32
    with pytest.raises(ProtocolError):
        decode_client(pack({"type": "create_match", "name": "x" * 33}))


def test_hello_client_names_follow_the_same_rules() -> None:
    with pytest.raises(ProtocolError) as caught:
        decode_client(pack({"type": "hello", "versions": [1], "client": "ok\u2028Injected: log line"}))
    assert caught.value.code == E.MESSAGE_BAD_FIELD and "U+2028" in caught.value.reason
