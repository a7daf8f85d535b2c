"""Dragged Down into the Grave (Normal Spell): "Both players reveal their hands, discard 1 card from
their opponent's hand to the Graveyard, then draw 1 card." (card text; ruling GEN-1).

As it resolves both hands are revealed to both players (``ops.reveal_to``, to everyone); then its
controller selects 1 card of the opponent's hand and the opponent 1 card of the controller's hand
(ruling SEL-2: the activating player first here, as the text is theirs; SEL-1: each question
names the revealed cards). Both selected cards are discarded at the same time, then each player
draws 1 card. It needs a card in each player's hand (besides itself) and in each Deck (ruling
GEN-4)."""

from __future__ import annotations

from typing import Any

from .api import (
    Answer,
    Card,
    Ctx,
    Effect,
    Link,
    Script,
    State,
    ask_cards,
    by_name,
    continuation,
    discard,
    draw,
    other,
    register,
    reveal_to,
)


def _condition(s: State, card: Card, seat: int) -> bool:
    mine = [cid for cid in s.players[seat].hand if cid != card.id]
    opp = other(seat)
    return bool(mine and s.players[opp].hand and s.players[seat].deck and s.players[opp].deck)


def _resolve(ctx: Ctx, link: Link) -> None:
    me, opp = link.controller, other(link.controller)
    for seat in (me, opp):
        reveal_to(ctx, seat, list(ctx.s.players[seat].hand), to=None)
    d = {"me": me, "source": link.card}
    ask_cards(ctx, me, list(ctx.s.players[opp].hand), "dragged_down.first", d, source=link.card, revealed=True)


@continuation("dragged_down.first")
def _first(ctx: Ctx, seat: int, answer: Answer, d: dict[str, Any]) -> None:
    me = int(d["me"])
    d = {**d, "picked": list(answer) if isinstance(answer, list) else []}
    hand = list(ctx.s.players[me].hand)
    ask_cards(ctx, other(me), hand, "dragged_down.second", d, source=int(d["source"]), revealed=True)


@continuation("dragged_down.second")
def _second(ctx: Ctx, seat: int, answer: Answer, d: dict[str, Any]) -> None:
    me = int(d["me"])
    discard(ctx, [*d["picked"], *(answer if isinstance(answer, list) else [])])
    for p in (me, other(me)):
        if not ctx.s.finished:
            draw(ctx, p, 1)


register(
    by_name("Dragged Down into the Grave").code,
    Script(effects=(Effect(kind="spell", speed=1, condition=_condition, resolve=_resolve),)),
)
