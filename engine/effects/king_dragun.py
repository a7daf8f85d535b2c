"""King Dragun (Fusion Monster): ""Lord of D." + "Divine Dragon Ragnarok" / Your opponent cannot
select any Dragon-Type monsters as the target(s) of Spell, Trap, or Monster Card effects. Once
per turn, you can Special Summon 1 Dragon-Type monster from your hand." (card text).

- While it is face-up on the field, its controller's opponent cannot target a face-up Dragon-Type
  monster (its own too, King Dragun itself too) with any card's effect (``Script.untargetable``:
  such a target is left out of the activation's choices); a face-down monster shows no Type and
  may be targeted. Effects that do not target still apply.
- The Ignition effect (Spell Speed 1, once per turn) needs a Dragon-Type monster in the hand that
  may be Special Summoned and a free Monster Zone (ruling GEN-4); the monster is selected as it
  resolves (SEL-1) and Summoned in the face-up position its controller picks (SEL-3).
- An effect that Special Summons it from the Fusion Deck (Metamorphosis, Level 7; Cyber-Stein)
  may Summon it (ruling SUM-31)."""

from __future__ import annotations

from .api import (
    Card,
    Ctx,
    Effect,
    Link,
    Script,
    State,
    Zone,
    by_name,
    free_monster_zone,
    hand_candidates,
    register,
    summon_one_of,
    summonable,
)


def _is_dragon(c: Card) -> bool:
    return c.data.is_monster and c.data.type == "Dragon"


def _untargetable(s: State, src: Card, target: Card, card: Card, seat: int) -> bool:
    return seat != src.controller and target.zone == Zone.MONSTERS and target.face_up and _is_dragon(target)


def _dragons(s: State, seat: int) -> list[int]:
    return hand_candidates(s, seat, _is_dragon)


def _condition(s: State, card: Card, seat: int) -> bool:
    return free_monster_zone(s, seat) and bool(summonable(s, seat, _dragons(s, seat)))


def _resolve(ctx: Ctx, link: Link) -> None:
    summon_one_of(ctx, link, _dragons(ctx.s, link.controller))


register(
    by_name("King Dragun").code,
    Script(
        effects=(
            Effect(
                kind="ignition",
                speed=1,
                once_per="turn",
                condition=_condition,
                resolve=_resolve,
                label="Special Summon 1 Dragon-Type monster from the hand",
            ),
        ),
        untargetable=_untargetable,
    ),
)
