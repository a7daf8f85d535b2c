"""Jinzo: "Trap Cards, and their effects on the field, cannot be activated. Negate all Trap
Card effects on the field."

Continuous effects: Trap Cards cannot be activated (``locks``), and the effects of Trap Cards
on the field are negated (``negates``: a face-up Continuous Trap such as Macro Cosmos stops
applying). When a face-down Jinzo is flipped face-up by an attack in the Damage Step, they
apply at once (ruling DS-3; seed 003, TCG "Substep 2": "This includes the Continuous Effects of monsters
like Star Boy, Hoshiningen, Jinzo, and Spell Canceller")."""

from __future__ import annotations

from .api import Card, Script, State, by_name, register


def _locks(s: State, src: Card, card: Card, seat: int) -> bool:
    return card.data.is_trap


def _negates(s: State, src: Card, card: Card) -> bool:
    return card.data.is_trap and card.on_field


register(by_name("Jinzo").code, Script(locks=_locks, negates=_negates))
