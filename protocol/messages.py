"""Typed wire messages.

Every message is a frozen dataclass with a class-level ``type`` tag; on the
wire it is a msgpack map whose ``"type"`` key holds that tag and whose other
keys are the dataclass fields (see PROTOCOL.md).  Field constraints (string
lengths, integer ranges, list sizes) live in the field metadata and are
checked by :mod:`protocol.validate` when a frame is decoded.

Client messages are what a client may send; server messages are what the
server sends.  The two sets are disjoint by ``type``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeVar, dataclass_transform

from protocol.names import NAME_MAX

M = TypeVar("M")


@dataclass_transform(frozen_default=True, field_specifiers=(field,))
def message(cls: type[M]) -> type[M]:
    """A message class: a slotted dataclass, immutable by contract, not at run time. mypy takes
    it as frozen (assigning a field is a type error), but ``frozen=True``'s ``__init__`` sets
    each field through ``object.__setattr__``: an ``Update`` took 1.56 µs to make against
    0.57, and the server makes two per action, and more in a catch-up (the engine's facts are
    made the same way: ``engine.facts.fact``)."""
    return dataclass(slots=True)(cls)


Data = dict[str, Any]
"""A plain msgpack map with string keys (actions, facts, views)."""

PROTOCOL_VERSION = 1
SUPPORTED_VERSIONS: tuple[int, ...] = (1,)

ID_MAX = 64
TOKEN_MAX = 256
DECK_MAX = 100
MAX_SPECTATOR_DELAY = 1000
"""Largest spectator delay a match may ask for, in log entries."""


def _str(max_len: int, min_len: int = 1, pattern: str | None = None) -> dict[str, Any]:
    meta: dict[str, Any] = {"min_len": min_len, "max_len": max_len}
    if pattern is not None:
        meta["pattern"] = pattern
    return meta


def _int(lo: int, hi: int) -> dict[str, Any]:
    return {"min": lo, "max": hi}


MATCH_ID = _str(ID_MAX, pattern=r"[A-Za-z0-9_-]+")
NAME = {**_str(NAME_MAX, min_len=0), "display_name": True}
"""A display name: NFC, without control, format, separator, private-use or unassigned
characters (:mod:`protocol.names`)."""
REQUEST_ID = _str(ID_MAX, min_len=16, pattern=r"[A-Za-z0-9_-]+")
"""A client-chosen, unguessable id (at least 16 characters, e.g. 128 random bits in
base64url) that makes a lobby request safe to retry: the same request id gets the same
seat and token back. Whoever knows it can claim that seat, so keep it as secret as a
token."""
SEQ = _int(0, 2**53)
FORMAT = _str(32, pattern=r"[a-z0-9-]+")
"""A format's name (``current``, ``goat``: the ``cards`` message lists them; docs/formats.md)."""
PASSCODE_LIST = {"max_items": DECK_MAX, "min": 0, "max": 2**32}
SIDE_MAX = 30
SIDE_LIST = {"max_items": SIDE_MAX, "min": 0, "max": 2**32}
"""A Side Deck's passcodes (a format allows at most 15: engine.formats.DeckRules)."""
SIDE_MS_DEFAULT = 180_000

BOT_LEVELS = ("beginner", "quick", "normal", "strong")
"""How the server's bot opponent may play (``create_match.bot_level``): ``beginner`` uses its cards
greedily without looking ahead; ``quick``, ``normal`` and ``strong`` search for about 0.1, 0.5
and 1.5 s per decision (docs/search.md)."""
"""How long players may side deck between the duels of a match, unless ``create_match`` says."""
ACCOUNT_NAME_MIN = 3
PASSWORD_MIN = 8
PASSWORD_MAX = 128
ACCOUNT_NAME = {**_str(NAME_MAX, min_len=ACCOUNT_NAME_MIN, pattern=r"\S(?:.*\S)?"), "display_name": True}
"""An account's name: a display name (:mod:`protocol.names`) of 3 to 32 characters that neither
starts nor ends with a space. Two names that differ only in case or width (NFKC, casefolded) are
one account."""
DECK_ID = _str(32, pattern=r"[A-Za-z0-9_-]+")
"""A deck's id, chosen by the client (the web client's: 12 random characters); unique per account."""
DECK_NAME = {**_str(64, min_len=0), "display_name": True}
"""A deck's name: 0 to 64 characters, the rules of display names (:mod:`protocol.names`)."""
PASSWORD = _str(PASSWORD_MAX, min_len=PASSWORD_MIN)
"""A password: 8 to 128 characters (any; the server hashes its NFKC form). It appears in no frame
the server sends, no log line, no error reason and no metric."""


