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
  ``families.reaper``, the Damage Step's wait: ruling DS-3).
- A mandatory trigger after damage calculation of its direct attack that dealt battle damage:
  the opponent discards 1 card at random (the duel's PRNG); with an empty hand it does not
  activate (ruling GEN-4)."""

from __future__ import annotations

from .api import by_name, reaper, register

register(by_name("Spirit Reaper").code, reaper())
