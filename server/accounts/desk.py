"""The accounts' requests over the protocol, and what rated matches ask of the lobby.

A connection has one :class:`Login` (server.process.session keeps it): the account it is logged in
as, if any, and its attempts bucket. :meth:`AccountDesk.handle` answers ``register``, ``login``,
``login_token``, ``logout``, ``get_ladder``, ``get_profile`` and ``get_history`` (each answer a
server message, each refusal :class:`Refused` with its error code); the ``for_*`` methods are the
checks the lobby makes for rated matches, and :meth:`seated` records a match in its account's
history.

Nothing here writes a password, a hash or a token into a log line, a metric, an error's reason or
a frame other than ``logged_in`` (which carries the session token to its own connection).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import structlog

from protocol import errors as E
from protocol.messages import (
    AccountRequest,
    DeleteDeck,
    GetHistory,
    GetLadder,
    GetProfile,
    LadderPage,
    ListDecks,
    LoggedIn,
    LoggedOut,
    Login,
    LoginToken,
    Logout,
    MatchList,
    Profile,
    Register,
    SaveDeck,
    ServerMessage,
)
from server import rules
from server.accounts.decks import AccountDecks, DeckRefused
from server.accounts.ladder import Ladder
from server.accounts.limits import AccountSettings, Attempts
from server.accounts.passwords import Busy, Passwords
from server.accounts.sessions import BadSession, SessionTokens, new_id
from server.accounts.store import Account, AccountStore
from server.match.directory import MatchDirectory, MatchInfo
from server.runtime.limits import TokenBucket
from server.runtime.metrics import Metrics
from server.storage.store import RedisEventStore

log = structlog.get_logger("duel.accounts")


class Refused(Exception):
    """An account request (or a rated match's check) is refused: an error code and a reason."""

    def __init__(self, code: str, reason: str) -> None:
        super().__init__(f"{code}: {reason}")
        self.code = code
        self.reason = reason


@dataclass(slots=True)
class ConnectionLogin:
    """One connection's login: the account (None: a guest), its session, its attempts."""

    bucket: TokenBucket
    account: Account | None = None
    session_id: str | None = None
    expires_ms: int = 0

    @property
    def account_id(self) -> str:
        return "" if self.account is None else self.account.account_id


def _now_ms() -> int:
    return int(time.time() * 1000)


class AccountDesk:
    def __init__(
        self,
        store: AccountStore,
        ladder: Ladder,
        passwords: Passwords,
        sessions: SessionTokens,
        directory: MatchDirectory,
        events: RedisEventStore,
        metrics: Metrics,
        settings: AccountSettings,
        decks: AccountDecks,
    ) -> None:
        self.store = store
        self.ladder = ladder
        self.passwords = passwords
        self.sessions = sessions
        self.directory = directory
        self.events = events
        self.metrics = metrics
        self.settings = settings
        self.attempts = Attempts(settings)
        self.decks = decks

    def connection(self) -> ConnectionLogin:
        return ConnectionLogin(self.attempts.connection_bucket())

    async def handle(self, msg: AccountRequest, login: ConnectionLogin, address: str) -> ServerMessage:
        if isinstance(msg, Register):
            return await self._register(msg, login, address)
        if isinstance(msg, Login):
            return await self._login(msg, login, address)
        if isinstance(msg, LoginToken):
            return await self._login_token(msg, login, address)
        if isinstance(msg, Logout):
            return await self._logout(msg, login)
        if isinstance(msg, GetLadder):
            return await self._ladder(msg)
        if isinstance(msg, GetProfile):
            return await self._profile(msg)
        if isinstance(msg, GetHistory):
            return await self._history(msg)
        return await self._decks(msg, login)

    # ------------------------------------------------------------ logging in

    def _attempt(self, login: ConnectionLogin, address: str, *, tokens_only: bool = False) -> None:
        if login.account is not None:
            raise Refused(E.ACCOUNT_LOGGED_IN, "this connection is logged in already: log out first")
        why = self.attempts.take(login.bucket, None if tokens_only else address)
        if why is not None:
            self.metrics.inc("duel_logins_total", outcome="limited")
            raise Refused(E.RATE_LOGIN_LIMITED, why)

    async def _hashing(self, work: Any) -> Any:
        try:
            return await work
        except Busy:
            self.metrics.inc("duel_logins_total", outcome="busy")
            raise Refused(E.SERVER_BUSY, "too many password checks at once; retry in a moment") from None

    async def _logged_in(self, login: ConnectionLogin, account: Account) -> LoggedIn:
        now = _now_ms()
        expires_ms = (now + int(self.settings.session_days * 86_400_000)) // 1000 * 1000
        session_id = new_id()
        await self.store.open_session(account.account_id, session_id, expires_ms, now)
        login.account, login.session_id, login.expires_ms = account, session_id, expires_ms
        token = self.sessions.issue(account.account_id, session_id, expires_ms)
        return LoggedIn(account.name, token, expires_ms)

    async def _register(self, msg: Register, login: ConnectionLogin, address: str) -> LoggedIn:
        self._attempt(login, address)
        taken = E.ACCOUNT_NAME_TAKEN, "an account has this name (names differ in more than case and width)"
        if await self.store.id_of(msg.name) is not None:
            raise Refused(*taken)
        password_hash = await self._hashing(self.passwords.hash(msg.password))
        account = Account(new_id(), msg.name, _now_ms())
        if not await self.store.register(account.account_id, account.name, password_hash, account.created_ms):
            raise Refused(*taken)
        self.metrics.inc("duel_accounts_registered_total")
        log.info("account_registered", account=account.account_id, name=account.name, address=address)
        return await self._logged_in(login, account)

    async def _login(self, msg: Login, login: ConnectionLogin, address: str) -> LoggedIn:
        self._attempt(login, address)
        s = self.settings
        from_here, everywhere = await self.store.failures(msg.name, address)
        if from_here >= s.name_failures or everywhere >= s.name_failures_all:
            self.metrics.inc("duel_logins_total", outcome="locked")
            raise Refused(
                E.RATE_LOGIN_LIMITED,
                f"too many failed logins for this name within {s.name_window:g} s: try again later",
            )
        found = await self.store.credentials(msg.name)
        if found is None:
            ok = await self._hashing(self.passwords.check_unknown(msg.password))
        else:
            ok = await self._hashing(self.passwords.check(found.hash, msg.password))
        if not ok or found is None:
            await self.store.failed(msg.name, address, int(s.name_window * 1000))
            self.metrics.inc("duel_logins_total", outcome="wrong")
            log.info("login_failed", name=msg.name, address=address)
            raise Refused(E.ACCOUNT_BAD_LOGIN, "wrong name or password")
        await self.store.clear_failures(msg.name, address)
        if self.passwords.needs_rehash(found.hash):
            await self.store.set_hash(found.account.account_id, await self._hashing(self.passwords.hash(msg.password)))
        self.metrics.inc("duel_logins_total", outcome="ok")
        log.info("logged_in", account=found.account.account_id, address=address)
        return await self._logged_in(login, found.account)

    async def _login_token(self, msg: LoginToken, login: ConnectionLogin, address: str) -> LoggedIn:
        # a signed token is no password guess: only the connection's own bucket (a page opens a
        # connection per screen and logs each in with its token)
        self._attempt(login, address, tokens_only=True)
        now = _now_ms()
        try:
            claim = self.sessions.verify(msg.token, now)
        except BadSession as exc:
            self.metrics.inc("duel_logins_total", outcome="bad_token")
            raise Refused(E.ACCOUNT_BAD_TOKEN, f"the session token is not valid ({exc})") from None
        account = await self.store.get(claim.account_id)
        if account is None or not await self.store.session_alive(claim.account_id, claim.session_id, now):
            self.metrics.inc("duel_logins_total", outcome="bad_token")
            raise Refused(E.ACCOUNT_BAD_TOKEN, "the session token was revoked (logout), or its account is gone")
        login.account, login.session_id, login.expires_ms = account, claim.session_id, claim.expires_ms
        self.metrics.inc("duel_logins_total", outcome="token")
        return LoggedIn(account.name, msg.token, claim.expires_ms)

    async def _logout(self, msg: Logout, login: ConnectionLogin) -> LoggedOut:
        if login.account is None:
            raise Refused(E.ACCOUNT_REQUIRED, "this connection is not logged in")
        await self.store.revoke(login.account.account_id, None if msg.everywhere else login.session_id)
        login.account, login.session_id, login.expires_ms = None, None, 0
        return LoggedOut()

    # ------------------------------------------------------------ the ladder and the history

    async def _ladder(self, msg: GetLadder) -> LadderPage:
        if msg.format not in rules.FORMATS:
            raise Refused(E.MESSAGE_BAD_FIELD, f"field 'format': no format {msg.format!r}")
        rows, total = await self.ladder.page(msg.format, msg.offset, msg.limit)
        names = await self.store.names([r.account_id for r in rows])
        out = [{"rank": r.rank, "name": names.get(r.account_id, ""), **r.rating.public()} for r in rows]
        after = msg.offset + len(rows)
        return LadderPage(msg.format, out, total, msg.offset, after if after < total else None)

    async def _account_named(self, name: str) -> Account:
        account_id = await self.store.id_of(name)
        account = None if account_id is None else await self.store.get(account_id)
        if account is None:
            raise Refused(E.ACCOUNT_NOT_FOUND, "no account has this name")
        return account

    async def _profile(self, msg: GetProfile) -> Profile:
        account = await self._account_named(msg.name)
        found = await self.ladder.standings(account.account_id, sorted(rules.FORMATS))
        ratings = [{"format": fmt, **rating.public(), "rank": rank} for fmt, rating, rank in found]
        return Profile(account.name, account.created_ms, ratings)

    async def _history(self, msg: GetHistory) -> MatchList:
        account = await self._account_named(msg.name)
        rows = []
        for match_id, _ms in await self.store.matches(account.account_id, msg.limit, msg.before_ms, msg.before_id):
            info = await self.directory.get(match_id)
            if info is None:  # expired while waiting, or deleted by retention
                await self.store.forget_match(account.account_id, match_id)
                continue
            seq = info.result["length"] if info.result is not None else await self.events.last_seq(match_id)
            row = info.public(seq)
            row["seat"] = 0 if info.accounts[0] == account.account_id else 1
            rows.append(row)
        return MatchList(rows)

    # ------------------------------------------------------------ decks kept with the account

    async def _decks(self, msg: SaveDeck | ListDecks | DeleteDeck, login: ConnectionLogin) -> ServerMessage:
        """The logged-in account's own decks (server.accounts.decks): no request names an account."""
        account_id = await self._current(login, "decks are kept with an account: register or log in first")
        try:
            if isinstance(msg, SaveDeck):
                return await self.decks.save(account_id, msg, _now_ms())
            if isinstance(msg, ListDecks):
                return await self.decks.shelf(account_id)
            return await self.decks.delete(account_id, msg)
        except DeckRefused as exc:
            raise Refused(exc.code, exc.reason) from None

    # ------------------------------------------------------------ what rated matches ask

    async def _current(self, login: ConnectionLogin, why: str) -> str:
        """The connection's account, its session still alive (not revoked since)."""
        account = login.account
        if account is None or login.session_id is None:
            raise Refused(E.ACCOUNT_REQUIRED, why)
        if not await self.store.session_alive(account.account_id, login.session_id, _now_ms()):
            login.account, login.session_id = None, None
            raise Refused(E.ACCOUNT_REQUIRED, "this connection's session was revoked or has expired: log in again")
        return account.account_id

    async def for_create(self, login: ConnectionLogin, rated: bool, opponent: str | None) -> str:
        """The account seat 0 is taken as ("": a guest); refuses a rated match it may not make."""
        if not rated:
            return login.account_id
        if opponent:
            raise Refused(E.MATCH_RATED_REFUSED, "a rated match is played by two accounts, not against the bot")
        return await self._current(login, "a rated match needs an account: register or log in first")

    async def for_rated_quick(self, login: ConnectionLogin) -> str:
        """The account a rated quick match is asked for (server.lobby.rated_queue pairs it)."""
        return await self._current(login, "a rated quick match needs an account: register or log in first")

    async def for_join(self, login: ConnectionLogin, info: MatchInfo | None) -> str:
        """The account seat 1 is taken as; for a rated match, the checks (an account, not seat 0's)
        and its registration on the ladder, before the seat is taken."""
        if info is None or not info.rated:
            return login.account_id
        if info.quick:
            raise Refused(E.MATCH_RATED_REFUSED, "a rated quick match's opponent is paired by rating: send quick_match")
        account_id = await self._current(login, "this match is rated: register or log in to join it")
        if account_id == info.accounts[0]:
            raise Refused(E.MATCH_RATED_REFUSED, "an account cannot play itself in a rated match")
        if info.status == "waiting":
            await self.ladder.register(info.match_id, _now_ms())
        return account_id

    def for_seat(self, login: ConnectionLogin, info: MatchInfo, seat: int) -> None:
        """A seat of a rated match is taken back (``reconnect``) by its own account only."""
        owner = info.accounts[seat]
        if info.rated and owner and login.account_id != owner:
            raise Refused(E.ACCOUNT_REQUIRED, "this seat of a rated match is its account's: log in as it first")

    async def seated(self, account_id: str, match_id: str) -> None:
        """Record a match in its account's history (a guest has none)."""
        if account_id:
            info = await self.directory.get(match_id)
            await self.store.note_match(account_id, match_id, info.created_ms if info is not None else _now_ms())
