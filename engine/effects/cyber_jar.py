"""Cyber Jar, its Goat wording: "FLIP: Destroy all monsters on the field. Both players then pick
up 5 cards from the top of their respective Decks and Special Summon all Level 4 or lower Monster
Cards among them on the field in face-up Attack Position or face-down Defense Position. The rest
of the cards picked up are added to their respective hands."

A mandatory FLIP effect (ruling CARD-22 for how it resolves):

1. every monster on the field is destroyed at the same time (itself too);
2. each player picks up the top 5 cards of their Deck (as many as there are), shown to both
   players (public ``revealed`` notes; Goat's "pick up" is carried out face-up, as Project Ignis'
   Goat script does);
3. each player, the turn player first, Special Summons every Level 4 or lower monster among
   their cards that may be Special Summoned, choosing for each face-up Attack Position or
   face-down Defense Position; with more such monsters than free Monster Zones they choose which,
   and the others go to the Graveyard. All are Summoned at the same time, the face-down ones into
   the zones in an order drawn at random (so the opponent cannot tell which shown card is which);
4. the other cards picked up go to their owners' hands (a monster that cannot be Special
   Summoned, such as Tsukuyomi, too)."""

from __future__ import annotations

from typing import Any

from .api import (
    Answer,
    Card,
    Ctx,
    Effect,
    EventKind,
    GameEvent,
    Link,
    Script,
    State,
    Zone,
    ask_cards,
    ask_option,
    by_name,
    continuation,
    destroy_all,
    free_zones,
    in_random_order,
    other,
    register,
    reveal,
    send_to_grave,
    special_summon,
    summonable,
    to_hand,
)

FACE_UP, FACE_DOWN = "attack", "set"


def _flipped(s: State, card: Card, ev: GameEvent) -> bool:
    return ev.get("card") == card.id


def _resolve(ctx: Ctx, link: Link) -> None:
    s = ctx.s
    destroy_all(ctx, [c for sd in (0, 1) for c in s.monsters(sd)], reason="effect", by=link.card)
    order = [s.turn_player, other(s.turn_player)]
    picked: dict[str, list[int]] = {}
    for seat in order:
        picked[str(seat)] = list(s.players[seat].deck[:5])
        for cid in picked[str(seat)]:
            reveal(ctx, s.cards[cid], seat)
    _next_player(ctx, {"order": order, "picked": picked, "placed": [], "source": link.card})


def _small(c: Card) -> bool:
    return c.data.is_monster and c.data.level <= 4


def _next_player(ctx: Ctx, d: dict[str, Any]) -> None:
    order = list(d["order"])
    if not order:
        _finish(ctx, d)
        return
    seat = order[0]
    s = ctx.s
    cards = summonable(s, seat, [cid for cid in d["picked"][str(seat)] if _small(s.cards[cid])])
    free = free_zones(s, seat)
    d = {**d, "order": order[1:], "seat": seat}
    if len(cards) > free:
        ask_cards(ctx, seat, cards, "cyber_jar.which", d, count=free, source=int(d["source"]))
    else:
        _positions(ctx, seat, cards, d)


@continuation("cyber_jar.which")
def _which(ctx: Ctx, seat: int, answer: Answer, d: dict[str, Any]) -> None:
    _positions(ctx, seat, list(answer) if isinstance(answer, list) else [], d)


def _positions(ctx: Ctx, seat: int, cards: list[int], d: dict[str, Any]) -> None:
    _next_position(ctx, seat, {**d, "queue": cards})


def _next_position(ctx: Ctx, seat: int, d: dict[str, Any]) -> None:
    queue = list(d["queue"])
    if not queue:
        _next_player(ctx, d)
        return
    ask_option(ctx, seat, [FACE_UP, FACE_DOWN], "cyber_jar.position", {**d, "queue": queue}, source=queue[0])


@continuation("cyber_jar.position")
def _position(ctx: Ctx, seat: int, answer: Answer, d: dict[str, Any]) -> None:
    queue = list(d["queue"])
    placed = [*d["placed"], [queue[0], seat, str(answer)]]
    _next_position(ctx, seat, {**d, "queue": queue[1:], "placed": placed})


def _finish(ctx: Ctx, d: dict[str, Any]) -> None:
    s = ctx.s
    placed = {int(cid): (int(seat), str(pos)) for cid, seat, pos in d["placed"]}
    up = [cid for cid, (_seat, pos) in placed.items() if pos == FACE_UP]
    down = in_random_order(ctx, [cid for cid, (_seat, pos) in placed.items() if pos == FACE_DOWN])
    for cid in up:
        special_summon(ctx, s.cards[cid], placed[cid][0], "attack")
    for cid in down:
        special_summon(ctx, s.cards[cid], placed[cid][0], "defense", face_up=False)
    source = int(d["source"])
    for seat in (s.turn_player, other(s.turn_player)):
        for cid in d["picked"][str(seat)]:
            c = s.cards[cid]
            if c.zone != Zone.DECK:
                continue
            if _small(c) and cid in summonable(s, seat, [cid]):
                send_to_grave(ctx, c, reason="effect", by=source)  # no free zone was left for it
            else:
                to_hand(ctx, c)


register(
    by_name("Cyber Jar").code,
    Script(
        effects=(
            Effect(
                kind="flip",
                speed=1,
                trigger_on=EventKind.FLIPPED,
                trigger_match=_flipped,
                optional=False,
                resolve=_resolve,
                label="destroy all monsters; pick up 5",
            ),
        )
    ),
)
