"""Spirit Reaper, its Goat wording: "This card is not destroyed as a result of battle. Destroy this
card when it is targeted by the effect of a Spell, Trap, or Effect Monster. If this card
successfully attacks your opponent's Life Points directly, your opponent discards 1 card randomly
from his/her hand."

- It cannot be destroyed by battle (``Script.battle_indestructible``; face-down and attacked, it
  is flipped before damage calculation and protected then, ruling DS-3).
- Targeted by an effect, it destroys itself with no chain link, once that link has resolved,
  unless the activation was negated, and only if it is then a face-up monster whose effects apply
  (a target turned face-down by Book of Moon survives): at once, in the middle of a chain too;
  after the whole chain when an Equip Spell Card targeted it; after damage calculation when the
  link resolved in the Damage Step before it (ruling CARD-27, the 2005-era rulings of this wording;
  ``Script.after_targeted``, the Damage Step's wait: ruling DS-3).
- A mandatory trigger after damage calculation of its direct attack that dealt battle damage:
  the opponent discards 1 card at random (the duel's PRNG); with an empty hand it does not
  activate (ruling GEN-4)."""

from __future__ import annotations

from .api import (
    Card,
    Ctx,
    Effect,
    EventKind,
    Flag,
    GameEvent,
    Link,
    Script,
    State,
    Step,
    Timing,
    by_name,
    destroy,
    discard_at_random,
    inflicted_battle_damage,
    is_negated,
    other,
    register,
    still_face_up,
)

DOOMED = "reaper_targeted"  # this card's flag: targeted, to be destroyed when it may be
_WAITS: frozenset[Timing] = frozenset({Timing.START, Timing.BEFORE_CALC, Timing.DURING_CALC})


def _battle_proof(s: State, src: Card, c: Card) -> bool:
    return c.id == src.id


def _after_targeted(ctx: Ctx, card: Card, link: Link) -> None:
    s = ctx.s
    if not still_face_up(card) or is_negated(s, card):
        return
    by_equip = s.cards[link.card].data.prop == "equip"
    if by_equip or (s.step == Step.DAMAGE and s.damage_step in _WAITS):
        ctx.emit(Flag(card=card.id, name=DOOMED, value=True))
    else:
        destroy(ctx, card, reason="effect", by=card.id)


def _doomed(s: State, card: Card) -> bool:
    return bool(card.flags.get(DOOMED))


def _direct_hit(s: State, card: Card, ev: GameEvent) -> bool:
    return inflicted_battle_damage(s, card, ev, direct=True)


def _opponent_holds(s: State, card: Card, seat: int) -> bool:
    return bool(s.players[other(seat)].hand)


def _discard(ctx: Ctx, link: Link) -> None:
    discard_at_random(ctx, other(link.controller), link.card)


register(
    by_name("Spirit Reaper").code,
    Script(
        effects=(
            Effect(
                kind="trigger",
                speed=1,
                trigger_on=EventKind.BATTLE_DAMAGE,
                trigger_match=_direct_hit,
                optional=False,
                condition=_opponent_holds,
                resolve=_discard,
                label="random discard",
            ),
        ),
        battle_indestructible=_battle_proof,
        after_targeted=_after_targeted,
        self_destroy=_doomed,
    ),
)
