"""Spell Canceller: "As long as this card remains face-up on the field, Spell Cards cannot be
activated. The effects of all Spell Cards are also negated."

Continuous effects: Spell Cards cannot be activated (``locks``) and the effects of Spell Cards
on the field are negated (``negates``: a face-up Field Spell such as Skyscraper stops
applying), a monster equipped as an Equip Spell Card included (it is a Spell Card: the 200 ATK
Sword Hunter's equipped monsters give stop, ruling EQ-1). When a face-down Spell Canceller is
flipped face-up by an attack in the Damage Step, they apply at once, to that very battle
(ruling DS-3; seed 003, TCG "Substep 2")."""

from __future__ import annotations

from .api import Card, Script, State, by_name, is_spell_card, register


def _locks(s: State, src: Card, card: Card, seat: int) -> bool:
    return card.data.is_spell


def _negates(s: State, src: Card, card: Card) -> bool:
    return is_spell_card(card) and card.on_field


register(by_name("Spell Canceller").code, Script(locks=_locks, negates=_negates))
