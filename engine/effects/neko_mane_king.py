"""Neko Mane King: "During your opponent's turn, when this card in your possession is sent to
your Graveyard by an opponent's card effect: It becomes the End Phase of this turn."

A mandatory trigger. Its effect changes the phase directly (ruling BP-7; seed 000: "unless the card effect
changes the phase directly (such as Neko Mane King), in which case it is no longer the Battle
Phase"): no End Step, no Main Phase 2; ``ops.go_to_end_phase`` enters the End Phase.

"By an opponent's card effect": the card named as the cause (``by``) is controlled by the
opponent, or, when no cause is named, the chain link resolving now is the opponent's. Battle,
costs, Tributes and rule-sends are not card effects."""

from __future__ import annotations

from typing import Final

from .api import Card, Ctx, Effect, EventKind, GameEvent, Link, Script, State, Zone, by_name, go_to_end_phase, register

NOT_EFFECTS: Final[tuple[str, ...]] = ("battle", "cost", "tribute", "rule", "detach")


def _match(s: State, card: Card, ev: GameEvent) -> bool:
    if ev.get("card") != card.id or card.zone != Zone.GRAVEYARD:
        return False
    me = card.owner
    if s.turn_player == me or ev.get("controller") != me or ev.get("reason") in NOT_EFFECTS:
        return False
    by = ev.get("by")
    if by is not None and by in s.cards:
        return s.cards[by].controller != me
    return bool(s.chain) and s.chain[-1].controller != me


def _resolve(ctx: Ctx, link: Link) -> None:

    go_to_end_phase(ctx, reason="neko_mane_king")


register(
    by_name("Neko Mane King").code,
    Script(
        effects=(
            Effect(
                kind="trigger",
                speed=1,
                trigger_on=EventKind.SENT_TO_GRAVE,
                trigger_match=_match,
                optional=False,
                resolve=_resolve,
            ),
        )
    ),
)
