"""Domino Effect (Continuous Spell): "When a monster your opponent controls is destroyed by
battle and sent to the Graveyard, you can send 1 monster you control to the Graveyard to
destroy 1 monster your opponent controls."

The card is activated like any Continuous Spell (Main Phase) and stays on the field. Its
effect is an optional trigger of the face-up card at the end of the Damage Step, when the
opponent's monster destroyed by battle is sent to the Graveyard (ruling DS-9, seed 003 TCG
"Substep 7" names Domino Effect). Cost: ``cost: [your monster]`` (sent to the Graveyard, at
activation); the opponent's monster to destroy does not target and is selected as the effect
resolves (ruling SEL-1), among the monsters they control then. It can be activated only while the
opponent controls a monster to destroy (ruling GEN-4; the selection moving to resolution had
dropped that check: with the opponent's only monster just destroyed it was offered, and did
nothing but pay its cost)."""

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
    by_name,
    continuation,
    destroy,
    is_negated,
    other,
    register,
    send_to_grave,
)


def _match(s: State, card: Card, ev: GameEvent) -> bool:
    return (
        ev.get("reason") == "battle"
        and ev.get("to") == Zone.GRAVEYARD
        and ev.get("controller") == other(card.controller)
        and card.zone == Zone.SPELLS_TRAPS
        and card.face_up
        and not is_negated(s, card)
    )


def _condition(s: State, card: Card, seat: int) -> bool:
    return bool(s.monsters(other(seat)))


def _cost_options(s: State, card: Card, seat: int) -> list[list[int]]:
    return [[c.id] for c in s.monsters(seat)]


def _cost(ctx: Ctx, card: Card, seat: int, data: dict[str, Any]) -> None:
    for cid in data.get("cost", []):
        c = ctx.s.cards[int(cid)]
        if c.zone == Zone.MONSTERS:
            send_to_grave(ctx, c, reason="cost")


def _resolve(ctx: Ctx, link: Link) -> None:
    mons = [c.id for c in ctx.s.monsters(other(link.controller))]
    ask_cards(ctx, link.controller, mons, "domino_effect.destroy", {"source": link.card}, source=link.card)


@continuation("domino_effect.destroy")
def _destroy(ctx: Ctx, seat: int, answer: Answer, d: dict[str, Any]) -> None:
    for cid in answer if isinstance(answer, list) else []:
        c = ctx.s.cards[cid]
        if c.zone == Zone.MONSTERS and c.controller != seat:
            destroy(ctx, c, reason="effect", by=int(d["source"]))


register(
    by_name("Domino Effect").code,
    Script(
        effects=(
            Effect(kind="spell", speed=1, label="activate"),
            Effect(
                kind="trigger",
                speed=1,
                trigger_on=EventKind.DESTROYED,
                trigger_match=_match,
                condition=_condition,
                cost_options=_cost_options,
                cost=_cost,
                resolve=_resolve,
                label="destroy",
            ),
        )
    ),
)