# --------------------------------------------------------------------------
# client -> server
# --------------------------------------------------------------------------


@message
class Hello:
    """First message of every connection: the protocol versions the client speaks."""

    type: ClassVar[str] = "hello"
    versions: list[int] = field(metadata={"min_items": 1, "max_items": 16, "min": 1, "max": 1000})
    client: str = field(default="", metadata={**_str(64, min_len=0), "display_name": True})


@message
class CreateMatch:
    """Create a match and take seat 0.  ``deck`` None means a demo deck.
    ``opponent="bot"``: the server seats its own bot in seat 1 at once.

    ``clock_ms`` (with ``increment_ms`` per decision) gives each seat a chess
    clock; None means no clock.  ``spectator_delay`` holds spectators that
    many log entries behind the live duel until it ends (0: live).  ``format``:
    the format the duel is played under (its rules, card pool, list and texts);
    both decks must be legal in it.  ``bot_level`` (with ``opponent="bot"``): how the
    server's bot plays (``BOT_LEVELS``; None: the server's default, a search of 0.5 s)."""

    type: ClassVar[str] = "create_match"
    deck: list[int] | None = field(default=None, metadata=PASSCODE_LIST)
    spectators: bool = True
    name: str = field(default="", metadata=NAME)
    request_id: str | None = field(default=None, metadata=REQUEST_ID)
    opponent: str | None = field(default=None, metadata=_str(16, pattern="bot"))
    clock_ms: int | None = field(default=None, metadata=_int(1_000, 24 * 3600 * 1000))
    increment_ms: int = field(default=0, metadata=_int(0, 10 * 60 * 1000))
    spectator_delay: int = field(default=0, metadata=_int(0, MAX_SPECTATOR_DELAY))
    format: str = field(default="current", metadata=FORMAT)
    rated: bool = False
    best_of: int = field(default=1, metadata=_int(1, 5))
    side: list[int] | None = field(default=None, metadata=SIDE_LIST)
    side_ms: int = field(default=SIDE_MS_DEFAULT, metadata=_int(10_000, 30 * 60 * 1000))
    clock_scope: str = field(default="duel", metadata=_str(8, pattern="duel|match"))
    bot_level: str | None = field(default=None, metadata=_str(16, pattern="|".join(BOT_LEVELS)))


@message
class Join:
    """Take the free seat (seat 1) of a waiting match; the duel then starts."""

    type: ClassVar[str] = "join"
    match_id: str = field(metadata=MATCH_ID)
    deck: list[int] | None = field(default=None, metadata=PASSCODE_LIST)
    name: str = field(default="", metadata=NAME)
    request_id: str | None = field(default=None, metadata=REQUEST_ID)
    side: list[int] | None = field(default=None, metadata=SIDE_LIST)


@message
class QuickMatch:
    """Pair with the next waiting player of the same ``format`` who is still connected, or wait
    for one; the match is played under that format (its deck rules apply to ``deck``).
    ``rated``: a rated match, paired by rating (a logged-in connection only; server.lobby.rated_queue)."""

    type: ClassVar[str] = "quick_match"
    deck: list[int] | None = field(default=None, metadata=PASSCODE_LIST)
    name: str = field(default="", metadata=NAME)
    request_id: str | None = field(default=None, metadata=REQUEST_ID)
    format: str = field(default="current", metadata=FORMAT)
    rated: bool = False
    side: list[int] | None = field(default=None, metadata=SIDE_LIST)


