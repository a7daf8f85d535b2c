"""Rated quick match on one connection: ask, wait, be paired (or move), come back.

The queue and its pairing are server.lobby.rated_queue's; this is what a session does with them.
A ``quick_match {rated: true}`` from a logged-in connection is paired at once with a waiting
player whose rating is close enough (it takes seat 1 of that player's match, as a casual quick
match does), or waits in a rated match of its own (seat 0). While it waits, its server looks again
every ``RatedWindow.tick`` seconds (the window widens with the wait): when the script pairs it
then, this connection **moves**: its own match, which nobody else can join (it left the queue in
the same step, and a rated quick match is not joined by id), is deleted, and the connection takes
seat 1 of the other player's match (a second ``seated``). A waiting player whose connection comes
back (``reconnect`` with its token) waits again, as long as before.
"""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING

import structlog

from protocol import errors as E
from protocol.messages import QuickMatch
from server.lobby.decks import deck_or_demo, format_named
from server.lobby.quick import Entrant, Pairing
from server.lobby.siding import check_registered
from server.match.directory import WAITING, MatchInfo
from server.process import casual_quick
from server.storage.redisconn import REDIS_DOWN, raise_if_cancelled

if TYPE_CHECKING:
    from server.process.session import Session

log = structlog.get_logger("duel.rated_quick")


def _now_ms() -> int:
    return int(time.time() * 1000)


async def request(s: Session, msg: QuickMatch) -> None:
    """``quick_match {rated: true}``: checked (an account, the format, the deck, the address's
    limits) before anything is written, then paired or queued."""
    if not s._free():
        return
    sv = s.services
    account = await sv.accounts.for_rated_quick(s.login)
    fmt = format_named(msg.format).name
    deck = deck_or_demo(msg.deck, 1, fmt)
    side = check_registered(deck, msg.side, fmt)
    me = Entrant(s._request_id(msg.request_id), deck, msg.name, fmt, account, rated=True, side=side)
    own = sv.tokens.match_id_for(me.request_id)
    if not await s._may_create(own):  # it may have to wait in a match of its own
        return
    rating = (await sv.accounts.ladder.rating(account, fmt)).rating
    pairing = await sv.rated_quick.pair(me, own, rating)
    if pairing.outcome == "wait":
        await casual_quick.create(s, pairing.match_id, me, rated=True)
        sv.creations.made(s.address, pairing.match_id)
        await s._seat(pairing.match_id, 0)
        await sv.accounts.seated(account, pairing.match_id)
        _wait(s, pairing.match_id, me)
        log.info("rated_quick_waiting", match_id=pairing.match_id, format=fmt, rating=round(rating, 1))
        return
    if not await _join(s, pairing, me):  # pragma: no cover - the pairing reserved seat 1 for us
        s.error(E.MATCH_FULL, "the match you were paired with is gone; send quick_match again")


async def reconnected(s: Session, info: MatchInfo, seat: int) -> None:
    """A waiting rated quick-match player took its seat back: it waits in the queue again (it left
    it when its connection closed), as long as it had waited."""
    sv = s.services
    if not (info.rated and info.quick and seat == 0 and info.status == WAITING) or s._waiting is not None:
        return
    lm = sv.service.cached(info.match_id)
    request_id = await sv.rated_quick.seat_request(info.match_id)
    if (lm is not None and lm.started) or request_id is None or info.decks[0] is None:
        return
    me = Entrant(request_id, info.decks[0], info.names[0], info.format, info.accounts[0], rated=True)
    rating = (await sv.accounts.ladder.rating(me.account, me.format)).rating
    pairing = await sv.rated_quick.requeue(me, info.match_id, rating, info.created_ms)
    if pairing.outcome == "join" and await _move(s, info.match_id, pairing, me, rating) is None:
        return
    _wait(s, info.match_id, me)


