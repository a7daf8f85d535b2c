"""Accounts and the rated ladder (issue 39): registering and logging in over the protocol
(``passwords``: argon2id off the event loop; ``sessions``: signed, expiring, revocable tokens;
``store``: the accounts in Redis; ``limits``: attempts per connection, address and name), the
ratings (``ratings``: openskill's Weng-Lin model on Glicko's scale; ``ladder``: per account and
format in Redis, each finished rated match applied once), rated matches from start to rating
(``rated``), the decks kept with an account (``decks``), and the requests (``desk``). :func:`build`
makes them for a server process."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from server.accounts.decks import AccountDecks
from server.accounts.desk import AccountDesk, ConnectionLogin, Refused
from server.accounts.ladder import Ladder
from server.accounts.limits import AccountSettings
from server.accounts.passwords import Passwords
from server.accounts.rated import RatedMatches
from server.accounts.sessions import SessionTokens
from server.accounts.store import AccountStore

if TYPE_CHECKING:
    import redis.asyncio as aioredis

    from server.match.directory import MatchDirectory
    from server.match.matches import MatchService
    from server.runtime.metrics import Metrics
    from server.storage.store import RedisEventStore

__all__ = ["AccountDesk", "AccountServices", "AccountSettings", "ConnectionLogin", "Ladder", "Refused", "build"]


@dataclass(frozen=True, slots=True)
class AccountServices:
    desk: AccountDesk
    ladder: Ladder
    rated: RatedMatches
    passwords: Passwords


def build(
    client: aioredis.Redis,
    directory: MatchDirectory,
    events: RedisEventStore,
    service: MatchService,
    metrics: Metrics,
    secret: bytes,
    settings: AccountSettings,
) -> AccountServices:
    """The accounts' services of one server process; the match service tells ``rated`` of each end."""
    ladder = Ladder(client)
    passwords = Passwords(settings.hash_threads, settings.hash_queue)
    decks = AccountDecks(client)
    desk = AccountDesk(
        AccountStore(client), ladder, passwords, SessionTokens(secret), directory, events, metrics, settings, decks
    )
    rated = RatedMatches(
        client,
        ladder,
        directory,
        events,
        service,
        metrics,
        delay=settings.rating_delay,
        every=settings.rated_sweep_every,
        grace=settings.rated_grace,
    )
    service.ended = rated.ended
    return AccountServices(desk, ladder, rated, passwords)
