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


BELL_PATTERN = "match:{*}:bell"
_BELL_RE = re.compile(r"match:\{([A-Za-z0-9_-]{1,64})\}:bell")


def match_of_bell(channel: str) -> str | None:
    m = _BELL_RE.fullmatch(channel)
    return m.group(1) if m else None


LOBBY_MATCHES = "lobby:matches"
"""ZSET of match ids by creation time (ms)."""

LOBBY_QUICK = "lobby:quick"
"""LIST of match ids waiting for a quick-match opponent."""
