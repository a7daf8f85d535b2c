"""Giant Rat, its Goat wording: "When this card is destroyed as a result of battle and sent to the
Graveyard, you can Special Summon 1 EARTH monster with an ATK of 1500 or less in face-up Attack
Position from your Deck. Then shuffle your Deck."

The recruiters' shared trigger (``families.recruiter``): optional, at the end of the Damage Step
(ruling DS-9) from the Graveyard; the monster is selected as it resolves (ruling SEL-1) and
Summoned in face-up Attack Position, then the Deck is shuffled; with no such monster, or no free
zone, it is not offered (ruling GEN-4)."""

from __future__ import annotations

from .api import Script, by_name, recruiter, register

register(by_name("Giant Rat").code, Script(effects=(recruiter("EARTH"),)))
