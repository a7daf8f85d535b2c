"""Replay files a client sends to watch them (``upload_replay``, then ``get_replay`` with its
``upload_id``): collected within limits, read and paged in separate processes.

A file comes in base64 parts on one connection. Before any work is done for it:

* the connection holds at most ``replay_uploads_per_connection`` files (being sent or kept),
  its address at most ``replay_uploads_per_address``, and all of them together at most
  ``replay_uploads_bytes`` of text (a file's share is booked at its first part, from the
  parts it announces);
* the announced parts, then the parts as they arrive, may not add up to more than a file of
  ``replay_max_bytes``.

When the last part is in, the file is read and checked (server.history.replay_limits: the decompressed
size, the entries, every array, map and string and their nesting, all bounded) by a reader
process, never on the event loop: pure-Python decoding in a thread would still hold the
interpreter's lock, and so delay every duel of this process. Pages of a kept file are made
(folded, and encoded as the ``replay`` frame) by a reader too, which keeps the latest files
it read. The readers run at a lower priority, each within ``replay_reader_memory`` of address
space, and at most ``replay_queue`` jobs wait for them or run: beyond that a client is told
``replay/busy``. The file's text stays with its connection only, and nothing is stored.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import hashlib
import itertools
import multiprocessing
import os
import sys
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

import structlog

from protocol import errors as E
from protocol.codec import encode
from protocol.messages import GetReplay, ReplayLoaded, ReplayLog, ServerMessage, UploadReplay
from server.history import replay_file, replays
from server.history.replay_limits import ReplayLimits

log = structlog.get_logger("duel.uploads")

PART_CHARS = 4000
"""The most base64 characters in one part (``upload_replay.part``)."""
KEPT_BY_A_READER = 4
"""Files a reader process keeps decoded (with their checkpoints) for the pages asked next."""

T = TypeVar("T")


class UploadSettings(Protocol):
    """The settings the uploads read (``ServerConfig`` has them: server.process.config)."""

    @property
    def replay_uploads_per_connection(self) -> int: ...

    @property
    def replay_uploads_per_address(self) -> int: ...

    @property
    def replay_uploads_bytes(self) -> int: ...

    @property
    def replay_readers(self) -> int: ...

    @property
    def replay_queue(self) -> int: ...

    @property
    def replay_reader_memory(self) -> int: ...

    def replay_limits(self) -> ReplayLimits: ...


class Refused(Exception):
    """The request is refused before any work: ``code`` and ``reason`` for the error frame."""

    def __init__(self, code: str, reason: str) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason


def max_chars(limits: ReplayLimits) -> int:
    """The base64 text of the largest file read."""
    return 4 * -(-limits.max_bytes // 3)


# ------------------------------------------------------------ in a reader process


@dataclass(frozen=True, slots=True)
class Loaded:
    """A file read and checked, as ``replay_loaded`` tells it."""

    match_id: str
    total: int
    players: tuple[str, str]
    result: dict[str, Any] | None
    rules_version: str
    same_rules: bool
    signed: bool


_kept = replays.LogCache(KEPT_BY_A_READER)
"""In a reader process: the entries (and fold checkpoints) of the files it read last, by ref."""


READER_NICENESS = 10


def _lower_priority() -> None:
    """This thread (Linux: niceness is per thread), or on other systems this process, and the
    processes it starts from now on, run at ``READER_NICENESS``: after the server's own work."""
    os.setpriority(os.PRIO_PROCESS, 0, max(os.getpriority(os.PRIO_PROCESS, 0), READER_NICENESS))


def _start_reader(memory: int) -> None:
    """A reader process: lower priority than the server, bounded address space."""
    import resource

    _lower_priority()
    if memory > 0:
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))


def _read(ref: str, text: str, key: bytes | None, limits: ReplayLimits) -> replay_file.Replay:
    try:
        data = base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError) as exc:
        raise replay_file.ReplayFileError(f"the upload is not valid base64 ({exc})") from None
    if replay_file.is_match_file(data):
        raise replay_file.ReplayFileError(
            "this is a whole match's replay file (every duel of a match): the viewer plays one duel's file; "
            "replay the match with `duel replay FILE`, or its duels from the match's page"
        )
    try:
        replay = replay_file.loads(data, key, limits)
    except MemoryError:  # the files kept may be what fills the address space: they go first
        _kept.clear()
        replay = replay_file.loads(data, key, limits)
    _kept.put(ref, replay.entries)
    return replay


def check_file(ref: str, text: str, key: bytes | None, limits: ReplayLimits) -> Loaded:
    """Read and check an uploaded file (in a reader process)."""
    replay = _read(ref, text, key, limits)
    return Loaded(
        replay.match_id,
        len(replay.entries),
        replay.players,
        replay.result,
        str(replay.header.get("rules_version", "")),
        replay.same_rules,
        replay.signed,
    )


