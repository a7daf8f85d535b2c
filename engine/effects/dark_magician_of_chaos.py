"""Dark Magician of Chaos, its Goat wording: "When this card is Normal or Special Summoned: You
can target 1 Spell in your Graveyard; add it to your hand. Banish any monster this card destroys
by battle, instead of sending it to the Graveyard. If this face-up card would leave the field,
banish it instead."

- An optional "When" trigger on its Normal (Tribute) or Special Summon, not a Flip Summon, that
  targets a Spell Card in its controller's Graveyard as it is activated (none: no activation,
  ruling GEN-4). Being a "When ... You can" effect, it misses its timing when its Summon was not
  the last thing that happened (ruling CH-12: Special Summoned by a chain link that another link
  resolves after, or by an effect that goes on to do something else).
- The monsters it destroys by battle are banished at the end of the Damage Step instead of being
  sent to the Graveyard (``Script.banishes_battle_destroyed``; ruling DS-9): their "sent to the
  Graveyard" effects do not activate.
- Face-up on the field, it is banished whenever it would leave it (destroyed, returned to the
  hand or Deck, Tributed: ``Script.banished_when_leaving``); face-down, it leaves normally."""

from __future__ import annotations

from .api import (
    Card,
    Effect,
    EventKind,
    GameEvent,
    Script,
    State,
    by_name,
    grave_targets,
    register,
    return_target_to_hand,
    still_face_up,
)


def _summoned(s: State, card: Card, ev: GameEvent) -> bool:
    return ev.get("card") == card.id and ev.get("how") in ("normal", "tribute", "special") and still_face_up(card)


def _targets(s: State, card: Card, seat: int) -> list[list[int]]:
    return grave_targets(s, seat, lambda c: c.data.is_spell)


register(
    by_name("Dark Magician of Chaos").code,
    Script(
        effects=(
            Effect(
                kind="trigger",
                speed=1,
                trigger_on=EventKind.SUMMONED,
                trigger_match=_summoned,
                targets=_targets,
                resolve=return_target_to_hand,
                misses_timing=True,
                label="add a Spell from the Graveyard",
            ),
        ),
        banishes_battle_destroyed=True,
        banished_when_leaving=True,
    ),
)
