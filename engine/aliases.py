"""Per-viewer card ids: what a seat or a spectator may call each card (docs/adr/0005).

The engine keeps one stable id per card instance. What it sends is an
*alias* per viewer, so that an id never follows a card through a place the
viewer cannot watch:

* A card in a place the viewer can *track* (any field zone, a Graveyard,
  banishment, Xyz Material; its own hand and Extra Deck) keeps one alias
  while it stays trackable: the card is a physical object on the table.
* When it moves into such a place from a place the viewer cannot track (any
  Deck, the opponent's hand or Extra Deck), it gets a fresh alias: in the
  spirit of the rule that a card changing zones is a new object, nothing
  links it to what it was before.
* While it is in an untrackable place it has no alias at all; where the
  viewer must still name it (a card to choose from its own Deck, a card
  revealed from the hand), it gets an *ephemeral* alias that changes with
  every log entry.

Aliases are 48-bit keyed hashes (BLAKE2b with the match's alias key) of the
viewer, the engine id and the point in the log where the alias was issued,
so they reveal nothing about identity, Deck order or other aliases, and
every process serving a match computes the same ones from the log alone.

The book follows card *places* from the facts (the zone changes that
``engine.apply`` makes); a property test checks it against the folded state.
"""

from __future__ import annotations

import hashlib
import struct
from dataclasses import dataclass, field
from typing import Any, Final

from .kernel.interning import shared_code, shared_int
from .types import Fact, Zone

Viewer = int | None
"""Seat 0 or 1, or ``None`` for a spectator."""

VIEWERS: Final[tuple[Viewer, ...]] = (0, 1, None)
FIELD_ZONES: Final = frozenset({"monsters", "spells_traps", "field"})
PUBLIC_PLACES: Final = FIELD_ZONES | {"graveyard", "banished", "xyz_material"}
OWN_PLACES: Final = frozenset({"hand", "extra"})
FACE_UP_PILES: Final = frozenset({"graveyard", "banished", "xyz_material"})
ALIAS_BITS: Final = 48
PLACE_FACTS: Final = frozenset(
    {"duel_started", "setup", "drew", "moved", "flipped", "position_changed", "activated", "token_made", "token_gone"}
)
"""The facts ``AliasBook.follow`` changes places by (nothing else changes a sight)."""


def _index(v: Viewer) -> int:
    return 2 if v is None else v


@dataclass(slots=True, frozen=True)
class Place:
    """Where a card is, as far as visibility goes. Immutable, and one object per distinct
    place (``place``): a book's 80 entries share a handful of them, and so do its copies."""

    zone: str
    owner: int
    controller: int
    face_up: bool

    def trackable(self, v: Viewer) -> bool:
        """Can ``v`` follow this card as an object here (not: does it know what it is)?"""
        return self.zone in PUBLIC_PLACES or (v is not None and v == self.owner and self.zone in OWN_PLACES)

    def known(self, v: Viewer) -> bool:
        """Does ``v`` know which card this is?"""
        if self.zone in FACE_UP_PILES:
            return True
        if self.zone in FIELD_ZONES:
            return self.face_up or (v is not None and v == self.controller)
        return v is not None and v == self.owner and self.zone in OWN_PLACES


_PLACES: Final[dict[tuple[str, int, int, bool], Place]] = {}


def place(zone: str, owner: int, controller: int, face_up: bool) -> Place:
    """The one ``Place`` of these values."""
    key = (zone, owner, controller, face_up)
    got = _PLACES.get(key)
    if got is None:
        got = _PLACES[key] = Place(*key)
    return got


class Sight:
    """What one viewer has of one card at one moment. A plain class: the engine's compiled
    build (docs/adr/0008) runs a dataclass's generated ``__init__`` in the interpreter."""

    __slots__ = ("known", "ref")

    def __init__(self, ref: int | None, known: bool) -> None:
        self.ref = ref  # its alias (None: untrackable, no stable id)
        self.known = known


class BookToken:
    """An alias book's identity (views key what they rendered by it)."""

    __slots__ = ()


