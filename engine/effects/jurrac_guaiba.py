"""Jurrac Guaiba: "If this card destroys an opponent's monster by battle: You can Special Summon
1 "Jurrac" monster with 1700 or less ATK from your Deck, but it cannot declare an attack this
turn." No "and sends it to the Graveyard": it activates at the end of the Damage Step even if
the destroyed monster is banished (Macro Cosmos) (ruling DS-9, seed 003 TCG "Substep 7"). Guaiba
must still be on the field. The monster is selected in the Deck as it resolves (ruling SEL-1),
Summoned in the position its controller picks (SEL-3), and cannot declare an attack this turn
(``attacks_remaining`` 0, ruling BS-7)."""

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
    by_name,
    can_summon_from_deck,
    continuation,
    destroyed_by_this,
    forbid_attack_this_turn,
    is_small_jurrac,
    register,
    summon_from_deck,
)


def _match(s: State, card: Card, ev: GameEvent) -> bool:
    return destroyed_by_this(s, card, ev, to_grave=False)


def _resolve(ctx: Ctx, link: Link) -> None:
    summon_from_deck(ctx, link, is_small_jurrac, then="jurrac_guaiba.no_attack")


@continuation("jurrac_guaiba.no_attack")
def _no_attack(ctx: Ctx, seat: int, answer: Answer, d: dict[str, Any]) -> None:
    for cid in answer if isinstance(answer, list) else []:
        forbid_attack_this_turn(ctx, ctx.s.cards[cid])


register(
    by_name("Jurrac Guaiba").code,
    Script(
        effects=(
            Effect(
                kind="trigger",
                speed=1,
                trigger_on=EventKind.DESTROYED,
                trigger_match=_match,
                condition=can_summon_from_deck(is_small_jurrac),
                resolve=_resolve,
            ),
        )
    ),
)
