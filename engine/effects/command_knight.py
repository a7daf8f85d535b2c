"""Command Knight: "While at least 1 other monster exists on your side of the field, your
opponent cannot select this card as an attack target. Also, while this card remains face-up on
the field, increase the ATK of all your Warrior-Type monsters by 400 points."

Both are continuous effects of the face-up card. A face-down Command Knight may be attacked;
when it is flipped by that attack, its "cannot be selected" effect does not stop the attack in
progress, but applies to the following attacks if it survives (ruling DS-3; seed 003, TCG "Substep 2").
The ATK gain applies at once (itself included: it is a Warrior)."""

from __future__ import annotations

from .api import Card, Script, State, by_name, register


def _can_be_attacked(s: State, src: Card, target: Card, attacker: Card) -> bool:
    if target.id != src.id:
        return True
    return not any(m.id != src.id for m in s.monsters(src.controller))


def _stat(s: State, src: Card, c: Card) -> tuple[int, int]:
    if c.controller == src.controller and c.data.type == "Warrior":
        return 400, 0
    return 0, 0


register(by_name("Command Knight").code, Script(can_be_attacked=_can_be_attacked, stat=_stat))
