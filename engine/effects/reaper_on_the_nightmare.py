"""Reaper on the Nightmare (Fusion Monster): ""Spirit Reaper" + "Nightmare Horse" / This card is not
destroyed as a result of battle. Destroy this card when it is targeted by the effect of a Spell,
Trap or Effect Monster. This card can attack your opponent's Life Points directly even if there is
a monster on your opponent's side of the field. If this card successfully attacks your opponent's
Life Points directly, your opponent discards 1 card randomly from his/her hand." (card text).

- It cannot be destroyed by battle (``Script.battle_indestructible``).
- "Destroy this card when it is targeted": Spirit Reaper's Goat-era wording, ruled as Spirit
  Reaper's (ruling CARD-27, ``common.destroy_when_targeted``): with no chain link, once the link
  that targeted it has resolved (its activation not negated), if it is then a face-up monster
  whose effects apply; targeted by an Equip Spell Card, or in the Damage Step before damage
  calculation, it is destroyed when it may.
- It may attack directly while the opponent controls monsters (``Script.direct_attack``).
- A mandatory trigger after damage calculation of its direct attack that dealt battle damage
  (ruling DS-8): the opponent discards 1 card at random (the duel's PRNG); with an empty hand it
  does not activate (ruling GEN-4).
- Metamorphosis (Level 5) and Cyber-Stein may Special Summon it (ruling SUM-31)."""

from __future__ import annotations

from .api import (
    Card,
    Ctx,
    Effect,
    EventKind,
    GameEvent,
    Link,
    Script,
    State,
    by_name,
    destroy_when_targeted,
    discard_at_random,
    inflicted_battle_damage,
    other,
    register,
    targeted_doomed,
)


def _battle_proof(s: State, src: Card, c: Card) -> bool:
    return c.id == src.id


def _direct(s: State, src: Card, attacker: Card) -> bool:
    return attacker.id == src.id


def _direct_hit(s: State, card: Card, ev: GameEvent) -> bool:
    return inflicted_battle_damage(s, card, ev, direct=True)


def _opponent_holds(s: State, card: Card, seat: int) -> bool:
    return bool(s.players[other(seat)].hand)


def _discard(ctx: Ctx, link: Link) -> None:
    discard_at_random(ctx, other(link.controller), link.card)


register(
    by_name("Reaper on the Nightmare").code,
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
        direct_attack=_direct,
        after_targeted=destroy_when_targeted,
        self_destroy=targeted_doomed,
    ),
)
