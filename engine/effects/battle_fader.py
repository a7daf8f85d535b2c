"""Battle Fader: "When your opponent's monster declares a direct attack: You can Special Summon
this card from your hand, then end the Battle Phase. If this card is Special Summoned with this
effect, banish it when it leaves the field."

Activated from the hand in answer to the declaration of a direct attack (the first chain after
it, seed 002). Ending the Battle Phase makes it the End Step at once (seed 000: "If a card effect
ends the Battle Phase (such as Battle Fader), it immediately becomes the End Step"). The summoned
card carries the ``banish_on_leave`` flag: ``ops.move`` banishes it whenever it would leave the
field for any other place. It is Summoned in Defense Position (the player's usual choice; the
framework asks no position)."""

from __future__ import annotations

from ..cards import by_name
from ..ctx import Ctx
from ..ops import end_battle_phase, special_summon
from ..state import Card, Link, State
from .base import Effect, Script, register


def _condition(s: State, card: Card, seat: int) -> bool:
    a = s.attack
    return (
        a is not None
        and a.target is None
        and s.turn_player != seat
        and s.cards[a.attacker].controller != seat
        and None in s.players[seat].monsters
    )


def _resolve(ctx: Ctx, link: Link) -> None:
    s = ctx.s
    me = s.cards[link.card]
    if me.zone == "hand" and special_summon(ctx, me, link.controller, "defense"):
        ctx.emit("flag", card=me.id, name="banish_on_leave", value=True)
        end_battle_phase(ctx, reason="battle_fader")


register(
    by_name("Battle Fader").code,
    Script(effects=(Effect(kind="quick", speed=2, event="attack_declared", from_hand=True, condition=_condition, resolve=_resolve),)),
)