@message
class ListMatches:
    """Ask for matches: ``status`` "live" (waiting and running, to join or spectate) or
    "finished" (to replay), newest first; ``before_ms`` and ``before_id`` page back (the
    ``created_ms`` of the last live row, or the ``finished_ms`` of the last finished row, and
    its ``match_id``: rows strictly after it in that order, so rows of the same millisecond
    are neither skipped nor repeated)."""

    type: ClassVar[str] = "list_matches"
    status: str = field(default="live", metadata=_str(8, pattern="live|finished"))
    before_ms: int | None = field(default=None, metadata=_int(0, 2**53))
    limit: int = field(default=50, metadata=_int(1, 200))
    before_id: str | None = field(default=None, metadata=MATCH_ID)


@message
class Spectate:
    """Watch a match: public information only."""

    type: ClassVar[str] = "spectate"
    match_id: str = field(metadata=MATCH_ID)
    last_seq: int = field(default=0, metadata=SEQ)
    duel: int = field(default=1, metadata=_int(1, 5))


@message
class Reconnect:
    """Resume a seat with its token; ``last_seq`` is the last entry the client saw."""

    type: ClassVar[str] = "reconnect"
    token: str = field(metadata=_str(TOKEN_MAX))
    last_seq: int = field(default=0, metadata=SEQ)
    duel: int = field(default=1, metadata=_int(1, 5))


@message
class Act:
    """A duel action made against the state at ``expected_seq``.

    ``client_action_id`` is chosen by the client, unique per seat and match;
    re-sending the same id returns the original outcome and appends nothing.
    """

    type: ClassVar[str] = "action"
    client_action_id: str = field(metadata=_str(ID_MAX))
    expected_seq: int = field(metadata=SEQ)
    action: Data = field(metadata={"max_depth": 4})


@message
class Sync:
    """Ask again for the entries after ``last_seq`` and the current view."""

    type: ClassVar[str] = "sync"
    last_seq: int = field(default=0, metadata=SEQ)


@message
class GetCards:
    """Ask for the card catalogue (every card's facts and text) and the demo decks."""

    type: ClassVar[str] = "get_cards"


@message
class GetReplay:
    """Ask for a finished match's log, a page at a time: the entries from ``from_seq``
    (at most ``limit``), as ``viewpoint`` saw them ("all": everything, with the server's own
    card ids; "0"/"1": what that seat saw; "spectator": the public view), each with the
    viewpoint's view after it when ``views`` is true."""

    type: ClassVar[str] = "get_replay"
    match_id: str = field(metadata=MATCH_ID)
    viewpoint: str = field(default="all", metadata=_str(9, pattern="all|0|1|spectator"))
    from_seq: int = field(default=1, metadata=_int(1, 2**53))
    limit: int = field(default=100_000, metadata=_int(1, 100_000))
    views: bool = False
    upload_id: str | None = field(default=None, metadata=_str(32, pattern=r"[A-Za-z0-9_-]+"))


@message
class UploadReplay:
    """One part of a replay file the client sends to watch it (docs/replay-format.md): the
    file's bytes in base64, cut into ``total`` parts sent in order (``index`` 0, 1, ...).
    When the last part arrives the server checks the file and answers ``replay_loaded``
    (or ``replay/invalid``, ``replay/too_large``, ``replay/busy``: PROTOCOL.md gives the
    limits, checked from part 0 on); then ``get_replay`` with this ``upload_id`` (and any
    ``match_id``) pages through it. The file stays with this connection only."""

    type: ClassVar[str] = "upload_replay"
    upload_id: str = field(metadata=_str(32, pattern=r"[A-Za-z0-9_-]+"))
    index: int = field(metadata=_int(0, 1023))
    total: int = field(metadata=_int(1, 1024))
    part: str = field(metadata=_str(4000, min_len=0, pattern=r"[A-Za-z0-9+/=]*"))


