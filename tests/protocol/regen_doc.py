"""Rewrite PROTOCOL.md's message examples as the codec encodes them.

    .venv/bin/python -m tests.protocol.regen_doc

Each example is a ```json block followed by "msgpack, N bytes:" and a ```hex
block. The JSON is read, turned into the typed message (fields it leaves out
take their defaults), encoded, and both blocks are written back: the JSON
with every field in the codec's order, the hex of the exact bytes. Run it
after adding a field to a message; tests/protocol/test_protocol_doc.py checks
the result.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import msgpack

from protocol import decode_client, decode_server, encode
from protocol.messages import CLIENT_TYPES

DOC = Path(__file__).resolve().parents[2] / "PROTOCOL.md"
EXAMPLE = re.compile(r"```json\n(.*?)\n```\n\nmsgpack, (\d+) bytes:\n\n```hex\n(.*?)\n```", re.S)


def _hex(data: bytes) -> str:
    pairs = [f"{b:02x}" for b in data]
    return "\n".join(" ".join(pairs[i : i + 24]) for i in range(0, len(pairs), 24))


def _rewrite(match: re.Match[str]) -> str:
    raw = json.loads(match.group(1))
    packed = msgpack.packb(raw, use_bin_type=True)
    msg = decode_client(packed) if raw["type"] in CLIENT_TYPES else decode_server(packed)
    data = encode(msg)
    as_json = json.dumps(msgpack.unpackb(data, raw=False), ensure_ascii=False)
    return f"```json\n{as_json}\n```\n\nmsgpack, {len(data)} bytes:\n\n```hex\n{_hex(data)}\n```"


def main() -> None:
    DOC.write_text(EXAMPLE.sub(_rewrite, DOC.read_text()))


if __name__ == "__main__":
    main()
