"""Dark Balter the Terrible (Fusion Monster): ""Possessed Dark Soul" + "Frontier Wiseman" / A Fusion
Summon of this monster can only be conducted with the above Fusion Material Monsters. When a
Normal Spell Card is activated, negate the effect by paying 1000 Life Points. The effect of an
Effect Monster that this monster destroys as a result of battle is negated." (card text).

- Its Fusion Summon condition names its materials only: an effect that Special Summons it from
  the Fusion Deck (Metamorphosis, Cyber-Stein) may (ruling SUM-31).
- "When a Normal Spell Card is activated": a Quick effect (Spell Speed 2) of the face-up monster,
  chained right to the activation of a Normal Spell Card (either player's; ruling CH-4); its
  cost is 1000 Life Points (which its controller must have). It negates the Spell's effect, not
  its activation (ruling CH-8): the Spell resolves without effect and goes to the Graveyard.
- The monster it destroys by battle has its effects negated: at the end of the Damage Step,
  once that monster was sent (ruling DS-9), its trigger effects waiting to be activated are
  dropped ("when this card is destroyed" effects, Apprentice Magician's, do not activate).
  Rule bookkeeping (``Script.watch``), so it applies even when Dark Balter was destroyed in the
  same battle."""

from __future__ import annotations

from typing import Final

from .api import (
    Card,
    Ctx,
    Effect,
    EventKind,
    GameEvent,
    Script,
    State,
    answers_card_activation,
    by_name,
    can_pay_lp,
    lp_cost,
    negate_pending_triggers,
    negate_previous_effect,
    register,
)

COST: Final = 1000


def _condition(s: State, card: Card, seat: int) -> bool:
    return answers_card_activation(s, "spell", "normal") and can_pay_lp(s, seat, COST)


def _watch(ctx: Ctx, card: Card, ev: GameEvent) -> None:
    if ev.get("kind") != EventKind.DAMAGE_STEP_END:
        return
    s = ctx.s
    attacker, target = ev.get("attacker"), ev.get("target")
    if attacker is None or target is None or card.id not in (attacker, target):
        return
    victim = s.cards[target if card.id == attacker else attacker]
    if victim.id in ev.get("destroyed", []) and "effect" in victim.data.monster_kinds:
        negate_pending_triggers(ctx, victim)


register(
    by_name("Dark Balter the Terrible").code,
    Script(
        effects=(
            Effect(
                kind="quick",
                speed=2,
                condition=_condition,
                cost=lp_cost(COST),
                resolve=negate_previous_effect,
                label="negate a Normal Spell Card's effect",
            ),
        ),
        watch=_watch,
        watch_on=frozenset({EventKind.DAMAGE_STEP_END}),
    ),
)
