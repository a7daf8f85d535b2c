"""Berserk Gorilla: "If this card is in face-up Defense Position, destroy this card. This card
must attack if able."

Both are continuous effects. Because it must attack, its controller must enter the Battle Phase
(no End Phase straight from Main Phase 1), even when another card (Gravity Bind) keeps it from
attacking (ruling BP-4; seed 000, "Entering the Battle Phase"; seed 003: "like if you control a face-up
Attack Position Berserk Gorilla"). In the Battle Step the turn player cannot end the Battle
Phase while it can still attack (``battle_step.forced_attack_pending``)."""

from __future__ import annotations

from .api import Card, Position, Script, State, by_name, register, still_face_up


def _self_destroy(s: State, card: Card) -> bool:
    return still_face_up(card) and card.position == Position.DEFENSE


def _must_attack(s: State, src: Card, attacker: Card) -> bool:
    return attacker.id == src.id


register(by_name("Berserk Gorilla").code, Script(self_destroy=_self_destroy, must_attack=_must_attack))