async def _join(s: Session, pairing: Pairing, me: Entrant, *, moving: bool = False) -> bool:
    """Take seat 1 of the paired player's match (made first if its server has not yet); False if
    it is gone. ``moving``: this connection waits in a match of its own, deleted once seat 1 is
    ours (it left the queue with the pairing, and a rated quick match is not joined by id)."""
    sv = s.services
    match_id = pairing.match_id
    waiter = pairing.waiter or await sv.quick.waiter(match_id)
    if waiter is not None:
        await casual_quick.create(s, match_id, waiter, rated=True)
    await sv.accounts.ladder.register(match_id, _now_ms())  # on the ladder before its first entry
    if await sv.directory.join(match_id, me.request_id, me.deck, me.name, me.account, me.side) in ("notfound", "full"):
        return False
    own, watcher = s.match_id, s.watcher
    if moving and own is not None:
        if watcher is not None:
            sv.service.detach(own, watcher)
        sv.connections.leave_seat(own, 0, s)
        s.match_id, s.watcher, s._waiting = None, None, None
        await sv.directory.release(own, 0, s.conn_id)
        await sv.directory.expire(own, _now_ms() + 1, 0, "")
    names = await sv.service.refresh_presence(match_id)
    await s._start(match_id)
    await s._seat(match_id, 1, s._known(match_id, names))
    await sv.accounts.seated(me.account, match_id)
    await sv.quick.done(match_id)
    return True


def _wait(s: Session, match_id: str, me: Entrant) -> None:
    lm = s.services.service.cached(match_id)
    if lm is None or not lm.started:
        s._quick_format, s._quick_rated = me.format, True
        s._waiting = asyncio.create_task(_waiting(s, match_id, me))


async def _waiting(s: Session, match_id: str, me: Entrant) -> None:
    """While this player waits: keep it marked as connected, pair it as its window widens (it
    moves), and if a paired player's server never took seat 1 (it stopped), take it for them."""
    sv = s.services
    queue = sv.rated_quick
    while True:
        await asyncio.sleep(queue.window.tick)
        try:
            lm = sv.service.cached(match_id)
            if lm is not None and lm.started:
                return
            rating = (await sv.accounts.ladder.rating(me.account, me.format)).rating
            got = await queue.again(me, match_id, rating)
            if got is None:
                got = await _taken_or_lapsed(s, match_id, me, rating)
            while got is not None and got.outcome == "join":
                got = await _move(s, match_id, got, me, rating)
                if got is None:
                    return
        except REDIS_DOWN:
            raise_if_cancelled()
            log.warning("rated_quick_wait_redis_unavailable", match_id=match_id, session=s.id)
        except Exception:  # the next look tries again (every step is safe to run twice)
            raise_if_cancelled()
            log.exception("rated_quick_wait_failed", match_id=match_id, session=s.id)


async def _taken_or_lapsed(s: Session, match_id: str, me: Entrant, rating: float) -> Pairing | None:
    """The player is no longer queued: someone was paired with it (make sure their seat is taken),
    or its entry lapsed (queue it again; it may be paired at once)."""
    sv = s.services
    joiner = await sv.quick.joiner(match_id)
    if joiner is None:
        info = await sv.directory.get(match_id)
        if info is None or info.status != WAITING:
            return None
        return await sv.rated_quick.requeue(me, match_id, rating, info.created_ms)
    await sv.accounts.ladder.register(match_id, _now_ms())
    if await sv.directory.join(match_id, joiner.request_id, joiner.deck, joiner.name, joiner.account) != "full":
        await s._start(match_id)
        await sv.quick.done(match_id)
        log.info("quick_pairing_completed", match_id=match_id, session=s.id)
    return None


async def _move(s: Session, own: str, pairing: Pairing, me: Entrant, rating: float) -> Pairing | None:
    """The script paired this waiting player with another waiting one: it takes seat 1 of theirs
    and its own match is deleted. None once moved; if their match is gone, the player waits again
    in its own (the pairing that gives)."""
    sv = s.services
    if not await _join(s, pairing, me, moving=True):
        info = await sv.directory.get(own)
        return await sv.rated_quick.requeue(me, own, rating, info.created_ms if info is not None else _now_ms())
    log.info("rated_quick_moved", left=own, match_id=pairing.match_id, session=s.id)
    return None
