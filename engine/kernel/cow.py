"""Copy-on-write states (ADR 0006): a new state shares the card objects, the cards dict and the
players of the state it was made from, and copies one only to write it. Every write of a card
or a player in the fold (``engine.apply``) goes through ``write_card`` / ``write_player``; a
``Ctx`` writes a state's cards in place under a ``Journal`` (``begin_in_place`` /
``end_in_place``); ``CardPool`` shares untouched Deck cards between duels.
"""

from __future__ import annotations

import copy
import threading
from typing import Any, Final

from ..state import Card, Player, Resolving, State
from ..types import Zone
from .fields import copy_attack, copy_card, copy_link, copy_player, share_state, swap_card, swap_player
from .hashing import _card_bytes, _packer


def _small_parts(n: State, state: State) -> None:
    """Give ``n`` its own copies of everything but the cards (the players, the chain ...):
    small, and written in place by the facts."""
    n.chain = [copy_link(link) for link in state.chain]
    for link in n.chain:
        link.targets = list(link.targets)
        link.data = copy_plain(link.data)
    if state.resolving is not None:
        r = state.resolving
        n.resolving = Resolving(was=[list(x) for x in r.was], destroyed=list(r.destroyed), started=r.started)
    if state.attack is not None:
        a = copy_attack(state.attack)
        a.snapshot = list(a.snapshot)
        a.destroyed = list(a.destroyed)
        a.damage = list(a.damage)
        n.attack = a
    n.modifiers = list(state.modifiers)  # Modifier and Trigger objects are never written
    n.triggers = list(state.triggers)
    n.skip = list(state.skip)
    n.used = dict(state.used)
    n.next_turn = list(state.next_turn)
    # options, event, choice and start_step_monsters are replaced by the facts, never written


def copy_plain(v: Any) -> Any:
    """A deep copy of plain data (dicts, lists, and values never written in place), by
    ``copy.deepcopy`` only for anything else: a chain link's ``data`` is copied with every new
    state, and ``copy.deepcopy`` runs in the interpreter (~2 µs for a small dict)."""
    t = type(v)
    if t is dict:
        return {k: copy_plain(x) for k, x in v.items()}
    if t is list:
        return [copy_plain(x) for x in v]
    if v is None or t is int or t is str or t is bool or t is float:
        return v
    return copy.deepcopy(v)


def clone(state: State) -> State:
    """A full copy that shares nothing with ``state`` (every card copied)."""
    n = share_state(state)
    n._board = None  # other card objects
    _small_parts(n, state)
    n.players = [copy_player(p) for p in state.players]
    n.cards = {k: copy_card(c) for k, c in state.cards.items()}
    n.options = dict(state.options)
    n.event = None if state.event is None else state.event.copy()
    n.choice = None if state.choice is None else copy.deepcopy(state.choice)
    n.start_step_monsters = [list(x) for x in state.start_step_monsters]
    return n


def deep_clone(state: State) -> State:
    """The obvious copy, kept as the benchmark baseline and as a cross-check in tests."""
    n = copy.deepcopy(state)
    n._w = None
    n._memo = None
    return n


# ---------------------------------------------------------------- copy-on-write (ADR 0006)


class Journal:
    """The cards (and players) a ``Ctx`` wrote in place, each with a copy of how it was before."""

    __slots__ = ("cards", "new_dict", "players")

    def __init__(self) -> None:
        self.cards: dict[int, tuple[Card, Card]] = {}  # id -> (the card written, its first version)
        self.players: dict[int, tuple[Player, Player]] = {}  # seat -> (the player written, its first version)
        self.new_dict = False  # a card was added: the state has a cards dict of its own (``add_card``)


