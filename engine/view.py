"""What each seat (and a spectator) may see of the state: ``view``.

Hidden from a seat: the opponent's hand, every deck's order, the identity of
face-down cards it does not own, and the PRNG state (DESIGN invariant 5). A
spectator (seat ``None``) sees public information only. ``omniscient`` is for
finished matches and the operator's replays.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .aliases import AliasBook
from .battle.battle_step import attacks_remaining
from .state import Card, State
from .stats import atk, def_


def _memo(s: State) -> dict[Any, Any]:
    """What views computed from ``s`` (cleared by every fact applied to it)."""
    m = s._memo
    if m is None:
        m = s._memo = {}
    return m


def _pending(s: State) -> dict[str, Any] | None:
    """``flow.pending``, once per state (read only)."""
    from .flow import pending  # local: flow imports battle modules that import view helpers

    m = _memo(s)
    if "pending" in m:
        got: dict[str, Any] | None = m["pending"]
        return got
    p = m["pending"] = pending(s)
    return p


def _stats(s: State, c: Card) -> tuple[int, int, int | None]:
    """A face-up monster's ATK, DEF and attacks left: the same for every viewer, so computed
    once per state."""
    m = _memo(s)
    key = ("stats", c.id)
    got: tuple[int, int, int | None] | None = m.get(key)
    if got is None:
        got = m[key] = (atk(s, c), def_(s, c), attacks_remaining(s, c) if s.phase == "battle" else None)
    return got


def _card(
    s: State, c: Card, seat: int | None, omniscient: bool = False, book: AliasBook | None = None
) -> dict[str, Any]:
    if book is not None and not omniscient:
        ref, visible = book.sight_of(seat, c.id)
        if c.equipped_to is None and not c.counters and not (c.zone == "monsters" and c.face_up):
            # what the viewer sees of this card depends on the card alone (and how the viewer
            # names it): kept on the card until it is next written (engine.state.write_card)
            memo = c._memo
            if memo is None:
                memo = c._memo = {}
            key = (seat, ref, visible)
            seen: dict[str, Any] | None = memo.get(key)
            if seen is None:
                seen = memo[key] = _render(s, c, seat, ref, visible, book)
            return dict(seen)
        return _render(s, c, seat, ref, visible, book)
    visible = omniscient or c.face_up or (seat is not None and c.owner == seat and c.zone != "deck")
    out: dict[str, Any] = {"id": c.id, "zone": c.zone, "controller": c.controller}
    return _finish(s, c, seat, omniscient, book, visible, out)


def _render(s: State, c: Card, seat: int | None, ref: int | None, visible: bool, book: AliasBook) -> dict[str, Any]:
    out: dict[str, Any] = {} if ref is None else {"id": ref}
    out["zone"] = c.zone
    out["controller"] = c.controller
    return _finish(s, c, seat, False, book, visible, out)


def _finish(
    s: State, c: Card, seat: int | None, omniscient: bool, book: AliasBook | None, visible: bool, out: dict[str, Any]
) -> dict[str, Any]:
    if c.zone == "monsters":
        out["position"] = c.position if c.face_up else "set"
    if c.zone in ("monsters", "spells_traps", "field"):
        out["slot"] = c.slot
        out["face_up"] = c.face_up
    if not visible:
        out["hidden"] = True
        return out
    d = c.data
    out["code"] = c.code
    out["name"] = d.name
    if d.is_monster:
        if c.zone == "monsters" and (c.face_up or omniscient):
            out["atk"], out["def"], out["attacks_remaining"] = _stats(s, c)
        else:
            out["atk"] = d.atk
            out["def"] = d.def_
    if c.counters:
        out["counters"] = dict(c.counters)
    if c.equipped_to is not None:
        out["equipped_to"] = _ref(book, seat, c.equipped_to, omniscient)
    return out


def _ref(book: AliasBook | None, seat: int | None, cid: int | None, omniscient: bool) -> int | None:
    """How ``seat`` names card ``cid`` (its alias; the engine id without a book)."""
    if cid is None or book is None or omniscient:
        return cid
    return book.ref_any(seat, cid)


def view(s: State, seat: int | None, omniscient: bool = False, book: AliasBook | None = None) -> dict[str, Any]:
    """The duel as ``seat`` sees it (``None``: a spectator). With an alias ``book`` card ids
    are the viewer's aliases and cards in places it cannot track have no id (engine.aliases)."""
    cards = s.cards
    if book is not None and not omniscient:
        places = book.places
        aliases = book.aliases_of(seat)

        def card(cid: int) -> dict[str, Any]:
            # _card for a viewer with an alias book, written out (the view's inner loop)
            c = cards[cid]
            place = places.get(cid)
            if place is None:
                ref, visible = None, False
            else:
                ref, visible = aliases.get(cid), place.known(seat)
            if c.equipped_to is None and not c.counters and not (c.zone == "monsters" and c.face_up):
                memo = c._memo
                if memo is None:
                    memo = c._memo = {}
                key = (seat, ref, visible)
                seen: dict[str, Any] | None = memo.get(key)
                if seen is None:
                    seen = memo[key] = _render(s, c, seat, ref, visible, book)
                return dict(seen)
            return _render(s, c, seat, ref, visible, book)

    else:

        def card(cid: int) -> dict[str, Any]:
            return _card(s, cards[cid], seat, omniscient, book)

    def ref(cid: int | None) -> int | None:
        return _ref(book, seat, cid, omniscient)

    zones_key: tuple[Any, ...] | None = None
    if book is not None and not omniscient:
        # the players' part of the view depends on the cards (and their stats) and how the
        # viewer names them: kept with the state for this book while no fact moved a card in
        # it (engine.decide carries it to the next state over facts that change neither)
        zones_key = ("zones", seat, book.token, book.version)
        kept: list[dict[str, Any]] | None = _memo(s).get(zones_key)
        if kept is not None:
            return _frame(s, seat, omniscient, book, [dict(p) for p in kept], ref)
    players: list[dict[str, Any]] = []
    for sd in (0, 1):
        p = s.players[sd]
        players.append(
            {
                "lp": p.lp,
                "hand": [card(c) for c in p.hand],
                "hand_count": len(p.hand),
                "deck_count": len(p.deck),
                "extra_count": len(p.extra),
                "monsters": [None if c is None else card(c) for c in p.monsters],
                "spells_traps": [None if c is None else card(c) for c in p.spells_traps],
                "field": None if p.field_zone is None else card(p.field_zone),
                "graveyard": [card(c) for c in p.graveyard],
                "banished": [card(c) for c in p.banished],
                "normal_summoned": p.normal_summoned,
            }
        )
    if zones_key is not None and not any(s.cards[cid].equipped_to is not None for cid in _field_ids(s)):
        _memo(s)[zones_key] = players  # (an equipped card may be named by an ephemeral alias)
        players = [dict(p) for p in players]
    return _frame(s, seat, omniscient, book, players, ref)


