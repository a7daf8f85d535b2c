"""Flashbang (Normal Trap): "Activate only after damage calculation when a monster your
opponent controls made a direct attack. It is now the End Phase of this turn."

Activated in the "after damage calculation" timing of a direct attack by the opponent's
monster (seed 003, TCG "Substep 5": "Immediately after inflicting Battle Damage, Flashbang can
be activated"); not before damage calculation, nor for an attack on a monster. On resolution
the phase changes directly to the End Phase (no End Step, no Main Phase 2: seed 000, a card
that changes the phase directly).

When a "when battle damage is inflicted" effect is waiting to activate, the attacked player is
asked first (a choice of kind ``ahead``): Flashbang may be activated before those triggers go on
the chain (``Effect.ahead_of``; ruling DS-8, seed 003 TCG "Substep 5"). They wait while it
resolves; once it is the End Phase they do not activate. If Flashbang is negated, they activate
after its chain. (No card of the shared card list has such a trigger: tests/engine exercises it
with a test-only one.)"""

from __future__ import annotations

from .api import AFTER_CALC, Card, Ctx, Effect, Link, Script, State, by_name, go_to_end_phase, register


def _condition(s: State, card: Card, seat: int) -> bool:
    a = s.attack
    if a is None or a.target is not None or not a.calculated or a.stopped:
        return False
    attacker = s.cards[a.attacker]
    return s.turn_player != seat and attacker.controller != seat


def _resolve(ctx: Ctx, link: Link) -> None:

    go_to_end_phase(ctx, "flashbang")


register(
    by_name("Flashbang").code,
    Script(
        effects=(
            Effect(
                kind="trap",
                speed=2,
                damage_step=AFTER_CALC,
                condition=_condition,
                resolve=_resolve,
                ahead_of=frozenset({"battle_damage"}),
            ),
        )
    ),
)
