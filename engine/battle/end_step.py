"""The End Step (ruling ES-1; seed 003).

Reached when the turn player ends the Battle Phase in an open game state of
the Battle Step, or when an effect ends the Battle Phase (Battle Fader, Negate
Attack, Electromagnetic Turtle: "it immediately becomes the End Step", seed
000). End-of-Battle-Phase effects (Gladiator Beasts, Sword Hunter, Scrap Worm)
activate here; both players may activate Spell Speed 2 and up; multiple chains
are allowed; after both players pass, Main Phase 2 (or the End Phase, if
Main Phase 2 cannot be entered).
"""

from __future__ import annotations

from ..ctx import Ctx
from ..facts import ABSENT, Priority
from ..ops import end_battle_phase
from ..types import FINISH


def enter(ctx: Ctx, reason: str = "turn_player") -> None:
    # "end": the turn player went to the End Phase from the Battle Step (end_turn); FINISH: it
    # ends the turn (finish_turn)
    intent = ctx.s.intent
    end_battle_phase(ctx, reason)
    ctx.emit(Priority(seat=ctx.s.turn_player, passes=0, intent=intent if intent in ("end", FINISH) else ABSENT))
