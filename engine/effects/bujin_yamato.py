"""Bujin Yamato: "Once per turn, during your End Phase: You can add 1 "Bujin" monster from your
Deck to your hand, then send 1 card from your hand to the Graveyard. You can only control 1
"Bujin Yamato"." (card text; the Beast-Warrior "Bujin" monster of Bujingi Crane's scenarios.)

An optional trigger effect at the start of its controller's End Phase, if a "Bujin" monster is
in the Deck. Both selections are made as it resolves (ruling SEL-1): the "Bujin" monster to add
(the copy nearest the top of the Deck), then the card to send, which may be the one just added.
"You can only control 1" is not enforced (no effect in the pool could Summon a second copy next
to it)."""

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
    Phase,
    Script,
    State,
    Zone,
    ask_cards,
    by_name,
    continuation,
    deck_candidates,
    register,
    send_to_grave,
    to_hand,
)


def _is_bujin(c: Card) -> bool:
    return c.data.is_monster and "Bujin" in c.data.name


def _match(s: State, card: Card, ev: GameEvent) -> bool:
    return (
        ev.get("phase") == Phase.END
        and ev.get("seat") == card.controller
        and card.zone == Zone.MONSTERS
        and card.face_up
        and bool(deck_candidates(s, card.controller, _is_bujin))
    )


def _resolve(ctx: Ctx, link: Link) -> None:
    seat = link.controller
    ask_cards(ctx, seat, deck_candidates(ctx.s, seat, _is_bujin), "bujin_yamato.add", source=link.card)


@continuation("bujin_yamato.add")
def _add(ctx: Ctx, seat: int, answer: Answer, d: dict[str, Any]) -> None:
    s = ctx.s
    picked = [s.cards[cid] for cid in (answer if isinstance(answer, list) else [])]
    if not picked or picked[0].zone != Zone.DECK or picked[0].owner != seat:
        return
    to_hand(ctx, picked[0])
    ask_cards(ctx, seat, list(s.players[seat].hand), "bujin_yamato.send")


@continuation("bujin_yamato.send")
def _send(ctx: Ctx, seat: int, answer: Answer, d: dict[str, Any]) -> None:
    for cid in answer if isinstance(answer, list) else []:
        c = ctx.s.cards[cid]
        if c.zone == Zone.HAND and c.owner == seat:
            send_to_grave(ctx, c, reason="effect")


register(
    by_name("Bujin Yamato").code,
    Script(
        effects=(
            Effect(
                kind="trigger",
                speed=1,
                trigger_on=EventKind.PHASE_START,
                trigger_match=_match,
                once_per="turn",
                resolve=_resolve,
            ),
        )
    ),
)
