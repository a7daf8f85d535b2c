"""D.D. Warrior Lady: "After damage calculation, when this card battles an opponent's monster:
You can banish that monster, also banish this card." (ruling DS-8; seed 003, after damage calculation)."""

from __future__ import annotations

from .api import Card, Ctx, Effect, EventKind, GameEvent, Link, Script, State, Zone, banish, by_name, register


def _match(s: State, card: Card, ev: GameEvent) -> bool:
    return (
        ev.get("target") is not None
        and card.id in (ev.get("attacker"), ev.get("target"))
        and card.zone == Zone.MONSTERS
    )


def _resolve(ctx: Ctx, link: Link) -> None:
    s = ctx.s
    ev = link.data.get("event", {})
    me = s.cards[link.card]
    other_id = ev["target"] if ev.get("attacker") == me.id else ev.get("attacker")
    opp = s.cards.get(other_id, None)
    if opp is not None and opp.zone == Zone.MONSTERS:
        banish(ctx, opp)
    if me.zone == Zone.MONSTERS:
        banish(ctx, me)


register(
    by_name("D.D. Warrior Lady").code,
    Script(
        effects=(
            Effect(
                kind="trigger",
                speed=1,
                trigger_on=EventKind.AFTER_DAMAGE_CALCULATION,
                trigger_match=_match,
                resolve=_resolve,
            ),
        )
    ),
)
