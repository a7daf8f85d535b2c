"""What each seat (and a spectator) may see of the state: ``view``.

Hidden from a seat: the opponent's hand, every deck's order, the identity of
face-down cards it does not own, and the PRNG state (DESIGN invariant 5). A
spectator (seat ``None``) sees public information only. ``omniscient`` is for
finished matches and the operator's replays.
"""

from __future__ import annotations

from typing import Any, Final

from .aliases import AliasBook
from .battle.battle_step import attacks_remaining
from .flow import moves
from .kernel.caches import held_ids
from .kernel.interning import shared_code, shared_int
from .kernel.views import CardSource, Renderer, Stats, players_part, shown_pending, shown_stats
from .owed import pending
from .plain import plain_value
from .state import Card, Player, State
from .stats import atk_def
from .types import ChoiceKind, Phase, Zone


def _shown_stats(s: State, c: Card) -> Stats:
    """A face-up monster's ATK, DEF and attacks left (None outside the Battle Phase), as views
    show them: the same for every viewer (``shown_stats`` works them out once per state)."""
    return (*atk_def(s, c), attacks_remaining(s, c) if s.phase == Phase.BATTLE else None)


def _render(c: Card, ref: int | None, visible: bool, stats: Stats | None, equipped_to: int | None) -> dict[str, Any]:
    """What a viewer sees of card ``c``: a function of the card and of the arguments alone
    (``ref``: how the viewer names it; ``visible``: whether it knows the card; ``stats``: its
    ATK/DEF when shown computed; ``equipped_to``: how the viewer names what it equips)."""
    out: dict[str, Any] = {} if ref is None else {"id": ref}
    zone = out["zone"] = plain_value(c.zone)
    out["controller"] = c.controller
    if zone == Zone.MONSTERS:
        out["position"] = plain_value(c.position) if c.face_up else "set"
    if zone in FIELD_ZONES:
        out["slot"] = c.slot
        out["face_up"] = c.face_up
    if not visible:
        out["hidden"] = True
        return out
    d = c.data
    # one int object per passcode and printed stat (``kernel.interning``)
    out["code"] = shared_code(c.code)
    out["name"] = d.name
    if d.is_monster:
        if stats is not None:
            out["atk"], out["def"], out["attacks_remaining"] = stats
        else:
            out["atk"] = shared_int(d.atk)
            out["def"] = shared_int(d.def_)
    if c.counters:
        out["counters"] = dict(c.counters)
    if c.equipped_to is not None:
        out["equipped_to"] = equipped_to
    return out


def view(s: State, seat: int | None, omniscient: bool = False, book: AliasBook | None = None) -> dict[str, Any]:
    """The duel as ``seat`` sees it (``None``: a spectator). With an alias ``book`` card ids
    are the viewer's aliases and cards in places it cannot track have no id (engine.aliases).

    Read only below the top level: the players' part (its list, its dicts, their zone lists
    and card dicts) may be shared with other views, of this state or of others."""
    if book is None or omniscient:
        return _frame(s, seat, None, _players_plain(s, seat, omniscient))
    return _frame(s, seat, book, players_part(s, seat, book, RENDERER))


FIELD_ZONES: Final = frozenset({"monsters", "spells_traps", "field"})


class _PlainCards(CardSource):
    """The rendering with engine ids (no alias book), worked out anew."""

    def __init__(self, s: State, seat: int | None, omniscient: bool) -> None:
        self.s = s
        self.seat = seat
        self.omniscient = omniscient

    def card(self, cid: Any) -> dict[str, Any]:
        s, seat, omniscient = self.s, self.seat, self.omniscient
        c = s.cards[cid]
        visible = omniscient or c.face_up or (seat is not None and c.owner == seat and c.zone != Zone.DECK)
        shown = visible and c.zone == Zone.MONSTERS and (c.face_up or omniscient) and c.data.is_monster
        return _render(c, cid, visible, shown_stats(s, c, cid, RENDERER) if shown else None, c.equipped_to)


def _players_plain(s: State, seat: int | None, omniscient: bool) -> list[dict[str, Any]]:
    """The players' part with engine ids (no alias book), worked out anew."""
    r = _PlainCards(s, seat, omniscient)
    return [_side(s.players[sd], r) for sd in (0, 1)]


def _side(p: Player, r: CardSource) -> dict[str, Any]:
    hand = held_ids(p.hand)
    graveyard = held_ids(p.graveyard)
    banished = held_ids(p.banished)
    return {
        "lp": p.lp,
        "hand": [r.card(c) for c in hand],
        "hand_count": len(hand),
        "deck_count": len(p.deck),
        "extra_count": len(p.extra),
        "monsters": [None if c is None else r.card(c) for c in p.monsters],
        "spells_traps": [None if c is None else r.card(c) for c in p.spells_traps],
        "field": None if p.field_zone is None else r.card(p.field_zone),
        "graveyard": [r.card(c) for c in graveyard],
        "banished": [r.card(c) for c in banished],
        "normal_summoned": p.normal_summoned,
    }