def derive(state: State) -> State:
    """A new state equal to ``state`` that shares its card objects, and its cards dict, with it.
    Both states then write a shared card only by copying it first (``write_card``), and the
    dict only by copying it first (``own_cards``: most actions write no card, and copying the
    dict of a duel's 80 cards, then freeing it, was the one cost of a new state that grew with
    the duel), so neither ever sees the other's changes."""
    if isinstance(state._w, Journal):  # a Ctx is writing its cards in place: share nothing
        return clone(state)
    n = share_state(state)
    _small_parts(n, state)
    n.players = list(state.players)
    n.cards = state.cards
    n._w = set()
    state._w = set()  # the cards it owned, and its cards dict, are shared now
    return n


OWN_CARDS: Final = -100
"""In a copy-on-write state's set of owned objects (``State._w``): it owns its cards dict
(card ids are >= 0, players -1 and -2)."""


def own_cards(s: State) -> dict[int, Card]:
    """``s.cards``, ready to be written (a card added or replaced): copied first if ``s``
    shares the dict with the state it was derived from (or derived)."""
    w = s._w
    if type(w) is set and OWN_CARDS not in w:
        s.cards = dict(s.cards)
        w.add(OWN_CARDS)
    return s.cards


def new_cards(s: State) -> None:
    """Give ``s`` a new, empty cards dict of its own (a fact that sets a whole position up)."""
    s.cards = {}
    w = s._w
    if type(w) is set:
        w.add(OWN_CARDS)


def add_card(s: State, card: Card) -> None:
    """Add a new card to ``s`` (a Token made on the field): the cards dict is copied first if
    ``s`` shares it, also while a Ctx writes ``s`` in place (the state it was derived from keeps
    its dict, without the new card)."""
    w = s._w
    if isinstance(w, Journal):
        if not w.new_dict:
            s.cards = dict(s.cards)
            w.new_dict = True
    else:
        own_cards(s)
    s.cards[card.id] = card
    s._board = None


def begin_in_place(state: State) -> Journal:
    """Let a ``Ctx`` write ``state``'s cards in place (so that rules code holding a card sees
    every change to it), keeping the first version of each card it writes."""
    j = Journal()
    state._w = j
    return j


def end_in_place(state: State, j: Journal, keep: bool) -> None:
    """Close a journal. Every card written in place gets its first version back, so the
    states it is shared with are as before. ``keep``: ``state`` holds the written versions,
    as cards of its own (copy-on-write from then on); else ``state`` is thrown away."""
    own: set[int] = set()
    if keep and j.new_dict:  # a card was added: the dict is the state's own already (``add_card``)
        own.add(OWN_CARDS)
    elif keep and j.cards:  # the dict is shared with the state it was derived from (``derive``)
        state.cards = dict(state.cards)
        own.add(OWN_CARDS)
    for cid, (card, first) in j.cards.items():
        swap_card(card, first)  # ``card`` is as it was; ``first`` now holds what was written
        if keep and state.cards.get(cid) is card:
            state.cards[cid] = first
            own.add(cid)
    for seat, (player, pfirst) in j.players.items():
        swap_player(player, pfirst)
        if keep and state.players[seat] is player:
            state.players[seat] = pfirst
            own.add(_player_key(seat))
    if j.cards or j.players:
        state._board = None  # its written cards and players are other objects now
    j.cards.clear()
    j.players.clear()
    j.new_dict = False
    state._w = own
    state._memo = None  # what was kept refers to the card objects of before the swap


def write_card(s: State, cid: int) -> Card:
    """The card ``cid`` of ``s``, ready to be written (every write of a card in engine.apply
    goes through here): copied first if ``s`` shares it, its first version kept if a Ctx
    writes in place; its cached bytes and renderings are dropped."""
    c = s.cards[cid]
    w = s._w
    if w is not None:
        if type(w) is set:
            if cid not in w:
                c = copy_card(c)
                own_cards(s)[cid] = c
                w.add(cid)
        elif cid not in w.cards:
            first = copy_card(c)
            first._memo = c._memo
            first._packed = c._packed
            w.cards[cid] = (c, first)
    c._memo = None
    c._packed = None
    s._board = None
    return c


