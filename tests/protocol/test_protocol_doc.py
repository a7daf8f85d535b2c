"""PROTOCOL.md is the contract: its examples must be exactly what the codec
produces and accepts, and it must list every message, error and close code."""

from __future__ import annotations

import json
import re
from pathlib import Path

import msgpack

from protocol import CloseCode, decode_client, decode_server, encode
from protocol.errors import ALL_CODES
from protocol.messages import CLIENT_TYPES, SERVER_TYPES

DOC = (Path(__file__).resolve().parents[2] / "PROTOCOL.md").read_text()
EXAMPLE = re.compile(r"```json\n(.*?)\n```\n\nmsgpack, (\d+) bytes:\n\n```hex\n(.*?)\n```", re.S)


def examples() -> list[tuple[dict[str, object], int, bytes]]:
    return [(json.loads(j), int(n), bytes.fromhex(h.replace("\n", " "))) for j, n, h in EXAMPLE.findall(DOC)]


def test_every_message_has_a_section_and_an_example() -> None:
    shown = {ex["type"] for ex, _, _ in examples()}
    for tag in [*CLIENT_TYPES, *SERVER_TYPES]:
        assert f"### {tag} (" in DOC, tag
        assert tag in shown, tag


def test_examples_are_the_codec_bytes() -> None:
    found = examples()
    assert len(found) >= len(CLIENT_TYPES) + len(SERVER_TYPES)
    for as_json, size, data in found:
        assert len(data) == size
        assert msgpack.unpackb(data, raw=False) == as_json
        tag = as_json["type"]
        msg = decode_client(data) if tag in CLIENT_TYPES else decode_server(data)
        assert encode(msg) == data


def test_every_error_and_close_code_is_documented() -> None:
    for code in ALL_CODES:
        assert f"`{code}`" in DOC, code
    for close in CloseCode:
        assert f"| {close.value} |" in DOC, close
