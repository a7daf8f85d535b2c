"""Error codes and close codes of the wire protocol.

Every error the server reports carries one of the namespaced codes below.
The namespace tells who is at fault and what the client should do:

* ``frame/*``   -- the bytes could not be read as a message (client bug).
* ``message/*`` -- the bytes decoded, but are not a valid message (client bug).
* ``session/*`` -- handshake, authentication, authorization.
* ``action/*``  -- a duel action was refused; nothing was appended.
* ``match/*``   -- the match does not exist, is full, is not started, ...
* ``deck/*``    -- a decklist was refused.
* ``account/*`` -- registering, logging in, or what needs an account (rated matches).
* ``rate/*``    -- the client is sending too fast, or its address has made too many
                   matches (a minute's worth, or too many waiting at once).
* ``server/*``  -- the server failed; the client may retry the same request.

None of these codes ever changes the match: an error means nothing was
appended to the log.  PROTOCOL.md lists them with their meaning.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Final

# frame/*: the bytes are not a message
FRAME_MALFORMED: Final = "frame/malformed"
FRAME_TOO_LARGE: Final = "frame/too_large"
FRAME_NOT_BINARY: Final = "frame/not_binary"

# message/*: a decoded map that is not a valid message
MESSAGE_UNKNOWN_TYPE: Final = "message/unknown_type"
MESSAGE_BAD_FIELD: Final = "message/bad_field"
MESSAGE_UNEXPECTED: Final = "message/unexpected"

# session/*
SESSION_UNSUPPORTED_VERSION: Final = "session/unsupported_version"
SESSION_HELLO_REQUIRED: Final = "session/hello_required"
SESSION_UNAUTHORIZED: Final = "session/unauthorized"
SESSION_SPECTATOR: Final = "session/spectator"
SESSION_NOT_IN_MATCH: Final = "session/not_in_match"
SESSION_ALREADY_IN_MATCH: Final = "session/already_in_match"

# action/*
ACTION_ILLEGAL: Final = "action/illegal"
ACTION_MALFORMED: Final = "action/malformed"
ACTION_NOT_YOUR_PRIORITY: Final = "action/not_your_priority"
ACTION_STALE: Final = "action/stale"
ACTION_ID_REUSED: Final = "action/id_reused"

# match/*
MATCH_NOT_FOUND: Final = "match/not_found"
MATCH_FULL: Final = "match/full"
MATCH_NOT_STARTED: Final = "match/not_started"
MATCH_FINISHED: Final = "match/finished"
MATCH_NOT_FINISHED: Final = "match/not_finished"
MATCH_EXPIRED: Final = "match/expired"

MATCH_RATED_REFUSED: Final = "match/rated_refused"
MATCH_NOT_BETWEEN_DUELS: Final = "match/not_between_duels"
MATCH_NOT_CHOOSER: Final = "match/not_chooser"

# deck/*
DECK_INVALID: Final = "deck/invalid"
DECK_TOO_MANY: Final = "deck/too_many"

# account/*
ACCOUNT_NAME_TAKEN: Final = "account/name_taken"
ACCOUNT_BAD_LOGIN: Final = "account/bad_login"
ACCOUNT_BAD_TOKEN: Final = "account/bad_token"
ACCOUNT_REQUIRED: Final = "account/required"
ACCOUNT_NOT_FOUND: Final = "account/not_found"
ACCOUNT_LOGGED_IN: Final = "account/logged_in"

# replay/*
REPLAY_INVALID: Final = "replay/invalid"
REPLAY_TOO_LARGE: Final = "replay/too_large"
REPLAY_BUSY: Final = "replay/busy"

# rate/*
RATE_LIMITED: Final = "rate/limited"
RATE_CREATE_LIMITED: Final = "rate/create_limited"
RATE_TOO_MANY_WAITING: Final = "rate/too_many_waiting"
RATE_LOGIN_LIMITED: Final = "rate/login_limited"

# server/*
SERVER_UNAVAILABLE: Final = "server/unavailable"
SERVER_INTERNAL: Final = "server/internal"
SERVER_BUSY: Final = "server/busy"

ALL_CODES: Final = frozenset(
    {
        FRAME_MALFORMED,
        FRAME_TOO_LARGE,
        FRAME_NOT_BINARY,
        MESSAGE_UNKNOWN_TYPE,
        MESSAGE_BAD_FIELD,
        MESSAGE_UNEXPECTED,
        SESSION_UNSUPPORTED_VERSION,
        SESSION_HELLO_REQUIRED,
        SESSION_UNAUTHORIZED,
        SESSION_SPECTATOR,
        SESSION_NOT_IN_MATCH,
        SESSION_ALREADY_IN_MATCH,
        ACTION_ILLEGAL,
        ACTION_MALFORMED,
        ACTION_NOT_YOUR_PRIORITY,
        ACTION_STALE,
        ACTION_ID_REUSED,
        MATCH_NOT_FOUND,
        MATCH_FULL,
        MATCH_NOT_STARTED,
        MATCH_FINISHED,
        MATCH_NOT_FINISHED,
        MATCH_EXPIRED,
        MATCH_RATED_REFUSED,
        MATCH_NOT_BETWEEN_DUELS,
        MATCH_NOT_CHOOSER,
        DECK_INVALID,
        DECK_TOO_MANY,
        ACCOUNT_NAME_TAKEN,
        ACCOUNT_BAD_LOGIN,
        ACCOUNT_BAD_TOKEN,
        ACCOUNT_REQUIRED,
        ACCOUNT_NOT_FOUND,
        ACCOUNT_LOGGED_IN,
        REPLAY_INVALID,
        REPLAY_TOO_LARGE,
        REPLAY_BUSY,
        RATE_LIMITED,
        RATE_CREATE_LIMITED,
        RATE_TOO_MANY_WAITING,
        RATE_LOGIN_LIMITED,
        SERVER_UNAVAILABLE,
        SERVER_INTERNAL,
        SERVER_BUSY,
    }
)


class CloseCode(IntEnum):
    """WebSocket close codes the server uses (RFC 6455 section 7.4)."""

    NORMAL = 1000
    GOING_AWAY = 1001  # the server is draining (SIGTERM): reconnect elsewhere/later
    PROTOCOL_ERROR = 1002  # broken websocket framing (closed by the websocket layer)
    POLICY_VIOLATION = 1008  # repeated rate-limit or protocol violations
    MESSAGE_TOO_BIG = 1009  # a frame above the hard limit (websockets max_size)
    INTERNAL_ERROR = 1011
    SERVICE_RESTART = 1012  # the server restarts; reconnect with your token
    TRY_AGAIN_LATER = 1013  # the client read too slowly; its outgoing queue overflowed
    # application codes (4000-4999)
    UNSUPPORTED_VERSION = 4002  # no common protocol version at hello
    UNAUTHORIZED = 4001  # a bad token at reconnect
    HELLO_TIMEOUT = 4003  # no hello within the handshake timeout
    TAKEN_OVER = 4004  # another connection took this seat over with the same token


class ProtocolError(Exception):
    """The peer sent something the protocol does not allow.

    ``code`` is one of the namespaced codes above; ``reason`` is a short,
    human-readable sentence that never contains hidden game information.
    """

    def __init__(self, code: str, reason: str) -> None:
        super().__init__(f"{code}: {reason}")
        self.code = code
        self.reason = reason
