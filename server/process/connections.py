"""The connections a server process holds: every session, and the one holding each seat here.

The fan-out calls :meth:`Connections.seat_taken` and :meth:`Connections.match_expired` when a
bell says so (server.match.fanout); sessions take and leave seats here."""

from __future__ import annotations

from collections.abc import Awaitable
from typing import TYPE_CHECKING

from protocol import errors as E
from protocol.errors import CloseCode

if TYPE_CHECKING:
    from server.process.session import Session


class Connections:
    def __init__(self) -> None:
        self.sessions: set[Session] = set()
        self.seats: dict[tuple[str, int], Session] = {}  # the session holding each seat here

    def take_seat(self, match_id: str, seat: int, session: Session) -> Session | None:
        """``session`` holds the seat on this process now; the session it replaces, if any."""
        before = self.seats.get((match_id, seat))
        self.seats[(match_id, seat)] = session
        return before if before is not session else None

    def leave_seat(self, match_id: str, seat: int, session: Session) -> None:
        if self.seats.get((match_id, seat)) is session:
            del self.seats[(match_id, seat)]

    def seat_taken(self, match_id: str, seat: int, conn: str) -> Awaitable[None] | None:
        """Connection ``conn`` (on any process) took the seat: close ours if it is another."""
        session = self.seats.get((match_id, seat))
        if session is None or session.conn_id == conn:
            return None
        self.leave_seat(match_id, seat, session)
        return session.taken_over()

    def match_news(self, match_id: str) -> Awaitable[None] | None:
        """The match of several duels whose duel ``match_id`` is changed (server.match.matchplay): each
        connection here that watches that duel is told, and follows it (server.process.matchdesk)."""
        watching = [s for s in self.sessions if s.match_id == match_id and s.series is not None]
        if not watching:
            return None
        return _follow(watching)

    def match_expired(self, match_id: str) -> Awaitable[None] | None:
        """A waiting match expired (server.lobby.expiry): its creator's connection here, if any, is
        told and closed."""
        session = self.seats.get((match_id, 0))
        if session is None:
            return None
        self.leave_seat(match_id, 0, session)
        return tell_expired(session)


async def _follow(sessions: list[Session]) -> None:
    for session in sessions:
        await session.services.matches.follow(session)


async def tell_expired(session: Session) -> None:
    """The match this connection created expired while it waited: say so, and close it."""
    session.error(E.MATCH_EXPIRED, "nobody joined this match in time; it expired (create another)", fatal=True)
    await session.close(CloseCode.NORMAL, "match expired")
