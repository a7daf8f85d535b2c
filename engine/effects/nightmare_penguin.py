"""Nightmare Penguin: "All face-up WATER monsters you control gain 200 ATK. When this card is
flipped face-up: Target 1 card your opponent controls; return that target to the hand."

- The ATK gain is a continuous effect: when the attacked face-down Penguin is flipped in the
  Damage Step it applies at once (rulings DS-3, DS-8; seed 003, TCG "Substep 2").
- The flip trigger is mandatory. When Penguin is flipped by an attack it waits until after
  damage calculation (seed 003, TCG "Substep 2" and "Substep 6": "Royal Keeper, Nightmare
  Penguin ... will be activated at this time"), and it cannot target a card destroyed during
  that damage calculation ("Substep 6").
- The target is picked by the engine (a mandatory trigger's target is not asked): the
  attacking monster if it is a legal target, else the first card the opponent controls
  (monsters left to right, then Spells/Traps, then the Field Spell)."""

from __future__ import annotations

from .api import (
    Card,
    Ctx,
    Effect,
    EventKind,
    GameEvent,
    Link,
    Script,
    State,
    attributes,
    by_name,
    each,
    other,
    register,
    still_face_up,
    to_hand,
)


def _stat(s: State, src: Card, c: Card) -> tuple[int, int]:
    if c.controller == src.controller and still_face_up(c) and "WATER" in attributes(s, c):
        return 200, 0
    return 0, 0


def _flipped(s: State, card: Card, ev: GameEvent) -> bool:
    return ev.get("card") == card.id and still_face_up(card)


def _targets(s: State, card: Card, seat: int) -> list[list[int]]:
    a = s.attack
    destroyed = set(a.destroyed) if a is not None else set()
    attacker = a.attacker if a is not None else None
    cards = [c for c in s.field_cards(other(seat)) if c.id not in destroyed]
    cards.sort(key=lambda c: c.id != attacker)  # stable: the attacker first
    return each(cards)


def _resolve(ctx: Ctx, link: Link) -> None:
    s = ctx.s
    for t in link.targets:
        c = s.cards[t]
        if c.on_field and c.controller != link.controller:
            to_hand(ctx, c)


register(
    by_name("Nightmare Penguin").code,
    Script(
        effects=(
            Effect(
                kind="trigger",
                speed=1,
                trigger_on=EventKind.FLIPPED,
                trigger_match=_flipped,
                optional=False,
                targets=_targets,
                resolve=_resolve,
            ),
        ),
        stat=_stat,
    ),
)
