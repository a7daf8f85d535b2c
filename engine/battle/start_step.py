"""Entering the Battle Phase and its Start Step (seed 000, seed 003).

- No Battle Phase on the first turn of the duel.
- Entering is optional; a player who does not enter goes to the End Phase,
  not Main Phase 2 (seed 000, Rulebook 9.1, over 003's older note).
- A player may enter with no monsters, or when the opponent has no valid
  attack target.
- If Main Phase 1 was skipped (Timeater), from the Standby Phase the player may
  enter the Battle Phase or go to the End Phase.
- Several Battle Phases in one turn are possible when an effect grants them (An
  Unfortunate Report, Weather Report, Last Turn: seed 000), and they are counted. They
  follow each other directly: the next one's Start Step comes right after the End Step of
  the one before, and Main Phase 2 only after the last (ruling BP-6, the OCG FAQ of those
  cards); attack counts start again at each Start Step.
- Start Step: the turn player has priority for Spell Speed 2 and up; after
  both pass, it is the Battle Step.
"""

from __future__ import annotations

from ..ctx import Ctx
from ..facts import ABSENT, PhaseBegan, Priority
from ..ops import raise_event
from ..state import State
from ..types import FINISH, Phase, Step


def may_enter(s: State) -> bool:
    if s.turn <= 1 or Phase.BATTLE in s.skip:
        return False
    # Main Phase 1 skipped (Timeater): the player may enter the Battle Phase from the Standby Phase (seed 000)
    if s.phase == Phase.MAIN1 or (s.phase == Phase.STANDBY and (s.skipped_main1 or Phase.MAIN1 in s.skip)):
        # a special Battle Phase earlier in the turn (Last Turn) grants one: the normal one remains
        return s.battle_phases <= s.extra_battle_phases
    if s.phase == Phase.MAIN2:
        # a Battle Phase granted only once the turn's Battle Phases were over (rare: e.g. a
        # Weather Report flipped in Main Phase 2)
        return 0 < s.battle_phases <= s.extra_battle_phases
    return False


def another_follows(s: State) -> bool:
    """At the End Step: a further Battle Phase was granted this turn and follows at once."""
    return s.phase == Phase.BATTLE and Phase.BATTLE not in s.skip and s.battle_phases <= s.extra_battle_phases


def enter(ctx: Ctx) -> None:
    s = ctx.s
    carry = FINISH if s.intent == FINISH else ABSENT  # the turn player ends the turn (engine.flow)
    ctx.emit(PhaseBegan(phase=Phase.BATTLE, step=Step.START, turn_player=s.turn_player))
    raise_event(ctx, {"kind": "battle_phase_start", "seat": s.turn_player})
    ctx.emit(Priority(seat=s.turn_player, passes=0, intent=carry))


def leave(ctx: Ctx) -> None:
    s = ctx.s
    carry = FINISH if s.intent == FINISH else ABSENT
    ctx.emit(PhaseBegan(phase=Phase.BATTLE, step=Step.BATTLE))
    ctx.emit(Priority(seat=s.turn_player, passes=0, intent=carry))
