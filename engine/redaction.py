"""What each viewer may see of each fact (docs/adr/0005, DESIGN invariant 5).

One rule per fact type turns a full fact into what seat 0, seat 1 and a
spectator receive: card ids become that viewer's aliases (``engine.aliases``),
a card's identity (``code``) appears only where the viewer knows the card,
and bookkeeping that could link a card across hidden places is dropped
(flags, once-per keys, pending-trigger bookkeeping, the PRNG, Deck orders).
The table is a whitelist: a fact type without a rule reaches nobody, and a
test checks that every fact type the engine emits has one.

Each rule also moves the alias book on by the fact (``AliasBook.follow``), at
the point where the rule needs it: a card that moves is named by its alias on
the side of the move the viewer can track.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from . import facts as F
from .aliases import VIEWERS, AliasBook, Sight, Viewer
from .facts import ABSENT, FACTS, Fact, Sent, WireFact

Seen = list[WireFact | None]
"""A fact as seat 0, seat 1 and a spectator see it (None: not at all)."""


def _same(out: WireFact | None) -> Seen:
    """The same fact for every viewer: one map, read only (each receiver's frame encodes it)."""
    return [out, out, out]


def _attrs(cls: type[Fact], keys: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    """(wire key, field) of ``keys``; a key the class does not have is a mistake in its ``SENT``."""
    missing = [k for k in keys if k not in cls.KEYS]
    if missing:
        raise ValueError(f"{cls.__name__}.SENT names keys it does not have: {missing}")
    return tuple((k, cls.KEYS[k]) for k in keys)


def _kept(fact: Fact, pairs: tuple[tuple[str, str], ...]) -> WireFact:
    out: WireFact = {"t": fact.t}
    for key, attr in pairs:
        value = getattr(fact, attr)
        if value is not ABSENT:
            out[key] = value
    return out


class Rule:
    """What each viewer receives of one fact class (``see``). A class with a method rather
    than a closure: compiled, a closure is called through the interpreter's calling convention
    (its arguments parsed), once per fact and per ``Viewpoints``."""

    def see(self, book: AliasBook, fact: Any) -> Seen:
        raise NotImplementedError


class Public(Rule):
    """A fact with no card in it: the same for everyone (only ``keys`` kept)."""

    def __init__(self, cls: type[Fact], keys: tuple[str, ...]) -> None:
        self.pairs = _attrs(cls, keys)
        # every key, in the order the class writes them: its own writer (no lookup by name)
        self.whole = keys == tuple(cls.KEYS) and not cls.LAYOUTS

    def see(self, book: AliasBook, fact: Fact) -> Seen:
        book.follow(fact)
        return _same(fact.to_wire() if self.whole else _kept(fact, self.pairs))


class Hidden(Rule):
    """Bookkeeping nobody is sent (it could link a card across hidden places)."""

    def see(self, book: AliasBook, fact: Fact) -> Seen:
        book.follow(fact)
        return [None, None, None]


HIDDEN_RULE: Final = Hidden()


class Custom(Rule):
    """A rule of its own (``CUSTOM``), a function."""

    def __init__(self, fn: Callable[[AliasBook, Any], Seen]) -> None:
        self.fn = fn

    def see(self, book: AliasBook, fact: Fact) -> Seen:
        return self.fn(book, fact)


def _ref(book: AliasBook, v: Viewer, cid: Any) -> int | None:
    if not isinstance(cid, int) or isinstance(cid, bool) or cid < 0:
        return None
    return book.ref_any(v, cid)


def _refs(book: AliasBook, v: Viewer, ids: Any) -> list[int]:
    out = []
    for cid in ids or []:
        ref = _ref(book, v, cid)
        if ref is not None:
            out.append(ref)
    return out


class WithCards(Rule):
    """A fact naming cards that do not move: ``cards`` (one id) and ``lists`` (ids) become
    aliases; each ``(code_key, card_key)`` in ``codes`` is kept only for a viewer who knows
    that card; ``public_codes`` are kept for everyone (an activated card is revealed)."""

    def __init__(self, cls: type[Fact], sent: Sent) -> None:
        self.keep = _attrs(cls, sent.keep)
        self.cards = _attrs(cls, sent.cards)
        self.lists = _attrs(cls, sent.lists)
        self.codes = tuple((code, cls.KEYS[code], cls.KEYS[card]) for code, card in sent.codes)
        self.public_codes = _attrs(cls, sent.public_codes)

    def see(self, book: AliasBook, fact: Fact) -> Seen:
        book.follow(fact)
        out: Seen = []
        for v in VIEWERS:
            f = _kept(fact, self.keep)
            for k, attr in self.cards:
                value = getattr(fact, attr)
                if value is not ABSENT:
                    f[k] = _ref(book, v, value)
            for k, attr in self.lists:
                value = getattr(fact, attr)
                if value is not ABSENT:
                    f[k] = _refs(book, v, value)
            for code_key, code_attr, card_attr in self.codes:
                code = getattr(fact, code_attr)
                cid = getattr(fact, card_attr)
                if code is not None and code is not ABSENT and isinstance(cid, int) and book.known(v, cid):
                    f[code_key] = code
            for k, attr in self.public_codes:
                value = getattr(fact, attr)
                if value is not ABSENT:
                    f[k] = value
            out.append(f)
        return out


def _sights(book: AliasBook, cid: int) -> list[Sight]:
    return [book.sight(v, cid) for v in VIEWERS]


class Moving(Rule):
    """A fact that moves one card (``card``): each viewer names it by the alias of the side of
    the move it can track (neither side: no id at all), and sees its identity if it knows the
    card on either side."""

    def __init__(self, cls: type[Fact], keep_keys: tuple[str, ...]) -> None:
        self.keep = _attrs(cls, keep_keys)
        self.has_code = "code" in cls.KEYS

    def see(self, book: AliasBook, fact: Any) -> Seen:
        cid = int(fact.card)
        before = _sights(book, cid)
        book.follow(fact)
        after = _sights(book, cid)
        code = fact.code if self.has_code else ABSENT
        out: Seen = []
        for i in range(len(before)):  # one per viewer (not zip(..., strict=True): a generic call compiled)
            b, a = before[i], after[i]
            f = _kept(fact, self.keep)
            ref = a.ref if a.ref is not None else b.ref
            if ref is not None:
                f["card"] = ref
            if code is not ABSENT and (a.known or b.known):
                f["code"] = code
            out.append(f)
        return out


def _duel_started(book: AliasBook, fact: F.DuelStarted) -> Seen:
    book.follow(fact)
    return _same(
        {
            "t": "duel_started",
            "first": fact.first,
            "lp": fact.lp,
            "options": fact.options,
            "deck_counts": [len(d) for d in fact.decks],
            "extra_counts": [len(e) for e in fact.extra],
        }
    )


SETUP_CARD_KEYS: Final[tuple[str, ...]] = (
    "owner",
    "controller",
    "zone",
    "slot",
    "face_up",
    "position",
    "counters",
    "set_turn",
    "summoned_turn",
)


def _setup(book: AliasBook, fact: F.Setup) -> Seen:
    """A position set up directly (scenarios, puzzles): each card as the viewer sees it."""
    book.follow(fact)
    out: Seen = []
    for v in VIEWERS:
        cards = []
        for e in fact.cards:
            cid = int(e["id"])
            sight = book.sight(v, cid)
            c: dict[str, Any] = {k: e[k] for k in SETUP_CARD_KEYS if k in e}
            if sight.ref is not None:
                c["id"] = sight.ref
            if sight.known:
                c["code"] = e["code"]
            else:
                c["hidden"] = True
            if e.get("equipped_to") is not None:
                c["equipped_to"] = _ref(book, v, e["equipped_to"])
            if e.get("materials"):
                c["materials"] = _refs(book, v, e["materials"])
            cards.append(c)
        red: WireFact = {
            "lp": fact.lp,
            "turn": fact.turn,
            "turn_player": fact.turn_player,
            "phase": fact.phase,
            "step": fact.step,
            "options": fact.options,
            "battle_phases": fact.battle_phases,
        }
        out.append({"t": "setup", **red, "cards": cards})
    return out


def _triggered(book: AliasBook, fact: F.Triggered) -> Seen:
    """A trigger effect waiting to be activated: only a viewer who knows the card learns of it
    (a card in the hand must not betray itself before its owner activates it)."""
    book.follow(fact)
    cid = int(fact.card)
    out: Seen = []
    for v in VIEWERS:
        if not book.known(v, cid):
            out.append(None)
            continue
        out.append(
            {
                "t": "triggered",
                "code": fact.code,
                "effect": fact.effect,
                "seat": fact.seat,
                "mandatory": fact.mandatory,
                "card": book.ref_any(v, cid),
            }
        )
    return out


def _activated(book: AliasBook, fact: F.Activated) -> Seen:
    """An activation reveals the card; its costs and choices are public, once-per keys not."""
    book.follow(fact)
    out: Seen = []
    data = fact.data or {}
    for v in VIEWERS:
        f: WireFact = {"t": "activated", "seat": fact.seat, "code": fact.code, "effect": fact.effect, "link": fact.link}
        if fact.trigger is not ABSENT:
            f["trigger"] = fact.trigger
        f["card"] = book.ref_any(v, int(fact.card))
        f["targets"] = _refs(book, v, fact.targets)
        shown: dict[str, Any] = {}
        if data.get("cost"):
            shown["cost"] = _refs(book, v, data["cost"])
        if data.get("choose"):
            shown["choose"] = [
                book.ref_any(v, x) if isinstance(x, int) and not isinstance(x, bool) else x for x in data["choose"]
            ]
        if shown:
            f["data"] = shown
        out.append(f)
    return out


def _drew(book: AliasBook, fact: F.Drew) -> Seen:
    cid = int(fact.card)
    book.follow(fact)
    out: Seen = []
    for v in VIEWERS:
        f: WireFact = {"t": "drew", "seat": fact.seat}
        sight = book.sight(v, cid)
        if sight.ref is not None:
            f["card"] = sight.ref
        if sight.known:
            f["code"] = fact.code
        out.append(f)
    return out


def _revealed(book: AliasBook, fact: F.Revealed) -> Seen:
    """Cards shown from a hand or a Deck: the player they are shown to (both players and the
    spectators when ``shown_to`` is None) and their owner see which cards they are, by an alias they can
    name them by now; every other viewer learns only how many were shown."""
    book.follow(fact)
    out: Seen = []
    for v in VIEWERS:
        f: WireFact = {"t": "revealed", "seat": fact.seat, "shown_to": fact.shown_to, "count": len(fact.cards)}
        if fact.shown_to is None or v == fact.shown_to or v == fact.seat:
            f["cards"] = [book.ref_any(v, cid) for cid in fact.cards]
            f["codes"] = list(fact.codes)
        out.append(f)
    return out


CUSTOM: Final[dict[str, Callable[[AliasBook, Any], Seen]]] = {
    "duel_started": _duel_started,
    "setup": _setup,
    "activated": _activated,
    "triggered": _triggered,
    "drew": _drew,
    "revealed": _revealed,
}
"""The rules of their own that a class's ``SENT`` names (``facts.custom``)."""


def rule_of(cls: type[Fact]) -> Rule:
    """The rule that ``cls.SENT`` describes."""
    sent = cls.SENT
    if sent.rule == "public":
        return Public(cls, sent.keep)
    if sent.rule == "hidden":
        return HIDDEN_RULE
    if sent.rule == "cards":
        return WithCards(cls, sent)
    if sent.rule == "moving":
        return Moving(cls, sent.keep)
    return Custom(CUSTOM[sent.rule])


RULES: Final[dict[type[Fact], Rule]] = {cls: rule_of(cls) for cls in FACTS.values()}
"""What each viewer receives of each fact class (a whitelist: the class's ``SENT``)."""


def present(book: AliasBook, fact: Fact) -> Seen:
    """The fact as each viewer sees it; moves the book on by the fact."""
    return RULES[fact.__class__].see(book, fact)
