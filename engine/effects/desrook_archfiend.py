"""Desrook Archfiend: "This card's controller must pay 500 Life Points during each of his/her
Standby Phases (this is not optional). When this card is targeted by the effect of a card
controlled by your opponent, when resolving the effect, roll a six-sided die. If the result is
3, negate the effect and destroy the opponent's card. When a "Terrorking Archfiend" on your side
of the field is destroyed and sent to the Graveyard, you can send this card from your hand to
the Graveyard to Special Summon the "Terrorking Archfiend"."

1. The payment is a maintenance cost, not an activated effect: it is paid as its controller's
   Standby Phase begins, while it is face-up on the field and not negated (``watch``).
2. The die: as an opponent's effect that targets it starts to resolve (``on_targeted``), the
   die is rolled (``ops.roll_die``: the duel's PRNG, state in ``State.rng``, or the result a
   scenario fixed with ``dice:``); the new PRNG state is an ``rng`` fact and the result a public
   ``note`` fact (``what: die_roll``). On a 3 that effect is negated and the opponent's card
   destroyed.
3. "Terrorking Archfiend" (ruling DS-9; seed 003 names Desrook among the cards that answer a monster
   destroyed by battle and sent to the Graveyard) is not in the card list, so this optional
   trigger from the hand can never activate in this engine; it is written by name all the
   same."""

from __future__ import annotations

from typing import Any, Final

from .api import (
    Card,
    Ctx,
    Effect,
    EventKind,
    GameEvent,
    Link,
    Negated,
    Phase,
    Script,
    State,
    Zone,
    by_name,
    destroy,
    is_negated,
    pay_lp,
    register,
    roll_die,
    send_to_grave,
    still_face_up,
    summon_choosing_position,
)

TERRORKING: Final = "Terrorking Archfiend"


def _active(s: State, card: Card) -> bool:
    return still_face_up(card) and not is_negated(s, card)


def _watch(ctx: Ctx, card: Card, ev: GameEvent) -> None:
    if (
        ev.get("kind") == EventKind.PHASE_START
        and ev.get("phase") == Phase.STANDBY
        and ev.get("seat") == card.controller
        and _active(ctx.s, card)
    ):
        pay_lp(ctx, card.controller, 500)


def _on_targeted(ctx: Ctx, card: Card, link: Link, n: int) -> None:
    s = ctx.s
    src = s.cards[link.card]
    if not _active(s, card) or link.controller == card.controller or src.controller == card.controller:
        return
    if roll_die(ctx, card) != 3:
        return
    ctx.emit(Negated(link=n, what="effect", card=src.id, code=src.code))
    if src.on_field:
        destroy(ctx, src, reason="effect", by=card.id)


def _terrorking_match(s: State, card: Card, ev: GameEvent) -> bool:
    victim = s.cards.get(int(ev.get("card", -1)))
    return (
        card.zone == Zone.HAND
        and victim is not None
        and victim.data.name == TERRORKING
        and ev.get("controller") == card.controller
        and ev.get("to") == Zone.GRAVEYARD
    )


def _send_self(ctx: Ctx, card: Card, seat: int, data: dict[str, Any]) -> None:
    send_to_grave(ctx, card, reason="cost")


def _revive(ctx: Ctx, link: Link) -> None:
    ev = link.data.get("event", {})
    c = ctx.s.cards.get(int(ev.get("card", -1)))
    if c is not None and c.zone == Zone.GRAVEYARD:
        summon_choosing_position(ctx, c.id, link.controller, source=link.card)


register(
    by_name("Desrook Archfiend").code,
    Script(
        effects=(
            Effect(
                kind="trigger",
                speed=1,
                trigger_on=EventKind.DESTROYED,
                trigger_match=_terrorking_match,
                cost=_send_self,
                resolve=_revive,
                label="Terrorking",
            ),
        ),
        watch=_watch,
        watch_on=frozenset({EventKind.PHASE_START}),
        on_targeted=_on_targeted,
    ),
)
