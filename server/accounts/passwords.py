"""Password hashing: argon2id (argon2-cffi), off the event loop, a bounded number at a time.

A hash costs tens of milliseconds of a core and 64 MiB (RFC 9106's low-memory profile, argon2-cffi's
default): run on the event loop it would stall every duel of the process. So each hash or check
runs on a small thread pool of its own (``threads``, default 2: argon2-cffi releases the GIL while
it hashes), and at most ``queue`` more wait for a thread; a request beyond that is refused at once
(:class:`Busy`, ``server/busy``) before any work, instead of piling up memory and latency.

Checking a password is argon2's own verify, which compares the digests in constant time. A login
with an unknown name checks the password against a dummy hash all the same (:meth:`check_unknown`),
so that the answer takes as long as for a known name with a wrong password.

Passwords are normalised to NFKC before hashing (the same password typed on another keyboard or
platform is the same password). Nothing here logs, and no exception carries a password or a hash.
"""

from __future__ import annotations

import asyncio
import secrets
import unicodedata
from concurrent.futures import ThreadPoolExecutor

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

DEFAULT_THREADS = 2
DEFAULT_QUEUE = 16


class Busy(Exception):
    """Too many password hashes are running or waiting: try again shortly."""


def _plain(password: str) -> bytes:
    return unicodedata.normalize("NFKC", password).encode("utf-8")


class Passwords:
    def __init__(
        self, threads: int = DEFAULT_THREADS, queue: int = DEFAULT_QUEUE, hasher: PasswordHasher | None = None
    ) -> None:
        if threads < 1 or queue < 0:
            raise ValueError("threads must be at least 1 and queue at least 0")
        self._hasher = hasher or PasswordHasher()
        self._pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="argon2")
        self._threads = threads
        self._limit = threads + queue
        self._in_flight = 0
        self._dummy: str | None = None
        self.hashed = 0  # hashes and checks done (for tests and metrics)

    async def _run(self, work: str, password: str, stored: str = "") -> str | bool:
        if self._in_flight >= self._limit:
            raise Busy(f"{self._limit} password checks are running or waiting")
        self._in_flight += 1
        try:
            loop = asyncio.get_running_loop()
            if work == "hash":
                return await loop.run_in_executor(self._pool, self._hash, password)
            return await loop.run_in_executor(self._pool, self._verify, stored, password)
        finally:
            self._in_flight -= 1
            self.hashed += 1

    def _hash(self, password: str) -> str:
        return self._hasher.hash(_plain(password))

    def _verify(self, stored: str, password: str) -> bool:
        try:
            return self._hasher.verify(stored, _plain(password))
        except (VerificationError, InvalidHashError):
            return False

    async def hash(self, password: str) -> str:
        """The argon2id hash of ``password`` (with a random salt). Raises :class:`Busy`."""
        result = await self._run("hash", password)
        assert isinstance(result, str)
        return result

    async def check(self, stored: str, password: str) -> bool:
        """Does ``password`` match the ``stored`` hash? Raises :class:`Busy`."""
        return bool(await self._run("verify", password, stored))

    async def check_unknown(self, password: str) -> bool:
        """Spend what :meth:`check` spends, for a name with no account (always False)."""
        if self._dummy is None:
            self._dummy = await self.hash(secrets.token_urlsafe(24))
        await self.check(self._dummy, password)
        return False

    def needs_rehash(self, stored: str) -> bool:
        """Was ``stored`` made with other parameters than this hasher's (then it is hashed again
        at the next login)?"""
        try:
            return self._hasher.check_needs_rehash(stored)
        except InvalidHashError:
            return True

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
