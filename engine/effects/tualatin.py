"""Tualatin: "If you controlled 2 or more monsters at the start of your opponent's Battle Phase
and all of them were destroyed by battle and sent to the Graveyard, you can Special Summon this
card from your hand during that Battle Phase. If you do, choose an Attribute and destroy all
face-up monsters with that Attribute. Your opponent cannot Normal or Special Summon monsters
with that Attribute."

- The monsters each player controls as a Battle Phase starts are recorded by the rules
  (``State.start_step_monsters``); each monster destroyed by battle and sent to the Graveyard
  carries the Battle Phase in which it was (flag ``battle_sent``). A scenario sets both with
  ``start_step_monsters:`` (docs/scenario-format.md).
- When the last of them is sent, at the end of the Damage Step, Tualatin may be Special Summoned
  from the hand: an optional trigger (ruling DS-9, seed 003 TCG "Substep 7" names Tualatin).
- As it resolves Tualatin is Special Summoned in the face-up position its controller picks
  (ruling SEL-3), then its controller chooses the Attribute (ruling SEL-1: a selection the text
  makes on resolution, ``{do: choose, option: DARK}``) and every face-up monster with it is
  destroyed (Tualatin too, if it has it). While Tualatin stays face-up on the field the opponent
  cannot Normal or Special Summon monsters with that Attribute (``cannot_summon``); Setting is
  not Summoning."""

from __future__ import annotations

from typing import Any, Final

from .api import (
    Answer,
    Card,
    CardFlag,
    Ctx,
    Effect,
    EventKind,
    Flag,
    GameEvent,
    Link,
    Phase,
    Script,
    State,
    Zone,
    ask_option,
    attributes,
    by_name,
    continuation,
    destroy_all,
    face_up_monsters,
    free_monster_zone,
    register,
    summon_choosing_position,
    summonable,
)

ATTRIBUTES: Final[tuple[str, ...]] = ("DARK", "DIVINE", "EARTH", "FIRE", "LIGHT", "WATER", "WIND")
CHOSEN: Final = "tualatin_attribute"


def _all_gone(s: State, seat: int) -> bool:
    mons = s.start_step_monsters[seat]
    key = [s.turn, s.battle_phases]
    return len(mons) >= 2 and all(
        s.cards[m].zone == Zone.GRAVEYARD and s.cards[m].flags.get(CardFlag.BATTLE_SENT) == key for m in mons
    )


def _match(s: State, card: Card, ev: GameEvent) -> bool:
    me = card.owner
    return (
        card.zone == Zone.HAND
        and s.phase == Phase.BATTLE
        and s.turn_player != me
        and ev.get("reason") == "battle"
        and ev.get("to") == Zone.GRAVEYARD
        and ev.get("card") in s.start_step_monsters[me]
        and _all_gone(s, me)
    )


def _condition(s: State, card: Card, seat: int) -> bool:
    return free_monster_zone(s, seat) and bool(summonable(s, seat, [card.id]))  # ruling GEN-4


def _resolve(ctx: Ctx, link: Link) -> None:
    me = ctx.s.cards[link.card]
    if me.zone == Zone.HAND and free_monster_zone(ctx.s, link.controller):
        summon_choosing_position(ctx, me.id, link.controller, then="tualatin.summoned", source=me.id)


@continuation("tualatin.summoned")
def _summoned(ctx: Ctx, seat: int, answer: Answer, d: dict[str, Any]) -> None:
    if isinstance(answer, list) and answer:
        ask_option(ctx, seat, list(ATTRIBUTES), "tualatin.attribute", {"card": answer[0]}, source=answer[0])


@continuation("tualatin.attribute")
def _attribute(ctx: Ctx, seat: int, answer: Answer, d: dict[str, Any]) -> None:
    s = ctx.s
    me = s.cards[int(d["card"])]
    attr = str(answer)
    if me.zone == Zone.MONSTERS:
        ctx.emit(Flag(card=me.id, name=CHOSEN, value=attr))
    destroy_all(ctx, [c for c in face_up_monsters(s) if attr in attributes(s, c)], by=me.id)


def _cannot_summon(s: State, src: Card, monster: Card, seat: int, how: str) -> bool:
    attr = src.flags.get(CHOSEN)  # "cannot Normal or Special Summon": a Flip Summon stays possible
    return attr is not None and how != "flip" and seat != src.controller and monster.data.attribute == attr


register(
    by_name("Tualatin").code,
    Script(
        effects=(
            Effect(
                kind="trigger",
                speed=1,
                trigger_on=EventKind.DESTROYED,
                trigger_match=_match,
                condition=_condition,
                resolve=_resolve,
            ),
        ),
        cannot_summon=_cannot_summon,
    ),
)