@message
class Ping:
    """A heartbeat: the server answers ``pong`` with the same ``nonce`` at once, so a client
    knows its connection still carries messages both ways. ``silence_ms``: from now on, a
    connection that sends nothing for that long is gone (the server closes it, 1011, and its
    seat shows disconnected at once, not after the keepalive's minute); nil: as before."""

    type: ClassVar[str] = "ping"
    nonce: int = field(default=0, metadata=_int(0, 2**31 - 1))
    silence_ms: int | None = field(default=None, metadata=_int(2_000, 600_000))


@message
class Register:
    """Make an account with this name and password, and log this connection in as it (answer:
    ``logged_in``). The password is never sent back, logged or stored: only its argon2id hash."""

    type: ClassVar[str] = "register"
    name: str = field(metadata=ACCOUNT_NAME)
    password: str = field(metadata=PASSWORD, repr=False)


@message
class Login:
    """Log this connection in with an account's name and password (answer: ``logged_in``)."""

    type: ClassVar[str] = "login"
    name: str = field(metadata=ACCOUNT_NAME)
    password: str = field(metadata=PASSWORD, repr=False)


@message
class LoginToken:
    """Log this connection in with the session token a ``logged_in`` gave (while it has not
    expired and was not revoked by ``logout``)."""

    type: ClassVar[str] = "login_token"
    token: str = field(metadata=_str(TOKEN_MAX), repr=False)


@message
class Logout:
    """Log this connection out and revoke its session token (``everywhere``: every session token
    of the account)."""

    type: ClassVar[str] = "logout"
    everywhere: bool = False


@message
class GetLadder:
    """A page of a format's leaderboard: ``limit`` rows from rank ``offset + 1``."""

    type: ClassVar[str] = "get_ladder"
    format: str = field(default="current", metadata=FORMAT)
    offset: int = field(default=0, metadata=_int(0, 10_000))
    limit: int = field(default=50, metadata=_int(1, 100))


@message
class GetProfile:
    """An account's ratings, one per format it has played rated matches in."""

    type: ClassVar[str] = "get_profile"
    name: str = field(metadata=ACCOUNT_NAME)


@message
class GetHistory:
    """An account's matches (the ones it sat in while logged in), newest first, paged back as
    ``list_matches`` pages (``before_ms``: the ``created_ms`` of the last row, ``before_id`` its
    ``match_id``). Answer: ``match_list``."""

    type: ClassVar[str] = "get_history"
    name: str = field(metadata=ACCOUNT_NAME)
    before_ms: int | None = field(default=None, metadata=_int(0, 2**53))
    limit: int = field(default=50, metadata=_int(1, 200))
    before_id: str | None = field(default=None, metadata=MATCH_ID)


@message
class SaveDeck:
    """Keep a deck with the logged-in account (a new one, or a new version of ``deck_id``): its
    ``name``, ``format``, ``deck`` (Main and Extra Deck passcodes, as a match takes them) and
    ``side``. A deck being built is kept as it is (not checked against the format's rules); every
    passcode must be a card the server knows. Answer: ``deck_saved``."""

    type: ClassVar[str] = "save_deck"
    deck_id: str = field(metadata=DECK_ID)
    name: str = field(default="", metadata=DECK_NAME)
    format: str = field(default="current", metadata=FORMAT)
    deck: list[int] = field(default_factory=list, metadata=PASSCODE_LIST)
    side: list[int] = field(default_factory=list, metadata=PASSCODE_LIST)


@message
class ListDecks:
    """The logged-in account's decks (answer: ``decks``)."""

    type: ClassVar[str] = "list_decks"


@message
class DeleteDeck:
    """Delete one of the logged-in account's decks (answer: ``deck_deleted``)."""

    type: ClassVar[str] = "delete_deck"
    deck_id: str = field(metadata=DECK_ID)


DECK_REQUESTS = (SaveDeck, ListDecks, DeleteDeck)
"""The client messages about the decks kept with an account (server.accounts.decks)."""

ACCOUNT_REQUESTS = (
    Register,
    Login,
    LoginToken,
    Logout,
    GetLadder,
    GetProfile,
    GetHistory,
    SaveDeck,
    ListDecks,
    DeleteDeck,
)
"""The client messages about accounts and the ladder (server.accounts answers them)."""

