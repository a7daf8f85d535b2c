"""Redis key names.  Every key of a match carries the match id as a hash tag
(``{...}``) so that, on Redis Cluster, all of a match's keys live in one slot
and the append script may touch them together.  Lobby keys are global and are
never touched by the append script."""

from __future__ import annotations

import re
import secrets

MATCH_ID_RE = re.compile(r"[A-Za-z0-9_-]{1,64}")


def new_match_id() -> str:
    """A fresh random match id: 12 URL-safe characters, never starting with
    ``-`` (so that it can be passed on a command line: ``duel replay ID``)."""
    while True:
        match_id = secrets.token_urlsafe(9)
        if not match_id.startswith("-"):
            return match_id


def check_match_id(match_id: str) -> str:
    if not MATCH_ID_RE.fullmatch(match_id):
        raise ValueError(f"bad match id {match_id!r}")
    return match_id


def log_key(match_id: str) -> str:
    """STREAM: the match's event log; entry IDs are ``<seq>-0``."""
    return f"match:{{{check_match_id(match_id)}}}:log"


def actions_key(match_id: str) -> str:
    """HASH: ``<seat>:<client_action_id>`` -> seq of the entry it produced."""
    return f"match:{{{check_match_id(match_id)}}}:actions"


def meta_key(match_id: str) -> str:
    """HASH: status, seats taken, decks, options, created time."""
    return f"match:{{{check_match_id(match_id)}}}:meta"


def bell_channel(match_id: str) -> str:
    """Pub/sub channel: the seq of every new entry (a doorbell, not the data)."""
    return f"match:{{{check_match_id(match_id)}}}:bell"


def snapshots_key(match_id: str) -> str:
    """HASH: ``<seq>`` -> a snapshot of the folded state after that entry (server.match.snapshots)."""
    return f"match:{{{check_match_id(match_id)}}}:snap"


def sealed_key(match_id: str) -> str:
    """STRING: a finished match's entries but the last, compressed (server.storage.store, ``seal``)."""
    return f"match:{{{check_match_id(match_id)}}}:sealed"


def sealing_key(match_id: str) -> str:
    """STREAM, for a moment: the log's last entry, built aside while the log is sealed, then
    renamed over the log (server.storage.store, ``seal``)."""
    return f"match:{{{check_match_id(match_id)}}}:sealing"


def series_key(match_id: str) -> str:
    """HASH: a match of several duels (server.match.series): ``v``, the record's version (each
    change is a compare-and-set on it), and ``rec``, the record (msgpack)."""
    return f"match:{{{check_match_id(match_id)}}}:series"


def duel_id(match_id: str, number: int) -> str:
    """The id of duel ``number`` of a match: its first duel is the match's own id (its log is the
    match's log, as a match of one duel has), duel N > 1 ``<match id>-N`` (a log and a meta of its
    own; never a match id the server makes: those are 12 characters)."""
    return match_id if number == 1 else check_match_id(f"{match_id}-{number}")


def match_keys(match_id: str) -> list[str]:
    """Every key that holds a match's data (all in the match's hash slot)."""
    return [
        log_key(match_id),
        actions_key(match_id),
        meta_key(match_id),
        snapshots_key(match_id),
        sealed_key(match_id),
        sealing_key(match_id),
        series_key(match_id),
    ]


BELL_PATTERN = "match:{*}:bell"
"""Every match's bell (tools that watch them all; a server process subscribes to the bell of
each match it holds, server.match.fanout)."""


def process_channel(process_id: str) -> str:
    """A channel of one server process's own: nothing is published on it; its subscription
    keeps a redis-py subscriber connection open while the process holds no match."""
    return f"process:{{{process_id}}}"


_BELL_RE = re.compile(r"match:\{([A-Za-z0-9_-]{1,64})\}:bell")


def match_of_bell(channel: str) -> str | None:
    m = _BELL_RE.fullmatch(channel)
    return m.group(1) if m else None


# The lobby: every cross-match key shares the hash tag {lobby}, so that on Redis Cluster they
# live in one slot and one script may touch them together (the quick-match pairing).

LOBBY_MATCHES = "lobby:{lobby}:matches"
"""ZSET of waiting and live match ids by creation time (ms)."""

LOBBY_WAITING = "lobby:{lobby}:waiting"
"""ZSET of the match ids created and not known to have started, by creation time (ms): what
the expiry of waiting matches looks at (server.lobby.expiry), tidied as it goes."""

LOBBY_FINISHED = "lobby:{lobby}:finished"
"""ZSET of finished match ids by the time they finished (ms): the match history."""

SEALS_PENDING = "lobby:{lobby}:seals"
"""ZSET of finished match ids whose log is still to be sealed, by when it is due (ms): a seal
overdue there (its process stopped first) is done by any process's sweep (server.match.sealing)."""

SERIES_OPEN = "lobby:{lobby}:series:open"
"""ZSET of the matches of several duels not over yet, by when their first duel started (ms): what
the watch for players who left looks at (server.match.matchplay.Drops)."""

