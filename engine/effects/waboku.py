"""Waboku (Normal Trap): "You take no battle damage from your opponent's monsters this turn.
Your monsters cannot be destroyed by battle this turn." (card text). Both are lingering
effects of the resolved card (flags until the end of the turn); not in the Damage Step."""

from __future__ import annotations

from .api import Ctx, Effect, LingeringFlag, Link, Script, by_name, lingering_flag, register


def _resolve(ctx: Ctx, link: Link) -> None:
    lingering_flag(ctx, LingeringFlag.NO_BATTLE_DAMAGE, link.controller, "turn", link.card)
    lingering_flag(ctx, LingeringFlag.BATTLE_INDESTRUCTIBLE_ALL, link.controller, "turn", link.card)


register(by_name("Waboku").code, Script(effects=(Effect(kind="trap", speed=2, resolve=_resolve),)))
