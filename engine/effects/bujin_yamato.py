"""Bujin Yamato: "Once per turn, during your End Phase: You can add 1 "Bujin" monster from your
Deck to your hand, then send 1 card from your hand to the Graveyard. You can only control 1
"Bujin Yamato"." (card text; the Beast-Warrior "Bujin" monster of Bujingi Crane's scenarios.)

An optional trigger effect at the start of its controller's End Phase. Both picks are made as
it is activated (``choose: [bujin, sent]``): the "Bujin" monster to add (the copy nearest the
top of the Deck), then the card to send, which may be the added one. "You can only control 1"
is not enforced (no effect in the pool could Summon a second copy next to it)."""

from __future__ import annotations

from typing import Any

from ..cards import by_name
from ..ctx import Ctx
from ..ops import send_to_grave, to_hand
from ..state import Card, Link, State
from .base import Effect, Script, register
from .common import deck_choices


def _is_bujin(c: Card) -> bool:
    return c.data.is_monster and "Bujin" in c.data.name


def _match(s: State, card: Card, ev: dict[str, Any]) -> bool:
    return ev.get("phase") == "end" and ev.get("seat") == card.controller and card.zone == "monsters" and card.face_up


def _choices(s: State, card: Card, seat: int) -> list[list[int]]:
    out: list[list[int]] = []
    for (b,) in deck_choices(s, seat, _is_bujin):
        out.extend([b, h] for h in [*s.players[seat].hand, b])
    return out


def _resolve(ctx: Ctx, link: Link) -> None:
    s = ctx.s
    picked = [int(x) for x in link.data.get("choose", [])]
    if len(picked) != 2:
        return
    bujin, sent = (s.cards[x] for x in picked)
    if bujin.zone != "deck" or bujin.owner != link.controller:
        return
    to_hand(ctx, bujin)
    if sent.zone == "hand" and sent.owner == link.controller:
        send_to_grave(ctx, sent, reason="effect")


register(
    by_name("Bujin Yamato").code,
    Script(
        effects=(
            Effect(kind="trigger", speed=1, trigger_on="phase_start", trigger_match=_match, choices=_choices, once_per="turn", resolve=_resolve),
        )
    ),
)
