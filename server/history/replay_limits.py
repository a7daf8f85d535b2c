"""How much of a replay file is read, and reading it within those limits.

A replay file comes from outside (an upload, ``duel import``, ``duel verify FILE``), so every
limit is checked before the work it bounds: the file's size before it is decompressed; the
decompressed bytes as they come out of zlib (never more than ``max_data`` of them, however
small the file); the number of entries before the first is decoded; and, entry by entry, the
length of every array, map and string (msgpack's own limits, checked as it reads) and how
deeply they nest. Entries are decoded one at a time from a stream, so a file never exists as
one decoded whole. docs/replay-format.md gives the defaults; ``duel serve`` can change them.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import msgpack

MIB = 1024 * 1024
MAGIC = b"DUELRPL1"
CHUNK = 64 * 1024
"""Decompressed bytes produced at a time."""
ENTRY_BUFFER = 1 * MIB
"""msgpack's read buffer: bytes read ahead and not yet decoded (one entry is bounded by the
limits on its arrays, maps, strings and nesting, and all of them by ``max_data``)."""


class ReplayFileError(Exception):
    """The file is not a replay file, is damaged, or was altered; the message says which."""


class ReplayTooLarge(ReplayFileError):
    """The file is beyond one of the limits this program reads (the message names it)."""


@dataclass(frozen=True, slots=True)
class ReplayLimits:
    """What a replay file may hold. The defaults fit the longest real duels many times over
    (a duel of 300 entries is about 15 KiB compressed, 70 KiB decompressed; a turn is about
    26 entries; the deepest entry, a scenario's genesis, nests 10 levels)."""

    max_bytes: int = 2 * MIB  # the file itself (compressed)
    max_data: int = 8 * MIB  # its contents, decompressed
    max_entries: int = 20_000
    max_depth: int = 32  # arrays and maps inside one another (an entry itself is level 1)
    max_items: int = 4096  # elements of any one array or map inside an entry or the header
    max_string: int = 64 * 1024  # bytes of any one string


DEFAULT_LIMITS = ReplayLimits()


class _Inflated:
    """The decompressed bytes of a zlib stream, read in chunks, never more than ``limit``."""

    def __init__(self, data: bytes, limit: int) -> None:
        self._z = zlib.decompressobj()
        self._tail = data
        self._limit = limit
        self.produced = 0

    def read(self, n: int) -> bytes:
        while not self._z.eof:
            given = self._tail
            try:
                out = self._z.decompress(given, min(n, CHUNK))
            except zlib.error as exc:
                raise ReplayFileError(f"the file is damaged: it cannot be decompressed ({exc})") from None
            self._tail = self._z.unconsumed_tail
            self.produced += len(out)
            if self.produced > self._limit:
                raise ReplayTooLarge(f"the file decompresses to more than {self._limit} bytes (the most read here)")
            if out:
                return out
            if not given:
                raise ReplayFileError("the file is damaged: its compressed data ends too soon")
        return b""

    def finished(self) -> bool:
        """The zlib stream ended, and nothing follows it."""
        return self._z.eof and not self._z.unused_data


def depth_within(obj: object, limit: int) -> bool:
    """Do the arrays and maps of ``obj`` nest at most ``limit`` deep?"""
    stack: list[tuple[object, int]] = [(obj, 1)]
    while stack:
        o, d = stack.pop()
        if isinstance(o, dict):
            items: Any = o.values()
        elif isinstance(o, list):
            items = o
        else:
            continue
        if d > limit:
            return False
        stack.extend((v, d + 1) for v in items if isinstance(v, dict | list))
    return True


class FileReader:
    """The header, then the entries one by one, of a replay file's bytes, within ``limits``.
    Layout: ``MAGIC`` + zlib(msgpack map {"header": map, "entries": array}), the header first."""

    def __init__(self, data: bytes, limits: ReplayLimits = DEFAULT_LIMITS) -> None:
        if len(data) > limits.max_bytes:
            raise ReplayTooLarge(f"the file is {len(data)} bytes; at most {limits.max_bytes} are read here")
        if not data.startswith(MAGIC):
            raise ReplayFileError("not a duel replay file (it does not start with DUELRPL1)")
        self.limits = limits
        self._stream = _Inflated(data[len(MAGIC) :], limits.max_data)
        self._unpacker = msgpack.Unpacker(
            self._stream,
            raw=False,
            strict_map_key=False,
            read_size=CHUNK,
            max_buffer_size=ENTRY_BUFFER,
            max_str_len=limits.max_string,
            max_bin_len=limits.max_string,
            max_array_len=limits.max_items,
            max_map_len=limits.max_items,
            max_ext_len=0,
        )
        self.header: dict[str, Any] = {}
        self.count = 0
        self._begin()

    def _call(self, what: str, read: Callable[[], Any]) -> Any:
        """``read()`` from the unpacker; its failures as ReplayFileError (ReplayTooLarge for a
        limit), naming ``what`` was being read."""
        try:
            return read()
        except ReplayFileError:
            raise
        except msgpack.exceptions.BufferFull:
            raise ReplayTooLarge(
                f"{what} needs more than {ENTRY_BUFFER} bytes read ahead (the most read here)"
            ) from None
        except (ValueError, msgpack.UnpackException) as exc:
            if "exceeds max_" in str(exc):
                raise ReplayTooLarge(
                    f"{what} holds an array, map or string beyond this reader's limits ({exc})"
                ) from None
            raise ReplayFileError(
                f"the file is damaged: it cannot be decoded ({what}: {exc or type(exc).__name__})"
            ) from None

    def _object(self, what: str) -> Any:
        obj = self._call(what, self._unpacker.unpack)
        if not depth_within(obj, self.limits.max_depth):
            raise ReplayTooLarge(f"{what} nests deeper than {self.limits.max_depth} levels (the most read here)")
        return obj

    def _begin(self) -> None:
        keys = int(self._call("the file", self._unpacker.read_map_header))
        if keys != 2 or self._object("the file") != "header":
            raise ReplayFileError("the file is damaged: it does not begin with its header")
        header = self._object("the header")
        if not isinstance(header, dict):
            raise ReplayFileError("the file is damaged: no header")
        self.header = header
        if self._object("the file") != "entries":
            raise ReplayFileError("the file is damaged: no entries after the header")
        self.count = int(self._call("the entries", self._unpacker.read_array_header))
        if self.count > self.limits.max_entries:
            raise ReplayTooLarge(f"the file has {self.count} entries; at most {self.limits.max_entries} are read here")

    def records(self) -> Iterator[dict[str, Any]]:
        """Each entry's map, in order; then the check that nothing follows them."""
        for i in range(1, self.count + 1):
            record = self._object(f"entry {i}")
            if not isinstance(record, dict):
                raise ReplayFileError(f"the file is damaged: entry {i} is not a map")
            yield record
        try:
            self._unpacker.unpack()
        except msgpack.OutOfData:
            if self._stream.finished():
                return
        except (ValueError, msgpack.UnpackException):
            pass
        raise ReplayFileError("the file is damaged: bytes follow its entries")