SERIES_ABSENT = "lobby:{lobby}:series:absent"
"""HASH: ``<duel id>:<seat>`` -> when the seat of a live duel of a match of several duels was first
seen without a connection (ms); a seat gone longer than the grace concedes (server.match.matchplay.Drops)."""

QUICK_QUEUE = "lobby:{lobby}:quick"
"""ZSET of match ids waiting for a quick-match opponent, by the time they started waiting."""

QUICK_ALIVE = "lobby:{lobby}:quick:alive"
"""HASH match id -> ms until which its waiting player counts as connected (refreshed)."""

QUICK_WAITER = "lobby:{lobby}:quick:waiter"
"""HASH match id -> msgpack of what it takes to create the waiting player's match."""

QUICK_JOINER = "lobby:{lobby}:quick:joiner"
"""HASH match id -> msgpack of the player paired with it (either server completes the join)."""


QUICK_RATED_SINCE = "lobby:{lobby}:quick:rated:since"
"""HASH match id -> ms since which its rated quick-match player has waited (what widens its window)."""


QUICK_RATED_ACCOUNT = "lobby:{lobby}:quick:rated:account"
"""HASH match id -> the account of its waiting rated quick-match player (never paired with itself)."""


def rated_queue_key(fmt: str) -> str:
    """ZSET of the match ids of rated quick-match players of format ``fmt`` waiting for an
    opponent, by rating (server.lobby.rated_queue)."""
    if not re.fullmatch(r"[a-z0-9-]{1,32}", fmt):
        raise ValueError(f"bad format {fmt!r}")
    return f"lobby:{{lobby}}:quick:rated:{fmt}"


def quick_request_key(request_id: str) -> str:
    """STRING (expires): the outcome of a quick-match request, ``wait:<id>`` or ``join:<id>``."""
    return f"lobby:{{lobby}}:quick:req:{request_id}"


PROCESSES = "duel:processes"
"""ZSET of server process ids by their last heartbeat (ms): seats held by a process whose
heartbeat stopped count as disconnected."""


# Accounts and the rated ladder (server.accounts): every key shares the hash tag {accounts}, so
# that on Redis Cluster they live in one slot and one script may touch both players' ratings,
# the leaderboard and the record that a match's update was applied, together.

ACCOUNT_ID_RE = re.compile(r"[A-Za-z0-9_-]{16}")
FORMAT_RE = re.compile(r"[a-z0-9-]{1,32}")

ACCOUNT_NAMES = "accounts:{accounts}:names"
"""HASH: an account name's key (NFKC, casefolded) -> the account's id."""


def _account(account_id: str) -> str:
    if not ACCOUNT_ID_RE.fullmatch(account_id):
        raise ValueError(f"bad account id {account_id!r}")
    return account_id


def _format(fmt: str) -> str:
    if not FORMAT_RE.fullmatch(fmt):
        raise ValueError(f"bad format {fmt!r}")
    return fmt


def account_key(account_id: str) -> str:
    """HASH: ``name`` (as registered), ``hash`` (argon2id), ``created_ms``."""
    return f"accounts:{{accounts}}:acct:{_account(account_id)}"


def account_sessions_key(account_id: str) -> str:
    """HASH: session id -> when it expires (ms); a session token whose id is not here is revoked."""
    return f"accounts:{{accounts}}:acct:{_account(account_id)}:sessions"


def account_matches_key(account_id: str) -> str:
    """ZSET: the matches the account sat in (logged in), by creation time (ms)."""
    return f"accounts:{{accounts}}:acct:{_account(account_id)}:matches"


def account_decks_key(account_id: str) -> str:
    """HASH: deck id -> a deck kept with the account (JSON: server.accounts.decks)."""
    return f"accounts:{{accounts}}:acct:{_account(account_id)}:decks"


def login_failures_key(name_digest: str) -> str:
    """STRING (expires): failed logins of one account name (its key's SHA-256, hex) in the window."""
    if not re.fullmatch(r"[0-9a-f]{64}", name_digest):
        raise ValueError("bad name digest")
    return f"accounts:{{accounts}}:fail:{name_digest}"


def ratings_key(fmt: str) -> str:
    """HASH: account id -> its rating in format ``fmt`` (JSON: server.accounts.ratings)."""
    return f"accounts:{{accounts}}:ladder:{_format(fmt)}:ratings"


def board_key(fmt: str) -> str:
    """ZSET: account id by its ladder score in format ``fmt`` (the leaderboard)."""
    return f"accounts:{{accounts}}:ladder:{_format(fmt)}:board"


RATINGS_APPLIED = "accounts:{accounts}:ladder:applied"
"""HASH: match id -> the rating update it made (JSON), written with the new ratings in one script:
a match is rated once."""

RATED_OPEN = "accounts:{accounts}:ladder:open"
"""ZSET: rated matches whose update is not applied yet, by when they were registered (ms)."""

RATING_LOG = "accounts:{accounts}:ladder:log"
"""STREAM: every rating update applied (match id, accounts, before and after), in order."""

RATED_ABSENT = "accounts:{accounts}:ladder:absent"
"""HASH: ``<match id>:<seat>`` -> when the seat of a live rated match was first seen without a
connection (ms); a seat gone longer than the grace concedes (server.accounts.rated)."""
