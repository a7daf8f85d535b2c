"""A coverage-guided fuzzer (atheris, libFuzzer) for the protocol codec and validator.

    .venv/bin/python -m tests.faults.fuzz_atheris -runs=1000000      # what ``make fuzz`` runs

Two inputs per run: the raw bytes as a client frame, and a msgpack map built from them
(a known message type with fields drawn from the bytes, so the validator's checks are
reached, not only msgpack's). Anything but ``ProtocolError`` leaving ``decode_client`` is a
crash (libFuzzer stops and writes the input to ``crash-*``). Needs the ``fuzz`` extra:
``pip install -e '.[fuzz]'``.
"""

from __future__ import annotations

import contextlib
import sys
from typing import Any

import atheris
import msgpack

from protocol.codec import decode_client
from protocol.errors import ProtocolError
from protocol.messages import CLIENT_TYPES

TYPES = sorted(CLIENT_TYPES)
FIELDS = [
    "versions",
    "client",
    "deck",
    "spectators",
    "name",
    "request_id",
    "match_id",
    "token",
    "last_seq",
    "client_action_id",
    "expected_seq",
    "action",
    "status",
    "limit",
    "viewpoint",
    "from_seq",
    "views",
    "upload_id",
    "index",
    "total",
    "part",
    "clock_ms",
    "increment_ms",
    "spectator_delay",
    "opponent",
]


def _value(fdp: Any, depth: int = 0) -> Any:
    kind = fdp.ConsumeIntInRange(0, 7 if depth < 4 else 4)
    if kind == 0:
        return None
    if kind == 1:
        return fdp.ConsumeBool()
    if kind == 2:
        return fdp.ConsumeIntInRange(-(2**63), 2**64 - 1)
    if kind == 3:
        return fdp.ConsumeUnicodeNoSurrogates(fdp.ConsumeIntInRange(0, 80))
    if kind == 4:
        return fdp.ConsumeRegularFloat()
    if kind == 5:
        return [_value(fdp, depth + 1) for _ in range(fdp.ConsumeIntInRange(0, 5))]
    if kind == 6:
        return {fdp.ConsumeUnicodeNoSurrogates(8): _value(fdp, depth + 1) for _ in range(fdp.ConsumeIntInRange(0, 4))}
    return [fdp.ConsumeIntInRange(0, 2**32) for _ in range(fdp.ConsumeIntInRange(0, 60))]


def check(data: bytes) -> None:
    with contextlib.suppress(ProtocolError):
        decode_client(data)


def test_one_input(data: bytes) -> None:
    check(data)
    fdp = atheris.FuzzedDataProvider(data)
    message: dict[str, Any] = {"type": TYPES[fdp.ConsumeIntInRange(0, len(TYPES) - 1)]}
    for _ in range(fdp.ConsumeIntInRange(0, 6)):
        message[FIELDS[fdp.ConsumeIntInRange(0, len(FIELDS) - 1)]] = _value(fdp)
    check(msgpack.packb(message, use_bin_type=True))


def main() -> None:
    atheris.instrument_all()  # every loaded Python function reports coverage (the codec, validator)
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
