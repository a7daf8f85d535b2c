"""A connection's part in a match of several duels: which duel it watches, the news it is told,
and its requests between duels (``side_deck``, ``choose_first``, ``concede_duel``, ``get_match``).

A connection takes its place in a match (its seat token, or ``spectate``, names the match or any
of its duels) and is bound to the duel the match is at (:meth:`MatchDesk.resolve`). When the
match's news reaches this process (a ``match`` bell on the channel of the duel it watches:
server.match.matchplay), each of its connections there is told the match's state
(``match_state``, as its seat may know it) and, once the next duel has its first entry, moves to
it (:meth:`MatchDesk.follow`): its updates then come from that duel's log, from seq 1.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import structlog

from protocol import errors as E
from protocol.messages import (
    Accepted,
    Act,
    ChooseFirst,
    ConcedeDuel,
    GetMatch,
    MatchRequest,
    Rejected,
    ServerMessage,
    SideDeck,
)
from server.lobby.decks import DeckError
from server.lobby.siding import check_swap
from server.match import series as S
from server.match.directory import MatchInfo

if TYPE_CHECKING:
    from server.match.live import LiveMatch
    from server.match.matchplay import MatchPlay
    from server.process.session import Session

log = structlog.get_logger("duel.matchdesk")

Greet = Callable[["LiveMatch"], None]


@dataclasses.dataclass(frozen=True, slots=True)
class Place:
    """Where a connection that takes its place in a match goes: the duel, the seq to catch up
    from in it, and the match's record (None: a match of one duel, or one not started)."""

    duel_id: str
    last_seq: int
    series: str | None
    record: S.Series | None


def series_fields(best_of: int, side: list[int], side_ms: int, clock_scope: str) -> dict[str, Any] | None:
    """What a match's meta records of a match of several duels (server.match.directory)."""
    if best_of <= 1 and not side:
        return None
    return {"best_of": best_of, "side0": side, "side_ms": side_ms, "clock_scope": clock_scope}


