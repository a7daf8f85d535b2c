"""Selections made while an effect resolves (ruling SEL-1), and their answers.

Targets and costs are chosen at activation; every other selection a card's text makes ("Special
Summon 1 ... from your Deck", "destroy 1 monster your opponent controls", "choose an
Attribute", the battle position of a Special Summon) is made when the effect resolves, by the
player the text names, among what is legal then.

An effect asks with ``ask_cards`` or ``ask_option`` and names a *continuation*: a function
registered with ``@continuation("name")`` that does the rest of the effect with the answer. The
question is ``State.choice``::

    {"seat": 0, "kind": "cards", "cards": [ids], "count": 1, "min": 1, "then": "name", "data": {...}, "source": card}
    {"seat": 0, "kind": "options", "options": ["attack", "defense"], "then": "name", "data": {...}}

and the player answers ``{"do": "choose", "cards": [ids]}`` or ``{"do": "choose", "option":
"defense"}`` (values are always strings). ``min`` 0 means the selection is optional ("You can
..."): ``{"do": "choose", "cards": []}`` declines it. The engine asks only when there is
something to decide: with no candidate the continuation runs at once with nothing; with a single
candidate of a selection that must be made, with that one. While the question waits, a chain
being resolved stops and goes on afterwards (``chain.resolve_chain``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from ..actions import Choose, WireAction
from ..ctx import Ctx
from ..decisions import PendingChoice
from ..facts import Choice
from ..ops import special_summon
from ..state import Card, Link, State
from ..stats import can_summon, has_free_zone
from ..types import ChoiceKind, IllegalAction, Zone

Answer = list[int] | str
Then = Callable[[Ctx, int, Answer, dict[str, Any]], None]

# continuations by name: (ctx, answering seat, the answer, the data given to the question)
THEN: Final[dict[str, Then]] = {}
POSITIONS: Final[tuple[str, ...]] = ("attack", "defense")


def continuation(name: str) -> Callable[[Then], Then]:
    def register(fn: Then) -> Then:
        if name in THEN:
            raise ValueError(f"continuation {name!r} registered twice")
        THEN[name] = fn
        return fn

    return register


def ask_cards(
    ctx: Ctx,
    seat: int,
    cards: list[int],
    then: str,
    data: dict[str, Any] | None = None,
    count: int = 1,
    optional: bool = False,
    source: int | None = None,
    fewest: int | None = None,
    revealed: bool = False,
) -> None:
    """``seat`` selects ``count`` of ``cards`` (or none, if ``optional``), then ``then`` runs.
    ``fewest``: "up to ``count``" texts, at least this many (0: none is an answer too; Thunder
    Dragon's "up to 2"). ``revealed``: the cards were revealed to ``seat`` (``ops.reveal_to``: cards
    of the opponent's hand), so its question names them."""
    cards = list(dict.fromkeys(cards))
    d = dict(data or {})
    n = min(count, len(cards))
    least = (0 if optional else n) if fewest is None else min(fewest, n)
    if not cards or least == n == len(cards):
        THEN[then](ctx, seat, cards[:n], d)
        return
    choice: PendingChoice = {
        "seat": seat,
        "kind": "cards",
        "cards": cards,
        "count": n,
        "min": least,
        "then": then,
        "data": d,
    }
    if source is not None:
        choice["source"] = source  # the card whose effect asks (not "card": that names a trigger)
    if revealed:
        choice["revealed"] = True
    ctx.emit(Choice(choice=choice))


def ask_option(
    ctx: Ctx, seat: int, options: list[str], then: str, data: dict[str, Any] | None = None, source: int | None = None
) -> None:
    """``seat`` picks one of ``options`` (strings: a position, an Attribute, "yes"/"no" ...)."""
    d = dict(data or {})
    if len(options) <= 1:
        THEN[then](ctx, seat, options[0] if options else "", d)
        return
    choice: PendingChoice = {"seat": seat, "kind": "options", "options": list(options), "then": then, "data": d}
    if source is not None:
        choice["source"] = source  # the card whose effect asks (not "card": that names a trigger)
    ctx.emit(Choice(choice=choice))


def choice_actions(ch: PendingChoice) -> list[WireAction]:
    """The answers a pending ``cards``/``options`` question accepts."""
    from itertools import combinations

    if ch["kind"] == ChoiceKind.OPTIONS:
        return [{"do": "choose", "option": o} for o in ch["options"]]
    out: list[WireAction] = []
    n = int(ch.get("count", 1))
    least = int(ch.get("min", n))
    if least == 0:
        out.append({"do": "choose", "cards": []})
    for size in range(max(least, 1), n + 1):  # "up to n": every size from the least one
        out.extend({"do": "choose", "cards": list(c)} for c in combinations(ch["cards"], size))
    return out


def answer(ctx: Ctx, seat: int, action: Choose) -> None:
    ch = ctx.s.choice
    fn = THEN.get(str(ch.get("then"))) if ch is not None else None
    if ch is None or fn is None:
        raise IllegalAction("action/illegal", "no choice of this kind is pending")
    ctx.emit(Choice(choice=None))
    picked: Answer = [int(c) for c in action.cards or ()] if ch["kind"] == ChoiceKind.CARDS else str(action.option)
    fn(ctx, seat, picked, dict(ch.get("data", {})))


def then_call(ctx: Ctx, seat: int, then: str | None, answer: Answer, data: dict[str, Any]) -> None:
    if then:
        THEN[then](ctx, seat, answer, data)


def free_monster_zone(s: State, seat: int) -> bool:
    return has_free_zone(s, seat)


def deck_candidates(s: State, seat: int, pred: Callable[[Card], bool]) -> list[int]:
    """ "... 1 ... from your Deck": one candidate per different card (by passcode) in ``seat``'s
    Deck that ``pred`` accepts, the copy nearest the top (copies are alike)."""
    seen: set[int] = set()
    out: list[int] = []
    for cid in s.players[seat].deck:
        c = s.cards[cid]
        if c.code not in seen and pred(c):
            seen.add(c.code)
            out.append(cid)
    return out


# ------------------------------------------------------------------ Special Summons


def summon_choosing_position(
    ctx: Ctx,
    card: int,
    seat: int,
    then: str | None = None,
    data: dict[str, Any] | None = None,
    positions: tuple[str, ...] = POSITIONS,
    source: int | None = None,
    how: str = "special",
) -> None:
    """Special Summon ``card`` for ``seat`` in the face-up battle position its summoner picks
    (ruling SEL-3: a Special Summon whose text names no position is in face-up Attack or
    Defense Position, the summoning player's choice); ``then`` runs after it with [card] if it
    was Summoned, [] if not."""
    d: dict[str, Any] = {"card": card, "seat": seat, "then": then, "data": dict(data or {})}
    if how != "special":
        d["how"] = how  # only when not the default: the choices logs hold from before stay the same
    ask_option(ctx, seat, list(positions), "summon.position", d, source=source)


@continuation("summon.position")
def _summon_in_position(ctx: Ctx, seat: int, answer: Answer, d: dict[str, Any]) -> None:
    card = ctx.s.cards[int(d["card"])]
    ok = special_summon(ctx, card, int(d["seat"]), str(answer) or "attack", how=str(d.get("how", "special")))
    then_call(ctx, seat, d.get("then"), [card.id] if ok else [], dict(d.get("data", {})))


def summon_all_choosing_positions(
    ctx: Ctx, cards: list[int], seat: int, then: str | None = None, data: dict[str, Any] | None = None
) -> None:
    """Several monsters Special Summoned at the same time (Alien Mother's): the summoner picks
    each one's position in turn, then all are Summoned together."""
    d = {"queue": list(cards), "picked": [], "seat": seat, "then": then, "data": dict(data or {})}
    _next_position(ctx, seat, d)


def _next_position(ctx: Ctx, seat: int, d: dict[str, Any]) -> None:
    queue = list(d["queue"])
    if not queue:
        done = []
        for cid, pos in d["picked"]:
            if special_summon(ctx, ctx.s.cards[int(cid)], int(d["seat"]), str(pos)):
                done.append(int(cid))
        then_call(ctx, seat, d.get("then"), done, dict(d.get("data", {})))
        return
    ask_option(ctx, seat, list(POSITIONS), "summon.collect", {**d, "queue": queue}, source=queue[0])


@continuation("summon.collect")
def _collect_position(ctx: Ctx, seat: int, answer: Answer, d: dict[str, Any]) -> None:
    queue = list(d["queue"])
    d = {**d, "queue": queue[1:], "picked": [*d["picked"], [queue[0], str(answer)]]}
    _next_position(ctx, seat, d)


def summonable(s: State, seat: int, cards: list[int]) -> list[int]:
    """Those of ``cards`` that ``seat`` may Special Summon by an effect now (``stats.can_summon``:
    not one that "cannot be Special Summoned" or only its own way, not a second Miracle Flipper
    ...; rulings SUM-1, SUM-2, GEN-4)."""
    return [cid for cid in cards if can_summon(s, s.cards[cid], seat, "special")]


def can_summon_from_deck(pred: Callable[[Card], bool]) -> Callable[[State, Card, int], bool]:
    """The activation condition of "Special Summon 1 ... from your Deck": a free Monster Zone and
    such a monster in the Deck that may be Special Summoned (which one is selected only as the
    effect resolves; ruling GEN-4)."""

    def condition(s: State, card: Card, seat: int) -> bool:
        return free_monster_zone(s, seat) and bool(summonable(s, seat, deck_candidates(s, seat, pred)))

    return condition


def summon_from_deck(ctx: Ctx, link: Link, pred: Callable[[Card], bool], then: str | None = None) -> None:
    """ "Special Summon 1 ... from your Deck": the monster is selected as the effect resolves
    (SEL-1), among those in the Deck then, and Special Summoned in the position its controller
    picks (SEL-3); ``then`` runs after the Summon with [card] (Jurrac Guaiba)."""
    summon_one_of(ctx, link, deck_candidates(ctx.s, link.controller, pred), then)


def summon_one_of(ctx: Ctx, link: Link, candidates: list[int], then: str | None = None) -> None:
    """Summon the chosen card: ``link``'s controller selects 1 of ``candidates`` (in the hand or
    the Deck) that may be Special Summoned (``summonable``) as the effect resolves (ruling SEL-1) and
    Special Summons it in the face-up position they pick (SEL-3); with no free Monster Zone there is
    nothing to select. ``then`` runs after the Summon with [card] (Jurrac Guaiba)."""
    seat = link.controller
    cands = summonable(ctx.s, seat, list(candidates)) if free_monster_zone(ctx.s, seat) else []
    ask_cards(ctx, seat, cands, "deck.summon", {"then": then, "source": link.card}, source=link.card)


def fusion_deck_candidates(s: State, seat: int, pred: Callable[[Card], bool]) -> list[int]:
    """ "... 1 Fusion Monster from your Fusion Deck": the Fusion Monsters of ``seat``'s Fusion Deck
    that ``pred`` accepts and that an effect may Special Summon from there (not one that "must be
    Fusion Summoned and cannot be Special Summoned by other ways"; ruling SUM-31)."""
    cards = s.cards
    return [
        cid
        for cid in s.players[seat].extra
        if "fusion" in cards[cid].data.monster_kinds and pred(cards[cid]) and can_summon(s, cards[cid], seat, "extra")
    ]


def summon_from_fusion_deck(
    ctx: Ctx, link: Link, candidates: list[int], positions: tuple[str, ...] = POSITIONS, then: str | None = None
) -> None:
    """ "Special Summon 1 Fusion Monster from your Fusion Deck" (Metamorphosis, Cyber-Stein):
    ``link``'s controller selects one of ``candidates`` as the effect resolves (ruling SEL-1) and
    Special Summons it in the face-up position they pick among ``positions`` (SEL-3); it counts
    as properly Summoned (ruling SUM-31)."""
    seat = link.controller
    cands = list(candidates) if free_monster_zone(ctx.s, seat) else []
    d = {"then": then, "source": link.card, "positions": list(positions)}
    ask_cards(ctx, seat, cands, "extra.summon", d, source=link.card)


@continuation("extra.summon")
def _summon_from_extra(ctx: Ctx, seat: int, answer: Answer, d: dict[str, Any]) -> None:
    for cid in answer if isinstance(answer, list) else []:
        if ctx.s.cards[cid].zone == Zone.EXTRA:
            positions = tuple(str(p) for p in d["positions"])
            summon_choosing_position(
                ctx, cid, seat, then=d.get("then"), positions=positions, source=int(d["source"]), how="extra"
            )


@continuation("deck.summon")
def _summon_picked(ctx: Ctx, seat: int, answer: Answer, d: dict[str, Any]) -> None:
    for cid in answer if isinstance(answer, list) else []:
        c = ctx.s.cards[cid]
        if c.zone in (Zone.DECK, Zone.HAND) and c.owner == seat:
            summon_choosing_position(ctx, cid, seat, then=d.get("then"), source=int(d["source"]))
