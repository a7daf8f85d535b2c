"""Negate Attack (Counter Trap): "Activate only when a target opponent's monster declares an
attack. Negate the attack and end the Battle Phase."

It answers the attack declaration only (the first chain after it, rulings BS-2, BP-7; seed 002). Ending the
Battle Phase makes it the End Step at once (seed 000, "If a card effect ends the Battle Phase
... it immediately becomes the End Step"): no further attack may be declared, and the
end-of-Battle-Phase effects still happen in that End Step."""

from __future__ import annotations

from .api import (
    Card,
    Ctx,
    Effect,
    EventKind,
    Link,
    Phase,
    Script,
    State,
    by_name,
    end_battle_phase,
    negate_attack,
    register,
)


def _condition(s: State, card: Card, seat: int) -> bool:
    a = s.attack
    return a is not None and s.phase == Phase.BATTLE and s.cards[a.attacker].controller != seat


def _resolve(ctx: Ctx, link: Link) -> None:
    negate_attack(ctx)
    end_battle_phase(ctx, reason="negate_attack")


register(
    by_name("Negate Attack").code,
    Script(
        effects=(Effect(kind="trap", speed=3, event=EventKind.ATTACK_DECLARED, condition=_condition, resolve=_resolve),)
    ),
)
