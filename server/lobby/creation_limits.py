"""Per-address limits on the matches a client creates.

One address (server.runtime.limits.client_address) may create ``address_matches_per_minute``
matches a minute (a token bucket: bursts of as many, refilled evenly over the minute), and
may have at most ``address_waiting_matches`` of them waiting for an opponent at once. Both
count ``create_match`` (with or without the bot) and ``quick_match`` (which creates a match
when it has to wait), and both are checked before anything is written: a refusal is
``rate/create_limited`` or ``rate/too_many_waiting`` (PROTOCOL.md) and changes nothing.
Before this, one address created 2,000 waiting matches in 2.3 s (issue 34).

The counts are kept by each server process for the connections it serves, as the other
per-address limits are (server.runtime.limits). A match counts as waiting from its creation until
it starts or is gone (expired: server.lobby.expiry); the count is checked against Redis only when
it has reached the limit, so a player with a match or two waiting costs no Redis read. A
match is counted when its request passes (its id is known before it is made), so requests
sent at once cannot all pass; one that was never made (a quick match that was paired) is
dropped from the count ``BEING_MADE_S`` later.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from protocol import errors as E
from server.match.directory import WAITING, MatchDirectory
from server.match.matches import MatchService, Refusal
from server.runtime.limits import TokenBucket

BEING_MADE_S = 10.0
"""A match counted this recently, not made yet and not in Redis, is taken to be being made (still
counted); one made and no longer in Redis is gone (expired)."""

TIDY_EVERY = 1024
"""Every this many checks, the addresses that have nothing waiting and a full bucket are forgotten."""


@dataclass(slots=True)
class _Counted:
    """A match counted as waiting: when its request passed, and whether it was made since."""

    at: float
    made: bool = False


class CreationLimits:
    def __init__(
        self,
        per_minute: int,
        max_waiting: int,
        directory: MatchDirectory,
        service: MatchService,
        lifetime: float | None = None,
    ) -> None:
        """``lifetime``: how long a waiting match lives at most (server.lobby.expiry's time to live;
        None: no limit)."""
        self.per_minute = per_minute
        self.max_waiting = max_waiting
        self.lifetime = lifetime
        self._directory = directory
        self._service = service
        self._buckets: dict[str, TokenBucket] = {}
        self._waiting: dict[str, dict[str, _Counted]] = {}  # address -> match id -> its count
        self._checks = 0

    async def refusal(self, address: str, match_id: str) -> Refusal | None:
        """Why ``address`` may not create ``match_id`` now, or None: then it is counted, as
        created and waiting, before it is (so that requests at once from one address cannot
        all pass). A request again for a match counted before (a retry) passes."""
        self._checks += 1
        if self._checks % TIDY_EVERY == 0:
            self._tidy()
        waiting = self._waiting.setdefault(address, {})
        if match_id in waiting:
            return None
        if len(waiting) >= self.max_waiting:
            await self._recount(waiting)
            if len(waiting) >= self.max_waiting:
                return Refusal(
                    E.RATE_TOO_MANY_WAITING,
                    f"at most {self.max_waiting} matches from one address may wait for an opponent at once;"
                    " play or leave one first",
                )
        bucket = self._buckets.get(address)
        if bucket is None:
            bucket = self._buckets[address] = TokenBucket(self.per_minute / 60, self.per_minute)
        if not bucket.take():
            return Refusal(
                E.RATE_CREATE_LIMITED,
                f"at most {self.per_minute} new matches a minute from one address; try again shortly",
            )
        waiting[match_id] = _Counted(time.monotonic())
        return None

    def made(self, address: str, match_id: str) -> None:
        """``address``'s match ``match_id`` is in Redis now (once it is not, it is gone)."""
        counted = self._waiting.get(address, {}).get(match_id)
        if counted is not None:
            counted.made = True

    async def _recount(self, waiting: dict[str, _Counted]) -> None:
        self._forget_done(waiting)
        young = time.monotonic() - BEING_MADE_S
        for match_id, counted in list(waiting.items()):
            status = await self._directory.status(match_id)
            if status != WAITING and (status is not None or counted.made or counted.at < young):
                waiting.pop(match_id, None)

    def _forget_done(self, waiting: dict[str, _Counted]) -> None:
        """Forget the matches known to have started or to be past their lifetime (no Redis read)."""
        oldest = None if self.lifetime is None else time.monotonic() - self.lifetime - 60
        for match_id, counted in list(waiting.items()):
            if self._started(match_id) or (oldest is not None and counted.at < oldest):
                waiting.pop(match_id, None)

    def _started(self, match_id: str) -> bool:
        """Has this process seen the match start (no Redis read)?"""
        lm = self._service.cached(match_id)
        return lm is not None and lm.started

    def _tidy(self) -> None:
        for waiting in self._waiting.values():
            self._forget_done(waiting)
        for address in [a for a, ids in self._waiting.items() if not ids]:
            del self._waiting[address]
        for address in [a for a, b in self._buckets.items() if b.full() and a not in self._waiting]:
            del self._buckets[address]