AccountRequest = (
    Register | Login | LoginToken | Logout | GetLadder | GetProfile | GetHistory | SaveDeck | ListDecks | DeleteDeck
)


@message
class SideDeck:
    """Between two duels of a match: the deck (Main and Extra Deck, one list) and the Side Deck
    this seat plays the next duel with, the cards it registered swapped one for one (PROTOCOL.md
    section 5b). Sending it says the seat is done siding; it may be sent again until the duel
    starts."""

    type: ClassVar[str] = "side_deck"
    deck: list[int] = field(metadata=PASSCODE_LIST)
    side: list[int] = field(default_factory=list, metadata=SIDE_LIST)


@message
class ChooseFirst:
    """Between two duels: the seat that chooses (the loser of the last duel) goes first or second."""

    type: ClassVar[str] = "choose_first"
    go_first: bool


@message
class ConcedeDuel:
    """Give up the current duel only (the match goes on if it is not decided); answered as an
    action (``accepted``/``rejected``). ``action {"do": "concede"}`` concedes the whole match."""

    type: ClassVar[str] = "concede_duel"
    client_action_id: str = field(metadata=_str(ID_MAX))


@message
class GetMatch:
    """Ask for a match's record (``match_state``): its duels, score and result."""

    type: ClassVar[str] = "get_match"
    match_id: str = field(metadata=MATCH_ID)


MATCH_REQUESTS = (SideDeck, ChooseFirst, ConcedeDuel, GetMatch)
"""The client messages about a match of several duels (server.process.matchdesk answers them)."""

MatchRequest = SideDeck | ChooseFirst | ConcedeDuel | GetMatch

ClientMessage = (
    Hello
    | CreateMatch
    | Join
    | QuickMatch
    | ListMatches
    | Spectate
    | Reconnect
    | Act
    | Sync
    | GetReplay
    | GetCards
    | UploadReplay
    | Ping
    | AccountRequest
    | MatchRequest
)

CLIENT_TYPES: dict[str, type[ClientMessage]] = {
    cls.type: cls
    for cls in (
        Hello,
        CreateMatch,
        Join,
        QuickMatch,
        ListMatches,
        Spectate,
        Reconnect,
        Act,
        Sync,
        GetReplay,
        GetCards,
        UploadReplay,
        Ping,
        *ACCOUNT_REQUESTS,
        *MATCH_REQUESTS,
    )
}


# --------------------------------------------------------------------------
# server -> client
# --------------------------------------------------------------------------


@message
class Welcome:
    """Answer to hello: the chosen version, the limits the server enforces and the formats a
    match may be played under (``create_match.format``; the first is the default)."""

    type: ClassVar[str] = "welcome"
    version: int
    server: str
    session: str
    max_frame: int
    rate_per_second: int
    cards_version: str = ""
    formats: list[str] = field(default_factory=list)


@message
class Seated:
    """The client holds ``seat`` in ``match_id``; keep ``token`` to reconnect."""

    type: ClassVar[str] = "seated"
    match_id: str
    seat: int
    token: str
    started: bool
    players: list[str] = field(default_factory=lambda: ["", ""])


@message
class Spectating:
    """The client watches ``match_id`` (public information only).  ``seq`` is
    the last entry it may see now; ``delay`` how many entries spectators of
    this match are held behind the live duel until it ends."""

    type: ClassVar[str] = "spectating"
    match_id: str
    seq: int
    delay: int = 0
    players: list[str] = field(default_factory=lambda: ["", ""])


@message
class MatchList:
    """Live matches: ``[{match_id, status, seq, spectators, created_ms}]``."""

    type: ClassVar[str] = "match_list"
    matches: list[Data]


@message
class Accepted:
    """The action was appended as entry ``seq`` (``duplicate``: earlier, same id)."""

    type: ClassVar[str] = "accepted"
    client_action_id: str
    seq: int
    duplicate: bool = False


@message
class Pong:
    """The answer to ``ping``, with its ``nonce``."""

    type: ClassVar[str] = "pong"
    nonce: int = 0


