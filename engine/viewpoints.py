"""Everything each viewer of one match is sent, named with its own card aliases.

A :class:`Viewpoints` follows one position of a match's log (the live one, or a
spectator-delayed one) entry by entry. For each entry it gives the facts as
seat 0, seat 1 and a spectator may see them (``engine.redaction``); for the
state after it, each viewer's view, the deciding seat's legal actions with
card ids as that seat's aliases, and it turns an action a seat sends back
into engine ids (``engine.aliases``, docs/adr/0005).

The engine itself never sees aliases: ``decide`` and the log use engine ids.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Final, TypeGuard

from .aliases import AliasBook, Viewer
from .cards import CARDS
from .describe import describe
from .legal import legal_actions
from .redaction import present
from .state import State
from .types import Fact, IllegalAction, WireAction, WireFact
from .view import presented_pending, view

PerViewer = tuple[list[WireFact], list[WireFact], list[WireFact]]
"""Facts for seat 0, seat 1 and spectators."""

SCALAR_CARD_KEYS: Final[tuple[str, ...]] = ("card", "with")
CARD_LIST_KEYS: Final[tuple[str, ...]] = ("target", "cost", "tribute", "cards", "choose")


def viewer_index(v: Viewer) -> int:
    return 2 if v is None else v


def _is_id(x: Any) -> TypeGuard[int]:
    return isinstance(x, int) and not isinstance(x, bool)


class _Names:
    """How ``_mapped`` renames a card: a class with a method, not a closure (compiled code calls
    a closure through the interpreter's calling convention, once per card id)."""

    def __init__(self, book: AliasBook, seat: int) -> None:
        self.book = book
        self.seat = seat

    def fn(self, cid: int) -> int:
        """The seat's alias of engine id ``cid``."""
        return self.book.ref_any(self.seat, cid)


class _Ids(_Names):
    def fn(self, alias: int) -> int:
        """The engine id behind the seat's ``alias``. An alias the seat cannot name now is
        refused the same way whatever card may lie behind it."""
        cid = self.book.card_of(self.seat, alias)
        if cid is None:
            raise IllegalAction("action/illegal", f"there is no card {alias} you can name now")
        return cid


def _mapped(action: WireAction, names: _Names) -> WireAction:
    """``action`` with every card id (or alias) in it renamed by ``names``."""
    out = dict(action)
    for k in SCALAR_CARD_KEYS:
        if k not in out:  # most actions name one card or none: skip the keys they lack
            continue
        value = out[k]
        if _is_id(value):
            out[k] = names.fn(value)
    for k in CARD_LIST_KEYS:
        if k not in out:
            continue
        value = out[k]
        if _is_id(value):
            out[k] = names.fn(value)
        elif isinstance(value, list):
            out[k] = [names.fn(x) if _is_id(x) else x for x in value]
    return out


class Viewpoints:
    def __init__(self, key: bytes, book: AliasBook | None = None) -> None:
        self.book = book if book is not None else AliasBook(key)

    def copy(self) -> Viewpoints:
        return Viewpoints(self.book.key, self.book.copy())

    @classmethod
    def of_log(cls, key: bytes, entries: Iterable[list[Fact]]) -> Viewpoints:
        """Follow a whole log (the facts of each entry, in order)."""
        vp = cls(key)
        for facts in entries:
            vp.apply(facts)
        return vp

    def apply(self, facts: list[Fact]) -> PerViewer:
        """Move on by one log entry; its facts as each viewer sees them (read only: a fact all
        viewers see alike is one map in the three lists)."""
        book = self.book
        book.entries += 1
        seat0: list[WireFact] = []
        seat1: list[WireFact] = []
        spectators: list[WireFact] = []
        for fact in facts:
            to0, to1, to_spectators = present(book, fact)
            if to0 is not None:
                seat0.append(to0)
            if to1 is not None:
                seat1.append(to1)
            if to_spectators is not None:
                spectators.append(to_spectators)
        return seat0, seat1, spectators

    def story(self, v: Viewer, facts: list[WireFact]) -> list[str]:
        """``facts`` (as ``v`` saw them) in plain words; a card named only by an id gets its
        name when ``v`` knows the card (engine.describe)."""

        def name_of(alias: int) -> str | None:
            cid = self.book.card_of(v, alias)
            code = None if cid is None or not self.book.known(v, cid) else self.book.codes.get(cid)
            return CARDS[code].name if code in CARDS else None

        out = []
        for fact in facts:
            line = describe(fact, name_of)
            if line:
                out.append(line)
        return out

    def view(self, state: State, v: Viewer) -> dict[str, Any]:
        return view(state, v, book=self.book)

    def pending(self, state: State, v: Viewer) -> dict[str, Any] | None:
        """The decision owed as ``v`` may know it (read only: the view holds the same map)."""
        return presented_pending(state, v, self.book)

    def legal(self, state: State, seat: int) -> list[WireAction]:
        """The legal actions of ``seat`` (empty if it owes nothing), in its aliases."""
        names = _Names(self.book, seat)
        return [_mapped(a, names) for a in legal_actions(state, seat)]

    def to_engine(self, seat: int, action: WireAction) -> WireAction:
        """An action ``seat`` sent, with its aliases turned back into engine ids. An id the
        seat cannot name now is refused the same way whatever card may lie behind it."""
        if not isinstance(action, dict):
            return action
        return _mapped(action, _Ids(self.book, seat))
