"""Reaper on the Nightmare (Fusion Monster): ""Spirit Reaper" + "Nightmare Horse" / This card is not
destroyed as a result of battle. Destroy this card when it is targeted by the effect of a Spell,
Trap or Effect Monster. This card can attack your opponent's Life Points directly even if there is
a monster on your opponent's side of the field. If this card successfully attacks your opponent's
Life Points directly, your opponent discards 1 card randomly from his/her hand." (card text).

- It cannot be destroyed by battle (``Script.battle_indestructible``).
- "Destroy this card when it is targeted": Spirit Reaper's Goat-era wording, ruled as Spirit
  Reaper's (ruling CARD-27, ``families.destroy_when_targeted``): with no chain link, once the link
  that targeted it has resolved (its activation not negated), if it is then a face-up monster
  whose effects apply; targeted by an Equip Spell Card, or in the Damage Step before damage
  calculation, it is destroyed when it may.
- It may attack directly while the opponent controls monsters (``Script.direct_attack``).
- A mandatory trigger after damage calculation of its direct attack that dealt battle damage
  (ruling DS-8): the opponent discards 1 card at random (the duel's PRNG); with an empty hand it
  does not activate (ruling GEN-4).
- Metamorphosis (Level 5) and Cyber-Stein may Special Summon it (ruling SUM-31)."""

from __future__ import annotations

from .api import by_name, reaper, register

register(by_name("Reaper on the Nightmare").code, reaper(direct_attack=True))
