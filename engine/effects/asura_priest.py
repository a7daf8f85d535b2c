"""Asura Priest: "Cannot be Special Summoned. During the End Phase of the turn this card is Normal
Summoned or flipped face-up: Return it to the hand. This card can attack all monsters your opponent
controls once each."

- A Spirit monster: it cannot be Special Summoned (``Script.cannot_special_summon``); in the End
  Phase of the turn it was Normal Summoned or flipped face-up, if it is still face-up, a mandatory
  trigger returns it to its owner's hand (``families.spirit_return``).
- It attacks each monster the opponent controls once (``Script.attack_all``, as Wildedge; ruling
  BS-6), and no more directly once it has attacked."""

from __future__ import annotations

from .api import SPIRIT_WATCH_ON, Script, by_name, register, spirit_return, spirit_watch

register(
    by_name("Asura Priest").code,
    Script(
        effects=(spirit_return(),),
        cannot_special_summon=True,
        attack_all=True,
        watch=spirit_watch,
        watch_on=SPIRIT_WATCH_ON,
    ),
)