@message
class Rejected:
    """The action was refused; nothing was appended.  ``seq`` is the match's
    current sequence number: a client behind it should ``sync``."""

    type: ClassVar[str] = "rejected"
    client_action_id: str
    code: str
    reason: str
    seq: int


@message
class Presence:
    """Which seats of ``match_id`` have a live connection now (sent when it changes), and
    the players' display names."""

    type: ClassVar[str] = "presence"
    match_id: str
    seats: list[bool]
    players: list[str] = field(default_factory=lambda: ["", ""])


@message
class Update:
    """One log entry, redacted for the receiver.

    ``facts`` are what the receiver may see of what happened.  ``view``,
    ``pending`` and ``legal`` describe the state after the entry; ``view`` is
    None on catch-up entries that are followed by a later one.  ``legal`` is
    non-empty only when the receiver owes a decision.  ``snapshot`` is true when
    ``facts`` were left out and ``view`` alone is authoritative.  ``clocks`` is
    each seat's remaining time in ms after this entry (matches with a clock;
    the seat in ``pending`` is running since the entry was appended).
    ``presence`` says which seats have a live connection (with ``view``).
    ``story`` is the entry in plain words, as the receiver may know it.
    Card ids are the receiver's own aliases (PROTOCOL.md, "Card ids").
    """

    type: ClassVar[str] = "update"
    match_id: str
    seq: int
    actor: int | None
    facts: list[Data]
    state_hash: str
    view: Data | None = None
    pending: Data | None = None
    legal: list[Data] = field(default_factory=list)
    snapshot: bool = False
    clocks: list[int] | None = None
    presence: list[bool] | None = None
    story: list[str] = field(default_factory=list)


@message
class ReplayLog:
    """A page of a finished match's log: ``entries`` ``[{seq, actor, action?, facts,
    state_hash, time_ms, story, view?}]`` as ``viewpoint`` saw them (``action`` only for
    "all"); ``total`` entries in all; ``next_seq`` the first entry of the next page (None:
    this was the last); ``result`` ``{winner, reason}``. ``match``: for a duel of a match of
    several duels, the match's record (``GET /matches/<id>.json``: its duels in order, each with
    its replay, and ``replay``, the whole match's file) and ``duel``, this duel's number."""

    type: ClassVar[str] = "replay"
    match_id: str
    entries: list[Data]
    viewpoint: str = "all"
    total: int = 0
    next_seq: int | None = None
    players: list[str] = field(default_factory=lambda: ["", ""])
    result: Data | None = None
    match: Data | None = None


@message
class Error:
    """Something other than an action went wrong.  ``fatal``: the server closes next."""

    type: ClassVar[str] = "error"
    code: str
    reason: str
    fatal: bool = False


@message
class ReplayLoaded:
    """An uploaded replay file was read and checked: ``get_replay`` with ``upload_id`` now
    pages through it. ``signed``: the whole file (replay file format 2: its header with the
    entries' chain) is signed by this server and the signature holds; false for a format-1
    file, whose signature covers its entries only. ``players`` and ``result``: as its log
    records and folds (the header's names when the log records none)."""

    type: ClassVar[str] = "replay_loaded"
    upload_id: str
    match_id: str
    total: int
    players: list[str]
    result: Data | None = None
    rules_version: str = ""
    same_rules: bool = True
    signed: bool = False


@message
class Cards:
    """The card catalogue: ``cards`` (code, name, kind, prop, monster_kinds, attribute, type,
    level, atk, def, text, and ``texts``: the text a format plays where it differs), the demo
    ``decks`` (name, title, description, cards, format, playable) and the ``formats`` (name,
    title, description, rules, deck rules, the supported share of the pool). ``version`` changes
    whenever any of it does: a client may cache it by version (``welcome.cards_version``)."""

    type: ClassVar[str] = "cards"
    version: str
    cards: list[Data]
    decks: list[Data]
    formats: list[Data] = field(default_factory=list)


@message
class Closing:
    """The server is going away (restart, drain); reconnect with your token."""

    type: ClassVar[str] = "closing"
    reason: str
    reconnect: bool = True


