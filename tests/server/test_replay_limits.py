"""Reading a replay file within limits (server.history.replay_limits; issue 34, finding 1), and what a
file's header may claim (finding 3). No sockets: the bytes are read as an upload or
``duel import`` reads them; memory is measured with tracemalloc."""

from __future__ import annotations

import dataclasses
import struct
import tracemalloc
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import pytest
from hostile_replays import header_of, long_file, long_log, nil_bomb, rewrite
from logs import engine_log

from protocol.codec import pack
from server.history import replay_file
from server.history.replay_limits import MIB, ReplayFileError, ReplayLimits, ReplayTooLarge

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
T = TypeVar("T")


def peak_of(work: Callable[[], T]) -> tuple[T | BaseException, int]:
    """What ``work`` returned or raised, and the most memory Python held meanwhile (bytes)."""
    tracemalloc.start()
    try:
        try:
            got: T | BaseException = work()
        except Exception as exc:
            got = exc
        return got, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_a_zip_bomb_stops_at_the_decompressed_limit_with_little_memory() -> None:
    bomb = nil_bomb(64 * MIB)
    got, peak = peak_of(lambda: replay_file.loads(bomb, None, ReplayLimits(max_data=1 * MIB)))
    assert isinstance(got, ReplayTooLarge) and "decompresses to more than 1048576 bytes" in str(got)
    assert peak < 16 * MIB, peak  # the file decoded whole would be 8 bytes a nil: 512 MiB


def test_the_entry_count_is_checked_before_an_entry_is_decoded() -> None:
    data = long_file(3_000)
    got, peak = peak_of(lambda: replay_file.loads(data, None, ReplayLimits(max_entries=2_999)))
    assert isinstance(got, ReplayTooLarge) and "3000 entries; at most 2999" in str(got)
    assert peak < 2 * MIB, peak
    assert len(replay_file.loads(data, None, ReplayLimits(max_entries=3_000)).entries) == 3_000


def test_the_file_size_is_checked_before_it_is_decompressed(tmp_path: Path) -> None:
    data = (GOLDEN / "classic.duelreplay").read_bytes()
    with pytest.raises(ReplayTooLarge, match=f"the file is {len(data)} bytes; at most 1000"):
        replay_file.loads(data, None, ReplayLimits(max_bytes=1000))
    path = tmp_path / "f.duelreplay"
    path.write_bytes(data)
    with pytest.raises(ReplayTooLarge, match="at most 1000"):
        replay_file.read(path, None, ReplayLimits(max_bytes=1000))


def _nested(depth: int) -> list[Any]:
    inner: list[Any] = [1]
    for _ in range(depth - 1):
        inner = [inner]
    return inner


def _file_with_entry(entry: Any) -> bytes:
    """A file whose one entry is ``entry`` (any msgpack value), the header claiming one."""
    header = pack(header_of(1))
    body = b"\x82\xa6header" + header + b"\xa7entries\x91" + pack(entry)
    return replay_file.MAGIC + zlib.compress(body)


@pytest.mark.parametrize(
    ("entry", "words"),
    [
        ({"action": {"pad": [None] * 5000}}, "max_array_len"),
        ({"action": {str(i): i for i in range(5000)}}, "max_map_len"),
        ({"action": {"name": "x" * 70_000}}, "max_str_len"),
        ({"action": {"deep": _nested(40)}}, "nests deeper than 32"),
    ],
)
def test_every_array_map_string_and_nesting_of_an_entry_is_bounded(entry: Any, words: str) -> None:
    with pytest.raises(ReplayTooLarge, match=words):
        replay_file.loads(_file_with_entry(entry))


def test_damaged_layouts_are_one_clear_refusal() -> None:
    data = long_file(20)
    with pytest.raises(ReplayFileError, match=r"compressed data ends too soon|cannot be decompressed"):
        replay_file.loads(data[:-10])
    body = zlib.decompress(data[8:])
    with pytest.raises(ReplayFileError, match="bytes follow its entries"):
        replay_file.loads(replay_file.MAGIC + zlib.compress(body + b"\xc0"))
    with pytest.raises(ReplayFileError, match="bytes follow its entries"):
        replay_file.loads(data + b"junk")
    entries_first = b"\x82\xa7entries\x90\xa6header\x80"
    with pytest.raises(ReplayFileError, match="does not begin with its header"):
        replay_file.loads(replay_file.MAGIC + zlib.compress(entries_first))
    header = pack(header_of(1))
    huge = b"\x82\xa6header" + header + b"\xa7entries\xdd" + struct.pack(">I", 2**32 - 1)
    with pytest.raises(ReplayTooLarge, match="4294967295 entries"):
        replay_file.loads(replay_file.MAGIC + zlib.compress(huge))


def test_the_golden_files_and_a_long_real_duel_read_within_the_default_limits() -> None:
    for path in sorted(GOLDEN.glob("*.duelreplay")):
        replay = replay_file.read(path)
        assert not replay.signed and replay.result is not None and replay.result["finished"]
    log = engine_log(31, max_actions=3000)
    back = replay_file.loads(replay_file.dumps(replay_file.build("m31", log)))
    assert back.entries == log


def test_what_the_header_says_of_the_log_must_agree_with_it() -> None:
    """Finding 3: a header is a summary of its log; an unsigned file whose header claims
    another result, or other players than its genesis entry records, is refused."""
    log = engine_log(13)
    data = replay_file.dumps(replay_file.build("m13", log))
    winner = replay_file.loads(data).header["result"]["winner"]
    assert winner in (0, 1)

    def other_winner(raw: dict[str, Any]) -> None:
        raw["header"]["result"]["winner"] = 1 - winner

    with pytest.raises(ReplayFileError, match="header's result is not what its log gives"):
        replay_file.loads(rewrite(data, other_winner))

    half = long_log(40)
    claims_a_win = rewrite(
        replay_file.dumps(replay_file.build("half", half)),
        lambda raw: raw["header"]["result"].update(winner=0, finished=True, reason="lp"),
    )
    with pytest.raises(ReplayFileError, match="header's result is not what its log gives"):
        replay_file.loads(claims_a_win)

    named = [dataclasses.replace(log[0], action={**log[0].action, "players": ["Ann", "Bob"]}), *log[1:]]
    data = replay_file.dumps(replay_file.build("m13", named))
    assert replay_file.loads(data).players == ("Ann", "Bob")

    def renamed(raw: dict[str, Any]) -> None:
        raw["header"]["players"] = ["Ann", "Mallory"]

    with pytest.raises(ReplayFileError, match="header's players are not those its log records"):
        replay_file.loads(rewrite(data, renamed))


def test_a_header_without_the_fields_a_reader_needs_is_refused() -> None:
    data = long_file(5)
    for field in ("match_id", "rules_version", "chain"):

        def drop(raw: dict[str, Any], field: str = field) -> None:
            del raw["header"][field]

        with pytest.raises(ReplayFileError, match=f"its header has no {field}"):
            replay_file.loads(rewrite(data, drop))


def test_names_from_a_file_are_shown_safely() -> None:
    """A file from outside may name its players with any characters: what is shown of them is
    NFC with control, format and bidi characters replaced (protocol.names.shown, issue 34)."""
    replay = replay_file.build("m1", long_log(3), players=("A\u202egnoB", "Bo\u200bb"))
    assert replay.players == ("A\ufffdgnoB", "Bo\ufffdb")
