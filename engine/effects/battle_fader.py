"""Battle Fader: "When your opponent's monster declares a direct attack: You can Special Summon
this card from your hand, then end the Battle Phase. If this card is Special Summoned with this
effect, banish it when it leaves the field."

Activated from the hand in answer to the declaration of a direct attack (the first chain after
it, seed 002). Ending the Battle Phase makes it the End Step at once (seed 000: "If a card effect
ends the Battle Phase (such as Battle Fader), it immediately becomes the End Step"). The summoned
card is banished whenever it would leave the field for any other place
(``ops.banish_when_it_leaves``). Its controller picks its face-up battle position as it is Special
Summoned (ruling SEL-3: the text names none), and then the Battle Phase ends."""

from __future__ import annotations

from typing import Any

from .api import (
    Answer,
    Card,
    Ctx,
    Effect,
    EventKind,
    Link,
    Script,
    State,
    Zone,
    banish_when_it_leaves,
    by_name,
    continuation,
    end_battle_phase,
    free_monster_zone,
    register,
    summon_choosing_position,
    summonable,
)


def _condition(s: State, card: Card, seat: int) -> bool:
    a = s.attack
    return (
        a is not None
        and a.target is None
        and s.turn_player != seat
        and s.cards[a.attacker].controller != seat
        and free_monster_zone(s, seat)
        and bool(summonable(s, seat, [card.id]))  # not under a lock (Tualatin; ruling GEN-4)
    )


def _resolve(ctx: Ctx, link: Link) -> None:
    s = ctx.s
    me = s.cards[link.card]
    if me.zone == Zone.HAND and free_monster_zone(s, link.controller):
        summon_choosing_position(ctx, me.id, link.controller, then="battle_fader.summoned", source=me.id)


@continuation("battle_fader.summoned")
def _summoned(ctx: Ctx, seat: int, answer: Answer, d: dict[str, Any]) -> None:
    if isinstance(answer, list) and answer:
        banish_when_it_leaves(ctx, ctx.s.cards[answer[0]])
        end_battle_phase(ctx, reason="battle_fader")


register(
    by_name("Battle Fader").code,
    Script(
        effects=(
            Effect(
                kind="quick",
                speed=2,
                event=EventKind.ATTACK_DECLARED,
                from_hand=True,
                condition=_condition,
                resolve=_resolve,
            ),
        )
    ),
)
