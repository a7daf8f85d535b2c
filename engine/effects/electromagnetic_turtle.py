"""Electromagnetic Turtle: "During your opponent's Battle Phase: You can banish this card from
your Graveyard; end the Battle Phase (this is a Quick Effect). You can only use this effect of
"Electromagnetic Turtle" once per Duel."

Ending the Battle Phase makes it the End Step at once (rulings BP-7, DS-2; seed 000: "Some cards like
Electromagnetic Turtle and Negate Attack can end the Battle Phase"; "it immediately becomes the
End Step"). It is a Quick Effect that does not say it may be used in the Damage Step, so it
cannot be (seed 003). In the End Step the Battle Phase is already ending, so it is not offered
there (it would do nothing). Once per Duel for its controller."""

from __future__ import annotations

from typing import Any

from .api import Card, Ctx, Effect, Link, Phase, Script, State, Step, banish, by_name, end_battle_phase, register


def _condition(s: State, card: Card, seat: int) -> bool:
    return s.turn_player != seat and s.phase == Phase.BATTLE and s.step in (Step.START, Step.BATTLE)


def _cost(ctx: Ctx, card: Card, seat: int, data: dict[str, Any]) -> None:
    banish(ctx, card, reason="cost")


def _resolve(ctx: Ctx, link: Link) -> None:
    end_battle_phase(ctx, reason="electromagnetic_turtle")


register(
    by_name("Electromagnetic Turtle").code,
    Script(
        effects=(
            Effect(
                kind="quick",
                speed=2,
                from_grave=True,
                once_per="duel",
                condition=_condition,
                cost=_cost,
                resolve=_resolve,
            ),
        )
    ),
)