@dataclass(slots=True)
class AliasBook:
    """Card places and the aliases every viewer currently has for them."""

    key: bytes
    places: dict[int, Place] = field(default_factory=dict)
    codes: dict[int, int] = field(default_factory=dict)  # engine id -> passcode (for narration)
    facts: int = 0  # facts seen (the point where an alias is issued)
    entries: int = 0  # log entries seen (ephemeral aliases change with it)
    _alias: tuple[dict[int, int], ...] = field(default_factory=lambda: ({}, {}, {}))  # cid -> alias
    _card: tuple[dict[int, int], ...] = field(default_factory=lambda: ({}, {}, {}))  # alias -> cid
    _eph_card: tuple[dict[int, int], ...] = field(default_factory=lambda: ({}, {}, {}))  # alias -> cid
    _eph_alias: tuple[dict[int, int], ...] = field(default_factory=lambda: ({}, {}, {}))  # cid -> alias
    _eph_at: list[int] = field(default_factory=lambda: [-1, -1, -1])
    # not part of what the book knows (never snapshotted): this book's identity, and how many
    # times a fact changed a card's place (views keep what they rendered under the pair)
    token: BookToken = field(default_factory=BookToken, init=False, repr=False, compare=False, metadata={"cache": True})
    version: int = field(default=0, init=False, repr=False, compare=False, metadata={"cache": True})
    # likewise per side of the table: how many times a card shown among a seat's zones (by its
    # owner or its controller) changed place, so that a view keeps one side's rendering while
    # only the other side's cards move
    sides: list[int] = field(
        default_factory=lambda: [0, 0], init=False, repr=False, compare=False, metadata={"cache": True}
    )

    def copy(self) -> AliasBook:
        return AliasBook(
            key=self.key,
            places=dict(self.places),
            codes=self.codes,
            facts=self.facts,
            entries=self.entries,
            _alias=tuple(dict(d) for d in self._alias),
            _card=tuple(dict(d) for d in self._card),
        )

    # ------------------------------------------------------------------ hashing

    def _hash(self, vi: int, cid: int, epoch: int, salt: int) -> int:
        h = hashlib.blake2b(struct.pack(">bqqq", vi, cid, epoch, salt), key=self.key[:64], digest_size=ALIAS_BITS // 8)
        return int.from_bytes(h.digest(), "big")

    def _issue(self, vi: int, cid: int) -> None:
        taken = self._card[vi]
        salt = 0
        alias = self._hash(vi, cid, self.facts, salt)
        while alias in taken:
            salt += 1
            alias = self._hash(vi, cid, self.facts, salt)
        one: Any = alias  # one boxed int in both maps (compiled code would box it twice)
        card = shared_int(cid)
        self._alias[vi][card] = one
        taken[one] = card

    def _drop(self, vi: int, cid: int) -> None:
        alias = self._alias[vi].pop(cid, None)
        if alias is not None:
            self._card[vi].pop(alias, None)

    def _ephemeral(self, vi: int, cid: int) -> int:
        """This entry's ephemeral alias of ``cid`` for viewer index ``vi`` (made on first use;
        a salt avoids the astronomically rare collision with an alias in use)."""
        if self._eph_at[vi] != self.entries:
            self._eph_card[vi].clear()
            self._eph_alias[vi].clear()
            self._eph_at[vi] = self.entries
        alias = self._eph_alias[vi].get(cid)
        if alias is None:
            salt = 0
            alias = self._hash(vi, cid, -1 - self.entries, salt)
            while alias in self._card[vi] or alias in self._eph_card[vi]:
                salt += 1
                alias = self._hash(vi, cid, -1 - self.entries, salt)
            self._eph_card[vi][alias] = cid
            self._eph_alias[vi][cid] = alias
        return alias

    # ------------------------------------------------------------------ lookups

    def sight(self, v: Viewer, cid: int) -> Sight:
        place = self.places.get(cid)
        if place is None:
            return Sight(None, False)
        return Sight(self._alias[_index(v)].get(cid), place.known(v))

    def sight_of(self, v: Viewer, cid: int) -> tuple[int | None, bool]:
        """``sight`` as a pair (ref, known), without building a ``Sight``."""
        place = self.places.get(cid)
        if place is None:
            return None, False
        return self._alias[2 if v is None else v].get(cid), place.known(v)

    def aliases_of(self, v: Viewer) -> dict[int, int]:
        """``v``'s stable aliases by engine id (read only: what ``ref`` looks in)."""
        return self._alias[2 if v is None else v]

    def ref(self, v: Viewer, cid: int) -> int | None:
        """The stable alias of ``cid`` for ``v``, or None while it is untrackable."""
        return self._alias[_index(v)].get(cid)

    def ref_any(self, v: Viewer, cid: int) -> int:
        """An alias ``v`` can name the card by now: the stable one, else this entry's ephemeral one."""
        vi = _index(v)
        alias = self._alias[vi].get(cid)
        return alias if alias is not None else self._ephemeral(vi, cid)

    def card_of(self, v: Viewer, alias: int) -> int | None:
        """The engine id ``v`` means by ``alias`` (a stable or a current ephemeral alias)."""
        vi = _index(v)
        cid = self._card[vi].get(alias)
        if cid is not None:
            return cid
        if self._eph_at[vi] == self.entries and alias in self._eph_card[vi]:
            return self._eph_card[vi][alias]
        for other in sorted(self.places):  # named by an ephemeral alias made elsewhere
            if other not in self._alias[vi] and self._ephemeral(vi, other) == alias:
                return other
        return None

    def current(self, v: Viewer) -> dict[int, int]:
        """Every stable alias ``v`` has now (alias -> engine id)."""
        return dict(self._card[_index(v)])

    def known(self, v: Viewer, cid: int) -> bool:
        place = self.places.get(cid)
        return place is not None and place.known(v)

    # ------------------------------------------------------------------ following places

    def _forget(self) -> None:
        self.sides[0] += 1
        self.sides[1] += 1
        self.places.clear()
        self.codes = {}
        for d in (*self._alias, *self._card):
            d.clear()

    def put(self, cid: int, place: Place) -> None:
        """The card is now at ``place``: issue or drop aliases as trackability changes."""
        old = self.places.get(cid)
        self.places[shared_int(cid)] = place
        sides = self.sides
        sides[place.owner] += 1
        if place.controller != place.owner:
            sides[place.controller] += 1
        if old is not None:
            sides[old.owner] += 1
            if old.controller != old.owner:
                sides[old.controller] += 1
        for v in VIEWERS:
            vi = _index(v)
            was = old is not None and old.trackable(v) and cid in self._alias[vi]
            now = place.trackable(v)
            if now and not was:
                self._issue(vi, cid)
            elif was and not now:
                self._drop(vi, cid)

    def remove(self, cid: int) -> None:
        """The card no longer exists (a Token that left the field): no place, no alias."""
        old = self.places.pop(cid, None)
        if old is None:
            return
        self.sides[old.owner] += 1
        if old.controller != old.owner:
            self.sides[old.controller] += 1
        for v in VIEWERS:
            self._drop(_index(v), cid)

    def place_of(self, cid: int) -> Place | None:
        return self.places.get(cid)

    def _turn(self, cid: int, face_up: bool) -> None:
        """The card turned face-up or face-down where it is (what a viewer may track of it
        does not change: that depends on the zone and the owner alone)."""
        p = self.places[cid]
        self.places[cid] = place(p.zone, p.owner, p.controller, face_up)
        self.sides[p.owner] += 1
        self.sides[p.controller] += 1

    def follow(self, fact: Fact) -> None:
        """Update places from one fact (mirrors the zone changes of ``engine.apply``)."""
        t = fact.t
        if t not in PLACE_FACTS:  # no place changes (most facts)
            self.facts += 1
            return
        self.version += 1
        if t == "duel_started":
            self._forget()
            for seat, deck in enumerate(fact["decks"]):
                for cid, code in deck:
                    self.put(int(cid), place("deck", seat, seat, False))
                    self.codes[shared_int(int(cid))] = shared_code(int(code))
            for seat, extra in enumerate(fact.get("extra", [[], []])):
                for cid, code in extra:
                    self.put(int(cid), place("extra", seat, seat, False))
                    self.codes[shared_int(int(cid))] = shared_code(int(code))
        elif t == "setup":
            self._forget()
            for e in fact["cards"]:
                zone = str(e["zone"])
                face_up = bool(e.get("face_up", False))
                self.put(int(e["id"]), place(zone, int(e["owner"]), int(e["controller"]), face_up))
                self.codes[shared_int(int(e["id"]))] = shared_code(int(e["code"]))
        elif t == "drew":
            p = self.places[int(fact["card"])]
            self.put(int(fact["card"]), place("hand", p.owner, p.owner, False))
        elif t == "moved":
            cid = int(fact["card"])
            p = self.places[cid]
            to = str(fact["to"])
            if to in FIELD_ZONES:
                controller = int(fact.get("controller", p.controller))
                self.put(cid, place(to, p.owner, controller, bool(fact.get("face_up", True))))
            else:
                self.put(cid, place(to, p.owner, p.owner, to in (Zone.GRAVEYARD, Zone.BANISHED)))
        elif t == "flipped":
            self._turn(int(fact["card"]), True)
        elif t == "position_changed":
            self._turn(int(fact["card"]), bool(fact["face_up"]))
        elif t == "activated":
            cid = int(fact["card"])
            if self.places[cid].zone in (Zone.SPELLS_TRAPS, Zone.FIELD):
                self._turn(cid, True)
        elif t == "token_made":
            cid = int(fact["card"])
            seat = int(fact["seat"])
            self.put(cid, place("monsters", seat, seat, True))
            self.codes = {**self.codes, shared_int(cid): shared_code(int(fact["code"]))}
        elif t == "token_gone":
            self.remove(int(fact["card"]))
        self.facts += 1
