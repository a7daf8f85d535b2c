"""Card of Safe Return (Continuous Spell): "When a monster is Special Summoned from your Graveyard,
you can draw 1 card." (card text; ruling GEN-1).

Its activation does nothing else; once it has resolved (ruling CH-7), while it is face-up on the
field, an optional trigger effect: each time a monster is Special Summoned from its controller's
Graveyard (by either player's effect; ``came_from`` of the ``summoned`` event), its controller may
draw 1 card, if their Deck holds one (ruling GEN-4)."""

from __future__ import annotations

from .api import Card, Ctx, Effect, EventKind, GameEvent, Link, Script, State, Zone, by_name, draw, register


def _from_my_graveyard(s: State, card: Card, ev: GameEvent) -> bool:
    if not (card.zone == Zone.SPELLS_TRAPS and card.face_up):
        return False
    if ev.get("how") != "special" or ev.get("came_from") != Zone.GRAVEYARD:
        return False
    summoned = s.cards.get(int(ev.get("card", -1)))
    return summoned is not None and summoned.owner == card.controller


def _can_draw(s: State, card: Card, seat: int) -> bool:
    return bool(s.players[seat].deck)


def _draw(ctx: Ctx, link: Link) -> None:
    draw(ctx, link.controller, 1)


register(
    by_name("Card of Safe Return").code,
    Script(
        effects=(
            Effect(kind="spell", speed=1),
            Effect(
                kind="trigger",
                speed=1,
                trigger_on=EventKind.SUMMONED,
                trigger_match=_from_my_graveyard,
                condition=_can_draw,
                resolve=_draw,
                label="draw 1 card",
            ),
        )
    ),
)