def _frame(s: State, seat: int | None, book: AliasBook | None, players: list[dict[str, Any]]) -> dict[str, Any]:
    """The view around the players' part: the turn, the decision owed, chain and attack.
    ``book``: how the viewer names cards (None: by their engine ids, as the omniscient do)."""
    if book is None:
        owed = pending(s)
        shown = None if owed is None else dict(owed)
    else:
        shown = presented_pending(s, seat, book)
    attack = None
    if s.attack is not None:
        a = s.attack
        attack = {
            "attacker": _ref(book, seat, a.attacker),
            "target": _ref(book, seat, a.target),
            "replay": a.replay,
            "calculated": a.calculated,
        }
    out: dict[str, Any] = {
        "you": seat,
        "turn": s.turn,
        "turn_player": s.turn_player,
        # plain strs, as the facts on the wire hold them (engine.plain.plain_value)
        "phase": plain_value(s.phase),
        "step": plain_value(s.step),
        "damage_step": plain_value(s.damage_step),
        "battle_phases": s.battle_phases,
        # who must act now (with a book: the deciding seat, so that a decision about a card hidden
        # from this viewer cannot be told from a priority window by comparing the two)
        "priority": s.priority if book is None or shown is None else shown["seat"],
        "pending": shown,
        "chain": [
            {
                "link": i + 1,
                "card": _ref(book, seat, link.card),
                "code": s.cards[link.card].code,
                "controller": link.controller,
                "targets": [_ref(book, seat, t) for t in link.targets],
                "negated": link.negated,
            }
            for i, link in enumerate(s.chain)
        ],
        "attack": attack,
        "players": players,
        "winner": s.winner,
        "end_reason": s.end_reason,
    }
    if seat is not None and seat == s.priority:
        # where the deciding seat's moves through the turn go (its buttons say it): for that seat
        # only, so that no other viewer can tell an open window from a decision it cannot see
        went = moves(s)
        if went is not None:
            out["moves"] = went
    return out


def _ref(book: AliasBook | None, seat: int | None, cid: int | None) -> int | None:
    """How the viewer names card ``cid``: its alias in ``book``, or its engine id (no book)."""
    if cid is None or book is None:
        return cid
    return book.ref_any(seat, cid)


SEAT_NAMES: Final[tuple[str, ...]] = ("A", "B")


def presented_pending(s: State, seat: int | None, book: AliasBook) -> dict[str, Any] | None:
    """Who must decide, as ``seat`` may know it. The deciding seat gets the whole decision
    (with the card a trigger choice is about); the others learn who is deciding and the kind
    of decision, except that a decision about a card hidden from them (an optional trigger of
    a card in the hand) looks like any other priority window. Read only."""
    return shown_pending(s, seat, book, RENDERER)


def _presented_pending(s: State, seat: int | None, book: AliasBook) -> dict[str, Any] | None:
    p = pending(s)  # read only: copied below where it is shown whole
    if p is None:
        return None
    decider = p["seat"]  # a choice's seat or the priority
    if decider == seat:
        out = dict(p)
        for key in ("card", "source"):  # the trigger's card; the card whose effect asks
            if s.choice is not None and isinstance(s.choice.get(key), int):
                out[key] = book.ref_any(seat, int(s.choice[key]))
        if s.choice is not None and s.choice.get("kind") == ChoiceKind.CARDS:
            # the candidates, named where the deciding seat knows them (its own Deck, say)
            cards = []
            for cid in s.choice.get("cards", []):
                entry: dict[str, Any] = {"id": book.ref_any(seat, int(cid))}
                if (
                    book.known(seat, int(cid))
                    or (s.cards[int(cid)].zone == Zone.DECK and s.cards[int(cid)].owner == seat)
                    or s.choice.get("revealed")  # shown to the deciding seat (``ops.reveal_to``)
                ):
                    entry["code"] = s.cards[int(cid)].code
                    entry["name"] = s.cards[int(cid)].data.name
                cards.append(entry)
            out["cards"] = cards
            if s.choice.get("revealed"):
                out["revealed"] = True
        return out
    kind = str(p["kind"])
    if kind == ChoiceKind.TRIGGER and s.choice is not None and not book.known(seat, int(s.choice.get("card", -1))):
        kind = "priority"
    return {"seat": decider, "kind": kind, "prompt": _WAITING[decider]}


_WAITING: Final = tuple(f"waiting for {name}" for name in SEAT_NAMES)


class _Rendering(Renderer):
    """This module's rendering, as the kernel's view caches ask for it (``kernel.views``)."""

    def stats(self, s: State, c: Card) -> Stats:
        return _shown_stats(s, c)

    def card(
        self, c: Card, ref: int | None, visible: bool, stats: Stats | None, equipped: int | None
    ) -> dict[str, Any]:
        return _render(c, ref, visible, stats, equipped)

    def side(self, p: Player, cards: CardSource) -> dict[str, Any]:
        return _side(p, cards)

    def pending(self, s: State, seat: int | None, book: AliasBook) -> dict[str, Any] | None:
        return _presented_pending(s, seat, book)


RENDERER: Final = _Rendering()