class CardPool:
    """Cards that no state has written, shared by the states of many duels (one pool per
    process). A card still in its Deck or Extra Deck is the same object in every duel where it
    has the same id, passcode and owner and nothing has happened to it: decks are lists of a
    few dozen passcodes and ids count from the same base, so a server holding thousands of
    duels needs a few thousand such cards, not 60 per duel (with their packed bytes for
    ``state_hash``, ~250 bytes each). Copy-on-write (``write_card``) already keeps a shared
    card from being written: a state sharing it copies it first, whichever duel it belongs to.

    Bounded: once ``limit`` cards are pooled, new ones stay with their duel. Used from the
    thread that made it only (a Ctx writes a shared card in place for the length of one
    ``decide``): ``share_unwritten`` shares nothing from another thread."""

    __slots__ = ("cards", "limit", "thread")

    def __init__(self, limit: int = 50_000) -> None:
        self.cards: dict[bytes, Card] = {}  # a card's packed bytes (its id and fields) -> the card
        self.limit = limit
        self.thread = threading.get_ident()


SHAREABLE_ZONES: Final = frozenset({Zone.DECK, Zone.EXTRA})
"""Where a card is never rendered in a view (engine.view renders the hand, the field, the
Graveyard and banished cards), so a pooled card keeps no viewer's rendering of any duel."""


def share_unwritten(state: State, pool: CardPool) -> int:
    """Put each card of ``state`` in its Deck or Extra Deck into ``pool`` (or take the pool's
    equal card instead) and stop owning it, so that the first write of it in ``state`` copies
    it (``write_card``). Changes no state's content, hash or views; returns how many cards
    ``state`` now shares with the pool. Not while a Ctx writes ``state`` in place.

    Safe because the engine writes a card only through ``write_card`` and no write happens
    between two states' rules code: a Ctx that writes a shared card in place (``Journal``)
    gives it its first version back before ``decide`` returns, and the engine runs on one
    thread (``CardPool.thread``: from any other, nothing is shared)."""
    w = state._w
    if isinstance(w, Journal):
        raise RuntimeError("share_unwritten while a Ctx writes the state in place")
    if threading.get_ident() != pool.thread:
        return 0
    # None: the state owns every object it holds (so no other state holds any of them)
    if w is None:
        owned: set[int] = {*state.cards, OWN_CARDS, *(_player_key(seat) for seat in range(len(state.players)))}
    else:
        owned = w
    cards = own_cards(state)  # with ``w`` None it owns its dict; else copied first if shared
    state._board = None  # some of its card objects are replaced by the pool's
    pooled = pool.cards
    packer = _packer()
    shared = 0
    for cid, c in list(cards.items()):
        if c.zone not in SHAREABLE_ZONES or c._memo is not None:
            continue
        key = c._packed or _card_bytes(c, packer)
        got = pooled.get(key)
        if got is None:
            if len(pooled) >= pool.limit:
                continue
            got = pooled[key] = c  # no other state owns ``c``: owned objects are never shared
        cards[cid] = got
        owned.discard(cid)
        shared += 1
    state._w = owned
    return shared


def _player_key(seat: int) -> int:
    """The key of a player in a copy-on-write state's set of owned objects (card ids are >= 0)."""
    return -1 - seat


def write_player(s: State, seat: int) -> Player:
    """Player ``seat`` of ``s``, ready to be written (as ``write_card``: every write of a player
    in engine.apply goes through here)."""
    p = s.players[seat]
    w = s._w
    if w is not None:
        if type(w) is set:
            key = -1 - seat
            if key not in w:
                p = copy_player(p)
                s.players[seat] = p
                w.add(key)
        elif seat not in w.players:
            first = copy_player(p)
            first._packed = p._packed
            first._memo = p._memo
            w.players[seat] = (p, first)
    p._packed = None
    p._memo = None
    s._board = None
    return p
