"""Threatening Roar (Normal Trap): "Your opponent cannot declare an attack this turn." (card text;
ruling GEN-1).

A lingering rule for the rest of the turn (``LingeringFlag.NO_ATTACK_DECLARATION``): an attack
already declared goes on (ruling BS-8: "cannot declare an attack" only forbids the declaration),
and a monster unaffected by Trap effects may still declare one (ruling GEN-3). It can be activated
in either player's turn; in its controller's own turn it has nothing to stop, but the text asks
nothing more."""

from __future__ import annotations

from .api import Ctx, Effect, LingeringFlag, Link, Script, by_name, lingering_flag, other, register


def _resolve(ctx: Ctx, link: Link) -> None:
    lingering_flag(ctx, LingeringFlag.NO_ATTACK_DECLARATION, other(link.controller), "turn", link.card)


register(
    by_name("Threatening Roar").code,
    Script(effects=(Effect(kind="trap", speed=2, resolve=_resolve),)),
)
