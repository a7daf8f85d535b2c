"""Scrap Worm: "This card can attack your opponent directly. If this card attacks, it is
destroyed at the end of the Battle Phase. If this card is destroyed by the effect of a "Scrap"
card and sent to the Graveyard, you can select 1 "Scrap" monster in your Graveyard, except
"Scrap Worm", and add it to your hand."

- It may attack directly even while the opponent controls monsters.
- "At the end of the Battle Phase" is the End Step (rulings ES-1, BP-7; seed 003, TCG End Step, names Scrap Worm):
  a mandatory trigger when the Battle Phase ends (``battle_phase_end``), if it declared an
  attack in this Battle Phase. If an effect changes the phase directly (Neko Mane King), there
  is no End Step and it is not destroyed (seed 000).
- Destroyed by a "Scrap" card's effect (its own end-of-Battle-Phase effect counts) and sent to
  the Graveyard: an optional trigger that adds another "Scrap" monster from the Graveyard
  (chosen at activation, as a target list: it selects)."""

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
    Zone,
    by_name,
    destroy,
    register,
    still_face_up,
    to_hand,
)


def _direct(s: State, src: Card, attacker: Card) -> bool:
    return attacker.id == src.id


def _attacked_match(s: State, card: Card, ev: GameEvent) -> bool:
    return still_face_up(card) and card.attacks > 0 and card.attacked_turn == s.turn


def _destroy_self(ctx: Ctx, link: Link) -> None:
    me = ctx.s.cards[link.card]
    if me.zone == Zone.MONSTERS:
        destroy(ctx, me, reason="effect", by=me.id)


def _scrap_match(s: State, card: Card, ev: GameEvent) -> bool:
    by = ev.get("by")
    return (
        ev.get("card") == card.id
        and ev.get("reason") == "effect"
        and ev.get("to") == Zone.GRAVEYARD
        and by in s.cards
        and "Scrap" in s.cards[by].data.name
    )


def _scrap_targets(s: State, card: Card, seat: int) -> list[list[int]]:
    grave = [s.cards[c] for c in s.players[seat].graveyard]
    return [[c.id] for c in grave if c.data.is_monster and "Scrap" in c.data.name and c.data.name != "Scrap Worm"]


def _add(ctx: Ctx, link: Link) -> None:
    for t in link.targets:
        c = ctx.s.cards[t]
        if c.zone == Zone.GRAVEYARD:
            to_hand(ctx, c)


register(
    by_name("Scrap Worm").code,
    Script(
        effects=(
            Effect(
                kind="trigger",
                speed=1,
                trigger_on=EventKind.BATTLE_PHASE_END,
                trigger_match=_attacked_match,
                optional=False,
                resolve=_destroy_self,
                label="destroyed at the end of the Battle Phase",
            ),
            Effect(
                kind="trigger",
                speed=1,
                trigger_on=EventKind.DESTROYED,
                trigger_match=_scrap_match,
                targets=_scrap_targets,
                resolve=_add,
                label="add a Scrap monster",
            ),
        ),
        direct_attack=_direct,
    ),
)