def page_frame(
    ref: str, text: str | None, key: bytes | None, limits: ReplayLimits, loaded: Loaded, ask: GetReplay
) -> bytes | None:
    """The ``replay`` frame of the page ``ask`` wants of an uploaded file (in a reader
    process), encoded; None if this reader does not keep the file and ``text`` is None (the
    file's text then comes with the job again, and is read again)."""
    entries = _kept.get(ref)
    if entries is None:
        if text is None:
            return None
        entries = _read(ref, text, key, limits).entries
    alias_key = hashlib.sha256(b"upload." + ref.encode()).digest()
    got = replays.page(entries, alias_key, ask.viewpoint, ask.from_seq, ask.limit, ask.views, _kept.checkpoints(ref))
    players = list(loaded.players)
    return encode(ReplayLog(loaded.match_id, got.entries, ask.viewpoint, got.total, got.next_seq, players, got.result))


# ------------------------------------------------------------ in the server


class Readers:
    """The reader processes of one server, and the uploads it holds (for the limits)."""

    def __init__(self, cfg: UploadSettings, key: bytes) -> None:
        self.cfg = cfg
        self.key = key  # this server's replay-file key (signatures)
        self.limits = cfg.replay_limits()
        self._pool: ProcessPoolExecutor | None = None
        # jobs are submitted from one thread of low priority (Linux): the pool starts its reader
        # processes inside submit, from that thread, so they run after the server from their
        # first instruction (their start-up is the costliest part of a small job)
        self._submitter: ThreadPoolExecutor | None = None
        self._jobs = 0
        self._by_address: dict[str, int] = {}
        self.booked = 0  # characters of upload text booked, server-wide
        self._refs = itertools.count(1)

    def new_ref(self) -> str:
        return f"{os.getpid()}.{next(self._refs)}"

    def book(self, address: str, chars: int) -> None:
        """One more upload of ``address`` (``chars`` of text at most); Refused if over a limit."""
        if self._by_address.get(address, 0) >= self.cfg.replay_uploads_per_address:
            raise Refused(
                E.REPLAY_BUSY,
                f"at most {self.cfg.replay_uploads_per_address} replay files at once from one address; "
                "close another first",
            )
        if self.booked + chars > self.cfg.replay_uploads_bytes:
            raise Refused(E.REPLAY_BUSY, "the server holds as many replay files as it can now; try again later")
        self._by_address[address] = self._by_address.get(address, 0) + 1
        self.booked += chars

    def rebook(self, before: int, after: int) -> None:
        self.booked += after - before

    def release(self, address: str, chars: int) -> None:
        n = self._by_address.get(address, 0) - 1
        if n <= 0:
            self._by_address.pop(address, None)
        else:
            self._by_address[address] = n
        self.booked -= chars

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                max_workers=max(1, self.cfg.replay_readers),
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_start_reader,
                initargs=(self.cfg.replay_reader_memory,),
            )
        return self._pool

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in a reader process; Refused when ``replay_queue`` jobs are already
        waiting or running, or when the job failed for want of memory or its process."""
        if self._jobs >= self.cfg.replay_queue:
            raise Refused(E.REPLAY_BUSY, "the server is reading as many replay files as it can; try again shortly")
        self._jobs += 1
        try:
            pool = self._executor()
            if self._submitter is None:
                initializer = _lower_priority if sys.platform == "linux" else None
                self._submitter = ThreadPoolExecutor(1, "replay-submit", initializer=initializer)
            submitted = asyncio.get_running_loop().run_in_executor(self._submitter, pool.submit, fn, *args)
            future: Future[T] = await submitted
            return await asyncio.wrap_future(future)
        except MemoryError:
            raise Refused(
                E.REPLAY_TOO_LARGE, "reading this file needs more memory than the server gives one reader"
            ) from None
        except BrokenProcessPool:
            log.warning("replay_reader_died")
            if self._pool is not None:
                self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
            raise Refused(E.SERVER_INTERNAL, "the server's replay reader stopped; send the file again") from None
        finally:
            self._jobs -= 1

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
        if self._submitter is not None:
            self._submitter.shutdown(wait=False)
            self._submitter = None


@dataclass(slots=True)
class _Incoming:
    parts: list[str]
    total: int
    chars: int  # received so far
    booked: int


@dataclass(frozen=True, slots=True)
class Upload:
    """A file kept for a connection: its text (to be read again by another reader), its ref
    (the key under which the readers keep it), what was found in it, the characters booked."""

    ref: str
    text: str
    loaded: Loaded


class SessionUploads:
    """The uploads of one connection: parts as they come, files kept, the pages asked."""

    __slots__ = ("_incoming", "address", "error", "kept", "readers", "send")

    def __init__(
        self,
        readers: Readers,
        address: str,
        send: Callable[[ServerMessage | bytes], None],
        error: Callable[[str, str], None],
    ) -> None:
        self.readers = readers
        self.address = address
        self.send = send
        self.error = error
        self._incoming: dict[str, _Incoming] = {}
        self.kept: dict[str, Upload] = {}

    def _drop(self, upload_id: str) -> None:
        incoming = self._incoming.pop(upload_id, None)
        if incoming is not None:
            self.readers.release(self.address, incoming.booked)
        kept = self.kept.pop(upload_id, None)
        if kept is not None:
            self.readers.release(self.address, len(kept.text))

    def close(self) -> None:
        """The connection ended: everything it held is released."""
        for upload_id in [*self._incoming, *self.kept]:
            self._drop(upload_id)

    def _first(self, msg: UploadReplay) -> _Incoming:
        self._drop(msg.upload_id)  # the same id again: this file replaces it
        cfg = self.readers.cfg
        if len(self._incoming) + len(self.kept) >= cfg.replay_uploads_per_connection:
            raise Refused(E.REPLAY_BUSY, f"at most {cfg.replay_uploads_per_connection} replay files per connection")
        most = max_chars(self.readers.limits)
        if (msg.total - 1) * PART_CHARS + 1 > most:
            raise Refused(
                E.REPLAY_TOO_LARGE,
                f"{msg.total} parts make a file larger than {self.readers.limits.max_bytes} bytes (the most read here)",
            )
        booked = min(most, msg.total * PART_CHARS)
        self.readers.book(self.address, booked)
        incoming = self._incoming[msg.upload_id] = _Incoming([], msg.total, 0, booked)
        return incoming

    async def part(self, msg: UploadReplay) -> None:
        """One part; after the last, the file is read (in a reader) and kept, or refused."""
        try:
            await self._part(msg)
        except Refused as exc:
            self.error(exc.code, exc.reason)

    async def _part(self, msg: UploadReplay) -> None:
        incoming = self._first(msg) if msg.index == 0 else self._incoming.get(msg.upload_id)
        if incoming is None or len(incoming.parts) != msg.index or incoming.total != msg.total:
            self._drop(msg.upload_id)
            raise Refused(
                E.REPLAY_INVALID, f"part {msg.index} of upload {msg.upload_id!r} is out of order; start again"
            )
        incoming.chars += len(msg.part)
        if incoming.chars > incoming.booked:
            self._drop(msg.upload_id)
            raise Refused(
                E.REPLAY_TOO_LARGE,
                f"the file is larger than {self.readers.limits.max_bytes} bytes (the most read here)",
            )
        incoming.parts.append(msg.part)
        if len(incoming.parts) < incoming.total:
            return
        text = "".join(incoming.parts)
        incoming.parts = []
        ref = self.readers.new_ref()
        try:
            loaded = await self.readers.run(check_file, ref, text, self.readers.key, self.readers.limits)
        except replay_file.ReplayTooLarge as exc:
            self._drop(msg.upload_id)
            raise Refused(E.REPLAY_TOO_LARGE, str(exc)) from None
        except replay_file.ReplayFileError as exc:
            self._drop(msg.upload_id)
            raise Refused(E.REPLAY_INVALID, str(exc)) from None
        except BaseException:
            self._drop(msg.upload_id)
            raise
        if self._incoming.pop(msg.upload_id, None) is not incoming:  # pragma: no cover - dropped meanwhile
            return
        self.readers.rebook(incoming.booked, len(text))  # what it holds now: the text, kept
        self.kept[msg.upload_id] = Upload(ref, text, loaded)
        self.send(
            ReplayLoaded(
                msg.upload_id,
                loaded.match_id,
                loaded.total,
                list(loaded.players),
                loaded.result,
                loaded.rules_version,
                loaded.same_rules,
                loaded.signed,
            )
        )

    async def page(self, msg: GetReplay) -> None:
        """A page of a kept file (``get_replay`` with ``upload_id``)."""
        assert msg.upload_id is not None
        upload = self.kept.get(msg.upload_id)
        if upload is None:
            self.error(E.MATCH_NOT_FOUND, f"no replay file uploaded as {msg.upload_id!r} on this connection")
            return
        args = (self.readers.key, self.readers.limits, upload.loaded, msg)
        try:
            # the file's text (megabytes to copy) goes to a reader only if it no longer keeps it
            frame = await self.readers.run(page_frame, upload.ref, None, *args)
            if frame is None:
                frame = await self.readers.run(page_frame, upload.ref, upload.text, *args)
            assert frame is not None  # the text went with the job: the file was read
        except Refused as exc:
            self.error(exc.code, exc.reason)
            return
        except replay_file.ReplayFileError as exc:  # pragma: no cover - it was read once already
            self.error(E.REPLAY_INVALID, str(exc))
            return
        self.send(frame)