class MatchDesk:
    def __init__(self, play: MatchPlay) -> None:
        self.play = play

    async def begin(self, info: MatchInfo) -> tuple[int | None, dict[str, Any] | None]:
        """Before a match's first duel starts: a match of several duels gets its record, and its
        first player by a coin toss from the seed (None); the genesis's ``first`` and ``match``."""
        if info.best_of <= 1:
            return 0, None
        await self.play.begin(info)
        return None, {"id": info.match_id, "duel": 1, "best_of": info.best_of}

    async def resolve(self, info: MatchInfo, duel: int, last_seq: int) -> Place:
        """The duel of match ``info`` (or of the match whose duel it is) a connection watches now;
        ``duel`` and ``last_seq``: where the client was (a seq of another duel counts for nothing)."""
        if info.best_of <= 1:
            return Place(info.match_id, last_seq, None, None)
        match_id = info.match_id_of_series
        rec = await self.play.current(match_id)
        if rec is None:
            return Place(match_id, last_seq if duel == 1 else 0, match_id, None)
        number = rec.current if rec.phase == S.DUELING else rec.duels[-1].number
        return Place(rec.watch_id, last_seq if duel == number else 0, match_id, rec)

    def greet(self, session: Session, place: Place, then: Greet | None) -> Greet | None:
        """What a connection is sent as it is bound, before the duel's updates: the match's state."""
        record = place.record
        if record is None:
            return then
        seat = session.watcher.seat if session.watcher is not None else None

        def greet(lm: LiveMatch) -> None:
            if then is not None:
                then(lm)
            session.send(self.play.state_for(record, seat))
            if record.phase == S.SIDING:
                self.play.arm(record)

        return greet

    async def follow(self, session: Session) -> None:
        """The match's news: tell the connection, and move it to the next duel once that began."""
        async with session.following:
            watcher = session.watcher
            if session.series is None or watcher is None or session.match_id is None:
                return
            rec = await self.play.current(session.series)
            if rec is None or session.watcher is not watcher:
                return  # nothing yet, or the connection closed meanwhile
            target = rec.watch_id
            if target != session.match_id and await self.play.store.last_seq(target) > 0:
                if session.watcher is watcher:
                    await session.move_to(target, Place(target, 0, rec.match_id, rec))
                return
            session.send(self.play.state_for(rec, watcher.seat))
            if rec.phase == S.SIDING:
                self.play.arm(rec)

    async def replay_record(self, info: MatchInfo) -> dict[str, Any] | None:
        """What a page of a duel's replay (``replay.match``) says of its match: the record of a
        match of several duels (its duels' replays, the whole match's file) and this duel's number."""
        if info.best_of <= 1:
            return None
        rec = await self.play.record(info.match_id_of_series)
        return None if rec is None else {**self.play.record_json(rec), "duel": info.duel}

    # ------------------------------------------------------------------ requests

    async def handle(self, session: Session, msg: MatchRequest) -> None:
        if isinstance(msg, GetMatch):
            await self._get(session, msg)
            return
        seat = self._seat(session)
        if seat is None:
            return
        if isinstance(msg, ConcedeDuel):
            await self._concede_duel(session, seat, msg)
        elif isinstance(msg, SideDeck):
            await self._side(session, seat, msg)
        else:
            await self._choose(session, seat, msg)

    def _seat(self, session: Session) -> int | None:
        if session.match_id is None or session.watcher is None:
            session.error(E.SESSION_NOT_IN_MATCH, "create, join or reconnect to a match first")
            return None
        if session.watcher.seat is None:
            session.error(E.SESSION_SPECTATOR, "spectators cannot act")
            return None
        return session.watcher.seat

    async def _between(self, session: Session) -> S.Series | None:
        """The record, if the connection's match is between two duels (else an error is sent)."""
        rec = None if session.series is None else await self.play.current(session.series)
        if rec is None or rec.phase != S.SIDING:
            what = "a match of one duel" if session.series is None else f"a match {rec.phase if rec else 'not started'}"
            session.error(E.MATCH_NOT_BETWEEN_DUELS, f"this is {what}: siding and choosing happen between duels")
            return None
        return rec

    async def _side(self, session: Session, seat: int, msg: SideDeck) -> None:
        rec = await self._between(session)
        if rec is None:
            return
        registered = rec.registered[seat]
        try:
            deck, side = check_swap(
                (list(registered.deck), list(registered.side)), msg.deck, msg.side, rec.settings.fmt
            )
        except DeckError as exc:
            # to the sender only, about its own cards; the log line names no card
            log.info("side_refused", match_id=rec.match_id, seat=seat, duel=rec.current)
            session.error(E.DECK_INVALID, f"that swap is refused, nothing changed: {exc}")
            return
        done = await self.play.side(rec.match_id, seat, S.SeatDeck(tuple(deck), tuple(side)))
        if done is None:
            session.error(E.MATCH_NOT_BETWEEN_DUELS, "the next duel has started: siding is over")

    async def _choose(self, session: Session, seat: int, msg: ChooseFirst) -> None:
        rec = await self._between(session)
        if rec is None:
            return
        if rec.chooser != seat:
            session.error(E.MATCH_NOT_CHOOSER, "the loser of the last duel chooses who goes first")
            return
        if await self.play.choose(rec.match_id, seat, msg.go_first) is None:
            session.error(E.MATCH_NOT_BETWEEN_DUELS, "the next duel has started: the choice is over")

    async def _concede_duel(self, session: Session, seat: int, msg: ConcedeDuel) -> None:
        """The current duel only: appended as ``{"do": "concede"}`` under ``duel:<id>`` (the log says
        it was the duel's), answered under the client's id."""
        cid = msg.client_action_id
        act = Act(client_action_id=S.DUEL_CONCESSION_PREFIX + cid, expected_seq=0, action={"do": "concede"})

        def reply(answer: ServerMessage | bytes) -> None:
            if isinstance(answer, Accepted | Rejected):
                answer = dataclasses.replace(answer, client_action_id=cid)
            session.send(answer)

        assert session.match_id is not None
        await self.play.service.submit(session.match_id, seat, act, reply)

    async def intercept(self, session: Session, seat: int, act: Act) -> bool:
        """An ``action`` the duel does not take: True if it was answered here. A client action id
        of the server's own (``duel:``, a duel's concession) is refused; ``{"do": "concede"}``
        between two duels concedes the match (answered ``accepted`` with the last duel's seq)."""
        if act.client_action_id.startswith(S.DUEL_CONCESSION_PREFIX):
            prefix = S.DUEL_CONCESSION_PREFIX
            session.error(E.MESSAGE_BAD_FIELD, f"client action ids starting with {prefix!r} are the server's")
            return True
        if session.series is None or act.action.get("do") != "concede":
            return False
        rec = await self.play.record(session.series)
        if rec is None or rec.phase != S.SIDING:
            return False
        done = await self.play.concede(rec.match_id, seat)
        seq = await self.play.store.last_seq(rec.watch_id)
        if done is None:
            session.send(Rejected(act.client_action_id, E.MATCH_FINISHED, "the match is over", seq))
        else:
            log.info("match_conceded", match_id=rec.match_id, seat=seat, duel=rec.current)
            session.send(Accepted(act.client_action_id, seq))
        return True

    async def _get(self, session: Session, msg: GetMatch) -> None:
        info = await self.play.directory.get(msg.match_id)
        if info is None or info.best_of <= 1:
            session.error(E.MATCH_NOT_FOUND, f"no match of several duels {msg.match_id}")
            return
        rec = await self.play.record(info.match_id_of_series)
        if rec is None:
            session.error(E.MATCH_NOT_STARTED, "the match's first duel has not started")
            return
        mine = session.series == rec.match_id and session.watcher is not None
        seat = session.watcher.seat if mine and session.watcher is not None else None
        if not info.spectators and seat is None:
            session.error(E.SESSION_UNAUTHORIZED, "this match is for its players only")
            return
        session.send(self.play.state_for(rec, seat))
