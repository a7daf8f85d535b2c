"""An Unfortunate Report (Normal Trap): "Your opponent conducts their next Battle Phase twice."

One of the cards that grant several Battle Phases in one turn (ruling BP-6; seed 000). The extra Battle Phase
is counted in ``State.extra_battle_phases``: after the first Battle Phase's End Step the player
goes to Main Phase 2 and may enter the Battle Phase again from there
(``start_step.may_enter``); each Battle Phase counts in ``battle_phases``.

"Their next Battle Phase": activated during the opponent's turn before they conducted a Battle
Phase (Draw, Standby or Main Phase 1), it is this turn's; otherwise (during the opponent's
Battle Phase or later, or during your own turn) it is the one of their next turn
(``ops.delay``). Entering the second Battle Phase stays optional."""

from __future__ import annotations

from .api import Ctx, Effect, ExtraBattlePhase, Link, Phase, Script, by_name, delay, other, register


def _resolve(ctx: Ctx, link: Link) -> None:
    s = ctx.s
    opp = other(link.controller)
    if s.turn_player == opp and s.phase in (Phase.DRAW, Phase.STANDBY, Phase.MAIN1) and s.battle_phases == 0:
        ctx.emit(ExtraBattlePhase(count=1))
    else:
        delay(ctx, opp, extra_battle_phases=1)


register(
    by_name("An Unfortunate Report").code,
    Script(effects=(Effect(kind="trap", speed=2, resolve=_resolve),)),
)