def _field_ids(s: State) -> list[int]:
    return [c.id for c in s.field_cards()]


def _frame(
    s: State,
    seat: int | None,
    omniscient: bool,
    book: AliasBook | None,
    players: list[dict[str, Any]],
    ref: Callable[[int | None], int | None],
) -> dict[str, Any]:
    """The view around the players' part: the turn, the decision owed, chain and attack."""
    if book is None or omniscient:
        p = _pending(s)
        shown = None if p is None else dict(p)
    else:
        shown = presented_pending(s, seat, book)
    attack = None
    if s.attack is not None:
        a = s.attack
        attack = {"attacker": ref(a.attacker), "target": ref(a.target), "replay": a.replay, "calculated": a.calculated}
    return {
        "you": seat,
        "turn": s.turn,
        "turn_player": s.turn_player,
        "phase": s.phase,
        "step": s.step,
        "damage_step": s.damage_step,
        "battle_phases": s.battle_phases,
        # who must act now (with a book: the deciding seat, so that a decision about a card hidden
        # from this viewer cannot be told from a priority window by comparing the two)
        "priority": s.priority if book is None or omniscient or shown is None else shown["seat"],
        "pending": shown,
        "chain": [
            {
                "link": i + 1,
                "card": ref(link.card),
                "code": s.cards[link.card].code,
                "controller": link.controller,
                "targets": [ref(t) for t in link.targets],
                "negated": link.negated,
            }
            for i, link in enumerate(s.chain)
        ],
        "attack": attack,
        "players": players,
        "winner": s.winner,
        "end_reason": s.end_reason,
    }


SEAT_NAMES = ("A", "B")


def presented_pending(s: State, seat: int | None, book: AliasBook) -> dict[str, Any] | None:
    """Who must decide, as ``seat`` may know it. The deciding seat gets the whole decision
    (with the card a trigger choice is about); the others learn who is deciding and the kind
    of decision, except that a decision about a card hidden from them (an optional trigger of
    a card in the hand) looks like any other priority window."""
    # kept with the state for this book while its aliases stay (places and the entry: an
    # ephemeral alias changes with every entry)
    key = ("shown", seat, book.token, book.version, book.entries)
    memo = _memo(s)
    if key in memo:
        kept: dict[str, Any] | None = memo[key]
        return None if kept is None else dict(kept)
    shown = memo[key] = _presented_pending(s, seat, book)
    return None if shown is None else dict(shown)


def _presented_pending(s: State, seat: int | None, book: AliasBook) -> dict[str, Any] | None:
    p = _pending(s)
    if p is None:
        return None
    decider = int(str(p["seat"]))
    if decider == seat:
        out = dict(p)
        for key in ("card", "source"):  # the trigger's card; the card whose effect asks
            if s.choice is not None and isinstance(s.choice.get(key), int):
                out[key] = book.ref_any(seat, int(s.choice[key]))
        if s.choice is not None and s.choice.get("kind") == "cards":
            # the candidates, named where the deciding seat knows them (its own Deck, say)
            cards = []
            for cid in s.choice.get("cards", []):
                entry: dict[str, Any] = {"id": book.ref_any(seat, int(cid))}
                if book.known(seat, int(cid)) or (s.cards[int(cid)].zone == "deck" and s.cards[int(cid)].owner == seat):
                    entry["code"] = s.cards[int(cid)].code
                    entry["name"] = s.cards[int(cid)].data.name
                cards.append(entry)
            out["cards"] = cards
        return out
    kind = str(p["kind"])
    if kind == "trigger" and s.choice is not None and not book.known(seat, int(s.choice.get("card", -1))):
        kind = "priority"
    return {"seat": decider, "kind": kind, "prompt": f"waiting for {SEAT_NAMES[decider]}"}
