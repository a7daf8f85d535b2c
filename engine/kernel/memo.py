"""The values the rules ask for by name, worked out once per state (or per board) and kept with
it: the decision owed, the legal actions of a seat, the continuous sources, the duel's roster of
cards by event kind, and what views render. Each function takes the rules' own computation and
returns the kept value, working it out on the first call; the rules module that owns the value
exposes one plain function for it (``flow.pending``, ``legal.legal_actions``,
``stats.continuous_sources``, ``ops.roster``), read only. What drops each value:
docs/performance.md, "Cache invariants".
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any, Final

from ..decisions import Pending
from ..facts import Fact, Passed, Priority
from ..state import Card, Player, State
from .caches import NOT_WORKED_OUT, Memo, Roster, board_of, memo_of
from .hashing import carry_board_hash


def pending(s: State, work_out: Callable[[State], Pending | None]) -> Pending | None:
    """The decision owed in ``s`` (``work_out(s)`` once per state)."""
    memo = memo_of(s)
    got = memo.pending
    if got is NOT_WORKED_OUT:
        got = memo.pending = work_out(s)
    return got


def legal(s: State, seat: int, work_out: Callable[[State, int], list[Any]]) -> list[Any]:
    """The legal actions of ``seat`` in ``s`` (``work_out(s, seat)`` once per state and seat)."""
    if seat != 0 and seat != 1:
        return work_out(s, seat)  # nothing, worked out anew
    memo = memo_of(s)
    kept = memo.legal
    if kept is None:
        kept = memo.legal = [None, None]
    got = kept[seat]
    if got is None:
        got = kept[seat] = work_out(s, seat)
    return got


def sources(s: State, work_out: Callable[[State], tuple[list[Any], bool]], board_ok: bool = True) -> list[Any]:
    """The continuous sources of ``s``: ``work_out(s)`` gives them and whether they depend on more
    than the board (cards and players). Kept with the board while they do not (the same cards
    and players give the same sources, across facts and states), else with the state.
    ``board_ok``: whether the board's kept sources hold for ``s`` (not while a card's own
    activation is on its chain, ruling CH-7: a state without that chain, sharing the board, may
    have kept them)."""
    board = board_of(s)
    got = board.sources
    if got is not None and board_ok:
        return got
    memo = memo_of(s)
    got = memo.sources
    if got is None:
        got, per_state = work_out(s)
        if per_state:
            memo.sources = got
        else:
            board.sources = got
    return got


def roster(s: State, key: object, scripts: int, codes: Collection[int]) -> tuple[Any, ...]:
    """The ids of the cards of ``s`` whose ``data.key`` is in ``codes``, in the order of
    ``s.cards``: once per duel and ``key`` (one ``Roster`` shared by the states copied from one
    another); worked out again once ``scripts`` (how many card scripts are registered) changes."""
    kept = s._roster
    if kept is None:  # the cards are new
        kept = s._roster = Roster()
    if kept.scripts != scripts:  # not filled yet, or a script was registered since
        kept.scripts = scripts
        kept.ids.clear()  # in place: every copy of the state holds this one
    ids = kept.ids.get(key)
    if ids is None:
        # the ids as the cards dict holds them (typed Any: looked up as they are, no new int)
        ids = kept.ids[key] = tuple(cid for cid, c in s.cards.items() if c.data.key in codes)
    return ids


def stats_table(s: State) -> dict[Any, Any]:
    """The table of shown ATK/DEF by card id kept with ``s`` for views (``engine.view``)."""
    m = memo_of(s)
    got = m.stats
    if got is None:
        got = m.stats = {}
    return got


def viewers_zones(s: State) -> list[Any]:
    """The views' players' part kept with ``s``, a slot per viewer (``caches.viewer_slot``)."""
    return memo_of(s).viewers_zones()


def viewers_shown(s: State) -> list[Any]:
    """The decision shown kept with ``s``, a slot per viewer (``caches.viewer_slot``)."""
    return memo_of(s).viewers_shown()


def renderings(o: Card | Player) -> dict[Any, Any]:
    """What views rendered from this card (or player's side) while it did not change: dropped by
    every write of it (``cow.write_card`` / ``cow.write_player``)."""
    got = o._memo
    if got is None:
        got = o._memo = {}
    return got


def forget(s: State) -> None:
    """Drop what was worked out from ``s`` (a fact was applied: ``engine.apply``)."""
    s._memo = None


def cards_made(s: State) -> None:
    """``s`` has new card objects (the facts that create a duel's cards): its roster and board go."""
    s._roster = None
    s._board = None


BOARD_UNCHANGED: Final[frozenset[type[Fact]]] = frozenset({Passed, Priority})
"""Facts that change who may act and nothing else: no card, LP, zone, phase, chain or
modifier (so no ATK/DEF either: no stat depends on priority)."""


def carry_over(old: State, new: State, facts: list[Fact]) -> None:
    """``new`` is ``old`` after an action's ``facts`` (``engine.decide``): give it what still
    holds. After a pass (only ``BOARD_UNCHANGED`` facts) the stats, the views' players' part and
    the board's digest; else the board's digest if no card or player was written."""
    m: Memo | None = old._memo
    if m is None:
        return
    if all(f.__class__ in BOARD_UNCHANGED for f in facts):
        new._memo = m.carried()
    else:
        carry_board_hash(old, new)
