"""A match of several duels: its record, how it moves on, and what each watcher is told of it.

A match is best of 1, 3 or 5 duels (``create_match.best_of``). A match of one duel is a match as
it always was: one log, no record here. A match of several keeps one **record** beside its duels'
logs (``match:{id}:series``, :class:`Series`), and each duel keeps its own log, exactly as a match
of one duel does (append-only, exactly-once, replayable alone): duel 1's log is the match's own,
duel N's is the log of ``<match id>-N`` (``keys.duel_id``).

The record changes only by compare-and-set on its version (:class:`SeriesStore`), each change a
pure function of the record before (below), so that several processes reporting the same event
(a duel's end seen by two; the siding deadline's timer on each) change it once:

* **dueling** -- duel ``current`` is played. When it ends (:func:`after_duel`) the record keeps
  its result (winner, why, who went first and who chose, the decks' hashes) and the score;
  the match ends when a seat has won more than half of ``best_of``, when ``best_of`` duels were
  played (the higher score wins; equal scores: a draw), or when a seat conceded the match (a
  concession, ``action {"do": "concede"}``), dropped (left past the reconnect grace), or ran out
  of time on a clock that runs over the whole match. A concession of the duel alone
  (``concede_duel``) ends that duel only.
* **siding** -- between two duels: each seat may swap cards of its Main (and Extra) Deck with its
  Side Deck one for one (:func:`sided`; server.lobby.siding checks the swap), the loser of the
  last duel chooses to go first or second (:func:`chosen`; after a drawn duel, the seat that went
  second in it). The next duel starts (:func:`started`) when both seats are done and the choice
  is made, or at ``deadline_ms``: a deck not sent stays as it was, and a chooser who did not
  choose goes first.
* **finished** -- the match's ``winner`` (None: a draw) and ``reason`` (``score``, ``concede``,
  ``drop``, ``time``).

The decks a seat registered and plays are in the record, which never leaves the server: a watcher
is told (:func:`state_for`) its own deck, and of the other seat only the counts.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field, replace
from typing import Any

import msgpack

from protocol.codec import pack
from protocol.messages import MatchState
from server.match.clocks import ClockSettings
from server.storage import keys

DUELING = "dueling"
SIDING = "siding"
FINISHED = "finished"

# why a duel ended in a concession, by the concession's client action id (server.match.matchplay)
CONCEDED_DUEL = "duel"  # concede_duel: that duel only
CONCEDED_MATCH = "match"  # action {"do": "concede"}: the match
CONCEDED_TIME = "time"  # a clock ran out where passing was not legal
CONCEDED_DROP = "drop"  # the server conceded for a seat gone past its grace (server.accounts.rated)

DUEL_CONCESSION_PREFIX = "duel:"
"""The client action id under which a ``concede_duel`` is appended (the client's id after it):
the duel's log says which concession it was, in the same entry, exactly once."""


@dataclass(frozen=True, slots=True)
class SeatDeck:
    """A seat's deck: its Main and Extra Deck as one list (as the protocol sends it), its Side Deck."""

    deck: tuple[int, ...]
    side: tuple[int, ...] = ()

    def counts(self, extra: frozenset[int]) -> list[int]:
        """[Main, Extra, Side] sizes (``extra``: the passcodes that go to the Extra Deck)."""
        n_extra = sum(1 for c in self.deck if c in extra)
        return [len(self.deck) - n_extra, n_extra, len(self.side)]

    def digest(self) -> str:
        """A hash of the deck played (its cards, in no order): the match record's ``deck_hashes``."""
        text = ",".join(str(c) for c in sorted(self.deck))
        return hashlib.sha256(text.encode()).hexdigest()[:16]


@dataclass(frozen=True, slots=True)
class Settings:
    """What a match of several duels was created with (its first duel's meta)."""

    best_of: int
    fmt: str
    side_ms: int
    clock_scope: str = "duel"  # "duel": each duel's clocks start afresh; "match": they go on
    clock: ClockSettings | None = None
    spectators: bool = True
    spectator_delay: int = 0
    names: tuple[str, str] = ("", "")

    @property
    def needed(self) -> int:
        """Duels a seat must win to win the match."""
        return self.best_of // 2 + 1


@dataclass(frozen=True, slots=True)
class DuelResult:
    number: int
    duel_id: str
    first: int  # the seat that went first
    chooser: int | None  # the seat that chose it (None: the coin toss of duel 1)
    winner: int | None  # None: a draw
    reason: str  # the duel's end reason (view.end_reason)
    conceded: str = ""  # CONCEDED_*: which concession ended it, if one did
    deck_hashes: tuple[str, str] = ("", "")
    finished_ms: int = 0


@dataclass(frozen=True, slots=True)
class Series:
    match_id: str
    settings: Settings
    registered: tuple[SeatDeck, SeatDeck]  # as the seats brought them: siding swaps among these
    decks: tuple[SeatDeck, SeatDeck]  # what each seat plays in the current (or next) duel
    phase: str = DUELING
    current: int = 1  # the duel being played (dueling), or about to be (siding), or the last
    duels: tuple[DuelResult, ...] = ()
    chooser: int | None = None  # siding: who chooses who goes first
    first: int | None = None  # siding: the choice once made; dueling: who went first (None: duel 1)
    deadline_ms: int = 0
    ready: tuple[bool, bool] = (False, False)
    winner: int | None = None
    reason: str = ""
    finished_ms: int = 0
    clocks_left: tuple[int, int] | None = None  # a clock over the whole match: what each seat has left
    version: int = field(default=0, compare=False)

    @property
    def score(self) -> list[int]:
        return [sum(1 for d in self.duels if d.winner == seat) for seat in (0, 1)]

    def duel_id(self, number: int | None = None) -> str:
        return keys.duel_id(self.match_id, self.current if number is None else number)

    @property
    def watch_id(self) -> str:
        """The duel whose watchers follow the match now, and whose bell carries its news: the
        current duel while it is played, the last one played between duels and at the end."""
        return self.duel_id(self.current if self.phase == DUELING else self.duels[-1].number)

    def has_result(self, number: int) -> bool:
        return any(d.number == number for d in self.duels)


def new_series(match_id: str, settings: Settings, decks: tuple[SeatDeck, SeatDeck]) -> Series:
    return Series(match_id, settings, decks, decks)


def after_duel(s: Series, result: DuelResult, now_ms: int, clocks_left: tuple[int, int] | None) -> Series:
    """The record once duel ``result.number`` (the current one) has ended."""
    duels = (*s.duels, result)
    s = replace(s, duels=duels, clocks_left=clocks_left if s.settings.clock_scope == "match" else None)
    loser = None if result.winner is None else 1 - result.winner
    over_by = {CONCEDED_MATCH: "concede", CONCEDED_DROP: "drop"}.get(result.conceded)
    if result.conceded == CONCEDED_TIME and s.settings.clock_scope == "match":
        over_by = "time"
    score = s.score
    if over_by is not None:
        return _finish(s, result.winner, over_by, now_ms)
    for seat in (0, 1):
        if score[seat] >= s.settings.needed:
            return _finish(s, seat, "score", now_ms)
    if len(duels) >= s.settings.best_of:
        winner = None if score[0] == score[1] else (0 if score[0] > score[1] else 1)
        return _finish(s, winner, "score", now_ms)
    chooser = loser if loser is not None else 1 - result.first
    return replace(
        s,
        phase=SIDING,
        current=result.number + 1,
        chooser=chooser,
        first=None,
        deadline_ms=now_ms + s.settings.side_ms,
        ready=(False, False),
    )


def _finish(s: Series, winner: int | None, reason: str, now_ms: int) -> Series:
    return replace(s, phase=FINISHED, winner=winner, reason=reason, finished_ms=now_ms, chooser=None, first=None)


def conceded_match(s: Series, seat: int, now_ms: int) -> Series | None:
    """``seat`` concedes the match between two duels (a concession during a duel is appended to
    the duel: :func:`after_duel`). None: nothing to change (not between duels)."""
    if s.phase != SIDING:
        return None
    return _finish(s, 1 - seat, "concede", now_ms)


def dropped(s: Series, seat: int, now_ms: int) -> Series | None:
    """``seat`` left and did not come back by the siding deadline while the other seat is here."""
    if s.phase != SIDING:
        return None
    return _finish(s, 1 - seat, "drop", now_ms)


def sided(s: Series, seat: int, deck: SeatDeck) -> Series | None:
    """``seat`` plays ``deck`` (checked: server.lobby.siding) in the next duel, and is done siding."""
    if s.phase != SIDING:
        return None
    decks = (deck, s.decks[1]) if seat == 0 else (s.decks[0], deck)
    ready = (True, s.ready[1]) if seat == 0 else (s.ready[0], True)
    return replace(s, decks=decks, ready=ready)


def chosen(s: Series, seat: int, go_first: bool) -> Series | None:
    """The chooser goes first or second in the next duel."""
    if s.phase != SIDING or s.chooser != seat:
        return None
    return replace(s, first=seat if go_first else 1 - seat)


def may_start(s: Series, now_ms: int) -> bool:
    """Is it time to start the next duel: both seats done and the choice made, or the deadline past?"""
    if s.phase != SIDING:
        return False
    return (all(s.ready) and s.first is not None) or now_ms >= s.deadline_ms


def started(s: Series) -> Series:
    """The next duel begins: who goes first is the choice, or the chooser when it did not choose."""
    first = s.first if s.first is not None else s.chooser
    return replace(s, phase=DUELING, first=first, ready=(False, False), deadline_ms=0)


def duel_row(d: DuelResult, with_hashes: bool) -> dict[str, Any]:
    """A finished duel as ``match_state.duels`` lists it (the decks' hashes once the match is over:
    before, whether a hash changed would tell the opponent that a seat sided)."""
    row: dict[str, Any] = {
        "duel": d.number,
        "duel_id": d.duel_id,
        "first": d.first,
        "chooser": d.chooser,
        "winner": "draw" if d.winner is None else d.winner,
        "reason": d.reason,
    }
    if d.conceded:
        row["conceded"] = d.conceded
    if with_hashes:
        row["deck_hashes"] = list(d.deck_hashes)
    return row


def state_for(s: Series, seat: int | None, extra: frozenset[int]) -> MatchState:
    """What ``seat`` (None: a spectator, or anyone asking ``get_match``) is told of the match."""
    over = s.phase == FINISHED
    own = s.decks[seat] if seat is not None and s.phase == SIDING else None
    return MatchState(
        match_id=s.match_id,
        best_of=s.settings.best_of,
        duel=s.current,
        duel_id=s.watch_id,
        phase=s.phase,
        score=s.score,
        duels=[duel_row(d, over) for d in s.duels],
        result={"winner": "draw" if s.winner is None else s.winner, "reason": s.reason} if over else None,
        chooser=s.chooser,
        first=s.first,
        deadline_ms=s.deadline_ms if s.phase == SIDING else None,
        ready=list(s.ready),
        counts=[d.counts(extra) for d in s.decks],
        deck=None if own is None else list(own.deck),
        side=None if own is None else list(own.side),
        clock_scope=s.settings.clock_scope,
        side_ms=s.settings.side_ms,
    )


# ---------------------------------------------------------------------- stored form


def _deck_out(d: SeatDeck) -> list[list[int]]:
    return [list(d.deck), list(d.side)]


def _deck_in(raw: Any) -> SeatDeck:
    return SeatDeck(tuple(int(c) for c in raw[0]), tuple(int(c) for c in raw[1]))


def _pair(raw: Any) -> tuple[Any, Any]:
    return raw[0], raw[1]


def _duel_out(d: DuelResult) -> list[Any]:
    return [d.number, d.duel_id, d.first, d.chooser, d.winner, d.reason, d.conceded, list(d.deck_hashes), d.finished_ms]


def dumps(s: Series) -> bytes:
    st = s.settings
    return pack(
        {
            "match_id": s.match_id,
            "settings": {
                "best_of": st.best_of,
                "format": st.fmt,
                "side_ms": st.side_ms,
                "clock_scope": st.clock_scope,
                "clock": None if st.clock is None else st.clock.to_action(),
                "spectators": st.spectators,
                "spectator_delay": st.spectator_delay,
                "names": list(st.names),
            },
            "registered": [_deck_out(d) for d in s.registered],
            "decks": [_deck_out(d) for d in s.decks],
            "phase": s.phase,
            "current": s.current,
            "duels": [_duel_out(d) for d in s.duels],
            "chooser": s.chooser,
            "first": s.first,
            "deadline_ms": s.deadline_ms,
            "ready": list(s.ready),
            "winner": s.winner,
            "reason": s.reason,
            "finished_ms": s.finished_ms,
            "clocks_left": None if s.clocks_left is None else list(s.clocks_left),
        }
    )


def loads(blob: bytes, version: int) -> Series:
    raw: dict[str, Any] = msgpack.unpackb(blob, raw=False)
    st = raw["settings"]
    clock = ClockSettings.from_genesis({"clock": st["clock"]}) if st.get("clock") else None
    settings = Settings(
        int(st["best_of"]),
        str(st["format"]),
        int(st["side_ms"]),
        str(st["clock_scope"]),
        clock,
        bool(st["spectators"]),
        int(st["spectator_delay"]),
        (str(st["names"][0]), str(st["names"][1])),
    )
    duels = tuple(
        DuelResult(int(n), str(i), int(f), c, w, str(r), str(k), (str(h[0]), str(h[1])), int(ms))
        for n, i, f, c, w, r, k, h, ms in raw["duels"]
    )
    left = raw.get("clocks_left")
    return Series(
        match_id=str(raw["match_id"]),
        settings=settings,
        registered=(_deck_in(raw["registered"][0]), _deck_in(raw["registered"][1])),
        decks=(_deck_in(raw["decks"][0]), _deck_in(raw["decks"][1])),
        phase=str(raw["phase"]),
        current=int(raw["current"]),
        duels=duels,
        chooser=raw["chooser"],
        first=raw["first"],
        deadline_ms=int(raw["deadline_ms"]),
        ready=(bool(raw["ready"][0]), bool(raw["ready"][1])),
        winner=raw["winner"],
        reason=str(raw["reason"]),
        finished_ms=int(raw["finished_ms"]),
        clocks_left=None if left is None else (int(left[0]), int(left[1])),
        version=version,
    )
