"""Casual quick match on one connection: ask, then be paired or wait.

The queue and its pairing are server.lobby.quick's; this is what a session does with them. A
``quick_match`` is paired at once with a player waiting in the same format's queue (it takes seat
1 of that player's match), or waits in a match of its own (seat 0), its connection kept marked as
connected; if the player it is paired with never takes seat 1 (their server died), its own
server takes it for them. Rated quick match is server.process.rated_quick's, which makes its
matches here too (``create``).
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

import structlog

from protocol import errors as E
from protocol.messages import SIDE_MS_DEFAULT, QuickMatch
from server.lobby.decks import deck_or_demo, format_named
from server.lobby.quick import REFRESH_S, Entrant
from server.lobby.siding import check_registered
from server.process.matchdesk import series_fields
from server.storage.redisconn import REDIS_DOWN, raise_if_cancelled

if TYPE_CHECKING:
    from server.process.session import Session

log = structlog.get_logger("duel.session")


async def request(s: Session, msg: QuickMatch) -> None:
    """``quick_match``: checked (the format, the deck, the address's limits) before anything is
    written, then paired with a waiting player of the same format, or queued."""
    if not s._free():
        return
    fmt = format_named(msg.format).name  # an unknown format is refused (deck/invalid), as by create_match
    deck = deck_or_demo(msg.deck, 1, fmt)
    side = check_registered(deck, msg.side, fmt)
    me = Entrant(s._request_id(msg.request_id), deck, msg.name, fmt, side=side)
    own_match_id = s.services.tokens.match_id_for(me.request_id)
    if not await s._may_create(own_match_id):  # it may have to wait in a match of its own
        return
    pairing = await s.services.quick.pair(me, own_match_id)
    if pairing.outcome == "wait":
        await create(s, pairing.match_id, me)
        s.services.creations.made(s.address, pairing.match_id)
        await s._seat(pairing.match_id, 0)
        lm = s.services.service.cached(pairing.match_id)
        if lm is None or not lm.started:
            s._quick_format = fmt
            s._waiting = asyncio.create_task(_wait_for_opponent(s, pairing.match_id, me))
        return
    waiter = pairing.waiter or await s.services.quick.waiter(pairing.match_id)
    if waiter is not None:  # its server may not have got to create the match yet
        await create(s, pairing.match_id, waiter)
    outcome = await s.services.directory.join(pairing.match_id, me.request_id, me.deck, me.name, side1=me.side)
    if outcome in ("notfound", "full"):  # pragma: no cover - the pairing reserved seat 1 for us
        s.error(E.MATCH_FULL, "the match you were paired with is gone; send quick_match again")
        return
    names = await s.services.service.refresh_presence(pairing.match_id)
    await s._start(pairing.match_id)
    await s._seat(pairing.match_id, 1, s._known(pairing.match_id, names))
    await s.services.quick.done(pairing.match_id)


async def create(s: Session, match_id: str, waiter: Entrant, *, rated: bool = False) -> None:
    """The quick match of ``waiter`` (made once, whoever gets there first): the format's usual
    match (``best_of``: Goat plays best of 3). ``rated``: on the ladder under the waiter's
    account (rated once, on the match's result: server.process.rated_quick)."""
    best_of = format_named(waiter.format).best_of
    await s.services.directory.create(
        match_id,
        waiter.request_id,
        waiter.deck,
        spectators=True,
        quick=True,
        name=waiter.name,
        fmt=waiter.format,
        rated=rated,
        account=waiter.account if rated else "",
        series=series_fields(best_of, waiter.side, SIDE_MS_DEFAULT, "duel"),
    )


async def _wait_for_opponent(s: Session, match_id: str, me: Entrant) -> None:
    """While this player waits in the quick-match queue: keep it marked as connected,
    and if a paired player's server never took seat 1 (it crashed), take it for them."""
    while True:
        await asyncio.sleep(REFRESH_S)
        try:
            lm = s.services.service.cached(match_id)
            if lm is not None and lm.started:
                return
            if await s.services.quick.still_waiting(match_id, me.format):
                continue
            joiner = await s.services.quick.joiner(match_id)
            if joiner is None:
                await s.services.quick.requeue(me, match_id)  # our entry lapsed: wait again
                continue
            joined = await s.services.directory.join(
                match_id, joiner.request_id, joiner.deck, joiner.name, side1=joiner.side
            )
            if joined != "full":
                await s._start(match_id)
                await s.services.quick.done(match_id)
                log.info("quick_pairing_completed", match_id=match_id, session=s.id)
        except REDIS_DOWN:
            raise_if_cancelled()
            log.warning("quick_wait_redis_unavailable", match_id=match_id, session=s.id)