@message
class LoggedIn:
    """This connection is logged in as ``name`` (the account's name as registered). ``token``: a
    session token for ``login_token`` (keep it as secret as a password), valid until
    ``expires_ms`` unless revoked by ``logout``."""

    type: ClassVar[str] = "logged_in"
    name: str
    token: str = field(repr=False)
    expires_ms: int


@message
class LoggedOut:
    """This connection is logged out; its session token (or every one, ``everywhere``) is revoked."""

    type: ClassVar[str] = "logged_out"


@message
class LadderPage:
    """A page of a format's leaderboard: ``rows`` ``[{rank, name, rating, rd, games, wins,
    losses, draws}]`` by rank; ``total`` rated accounts in the format; ``next_offset`` the
    ``offset`` of the next page (None: this is the last)."""

    type: ClassVar[str] = "ladder"
    format: str
    rows: list[Data]
    total: int
    offset: int = 0
    next_offset: int | None = None


@message
class Profile:
    """An account: its name, when it was made, and its ``ratings`` ``[{format, rating, rd, games,
    wins, losses, draws, rank}]``."""

    type: ClassVar[str] = "profile"
    name: str
    created_ms: int
    ratings: list[Data] = field(default_factory=list)


@message
class DeckSaved:
    """The deck is kept with the account, as of ``updated_ms`` (the server's clock); ``count``: the
    account's decks now."""

    type: ClassVar[str] = "deck_saved"
    deck_id: str
    updated_ms: int
    count: int


@message
class DeckShelf:
    """The logged-in account's decks, the last changed first: ``[{deck_id, name, format, deck,
    side, updated_ms}]``; ``max_decks``: how many it may keep."""

    type: ClassVar[str] = "decks"
    decks: list[Data]
    max_decks: int


@message
class DeckDeleted:
    """``deck_id`` is no longer kept with the account (``deleted``: false if it was not)."""

    type: ClassVar[str] = "deck_deleted"
    deck_id: str
    deleted: bool


@message
class MatchState:
    """A match of several duels as the receiver may know it (PROTOCOL.md section 5b): sent to its
    seats and spectators when they take their place and whenever it changes (a duel ends, a seat
    is done siding, the loser chooses, the next duel starts), and as the answer to ``get_match``.
    ``duel_id`` is the current duel's id: its updates carry it as their ``match_id``, from seq 1.
    ``deck`` and ``side`` are the receiver's own (a seat between duels); of the other seat it is
    told only ``counts`` and ``ready``."""

    type: ClassVar[str] = "match_state"
    match_id: str
    best_of: int
    duel: int
    duel_id: str
    phase: str
    score: list[int]
    duels: list[Data] = field(default_factory=list)
    result: Data | None = None
    chooser: int | None = None
    first: int | None = None
    deadline_ms: int | None = None
    ready: list[bool] = field(default_factory=lambda: [False, False])
    counts: list[list[int]] = field(default_factory=list)
    deck: list[int] | None = None
    side: list[int] | None = None
    clock_scope: str = "duel"
    side_ms: int = SIDE_MS_DEFAULT


ServerMessage = (
    Welcome
    | Seated
    | Spectating
    | MatchList
    | Accepted
    | Rejected
    | Update
    | Presence
    | ReplayLog
    | ReplayLoaded
    | Cards
    | Error
    | Closing
    | Pong
    | LoggedIn
    | LoggedOut
    | LadderPage
    | Profile
    | DeckSaved
    | DeckShelf
    | DeckDeleted
    | MatchState
)

SERVER_TYPES: dict[str, type[ServerMessage]] = {
    cls.type: cls
    for cls in (
        Welcome,
        Seated,
        Spectating,
        MatchList,
        Accepted,
        Rejected,
        Update,
        Presence,
        ReplayLog,
        ReplayLoaded,
        Cards,
        Error,
        Closing,
        Pong,
        LoggedIn,
        LoggedOut,
        LadderPage,
        Profile,
        DeckSaved,
        DeckShelf,
        DeckDeleted,
        MatchState,
    )
}

Message = ClientMessage | ServerMessage
