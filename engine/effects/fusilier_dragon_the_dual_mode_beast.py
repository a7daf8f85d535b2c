"""Fusilier Dragon, the Dual-Mode Beast: "You can Normal Summon or Set this card without
Tributing. If you do, its original ATK and DEF are halved."

A summoning rule of the card itself (``Script.summon_without_tribute``; ``main_phase``): besides
its Tribute Summon or Set with 2 Tributes (Level 7), its controller may Normal Summon or Set it
with none; then its original ATK and DEF are halved (2800/2000 become 1400/1000) for as long as it
stays on the field, face-up or flipped later, and changes to its ATK apply to the halved value.
The halving is a hidden flag of the card: a Set card shows nothing of it (ruling GEN-1)."""

from __future__ import annotations

from .api import Script, by_name, register

register(by_name("Fusilier Dragon, the Dual-Mode Beast").code, Script(summon_without_tribute=True))
