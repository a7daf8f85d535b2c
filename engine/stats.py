"""Computed values: current ATK/DEF and the continuous effects the rules ask about.

Current ATK = original ATK (after changes to the original, e.g. Shrink halves
it), then gains and losses from resolved effects (each with its duration),
then continuous effects of face-up cards. Nothing here is stored: when the
source leaves the field its effect is simply no longer computed (issue 4).
"""

from __future__ import annotations

from .effects.base import Script, script_of
from .state import Card, State


def continuous_sources(s: State) -> list[tuple[Card, Script]]:
    """Face-up cards on the field with a script, in a fixed order."""
    out: list[tuple[Card, Script]] = []
    for c in s.face_up_field():
        sc = script_of(c)
        if sc is not None and not c.flags.get("negated"):
            out.append((c, sc))
    return out


def original(s: State, c: Card, stat: str) -> int:
    base = c.data.atk if stat == "atk" else c.data.def_
    base = max(base, 0)
    for m in s.modifiers:
        if m.card == c.id and m.stat == stat and m.op == "set_original":
            base = m.value
    for m in s.modifiers:
        if m.card == c.id and m.stat == stat and m.op == "half_original":
            base = (base + 1) // 2
    return base


def stat(s: State, c: Card, which: str, exclude: int | None = None) -> int:
    """Current ATK (``which='atk'``) or DEF of a card.

    ``exclude`` leaves out the continuous effect of one source card (a card
    whose condition compares ATK values must not count its own bonus).
    """
    if not c.data.is_monster:
        return 0
    if c.zone != "monsters" or not c.face_up:
        return original(s, c, which)
    value = original(s, c, which)
    for m in s.modifiers:
        if m.card == c.id and m.stat == which and m.op == "add":
            value += m.value
    for m in s.modifiers:
        if m.card == c.id and m.stat == which and m.op == "set":
            value = m.value
    for src, sc in continuous_sources(s):
        if sc.stat is None or src.id == exclude:
            continue
        da, dd = sc.stat(s, src, c)
        value += da if which == "atk" else dd
    return max(value, 0)


def atk(s: State, c: Card, exclude: int | None = None) -> int:
    return stat(s, c, "atk", exclude)


def def_(s: State, c: Card, exclude: int | None = None) -> int:
    return stat(s, c, "def", exclude)


def can_attack(s: State, attacker: Card) -> bool:
    for src, sc in continuous_sources(s):
        if sc.can_attack is not None and not sc.can_attack(s, src, attacker):
            return False
    return True


def can_be_attacked(s: State, target: Card, attacker: Card) -> bool:
    for src, sc in continuous_sources(s):
        if sc.can_be_attacked is not None and not sc.can_be_attacked(s, src, target, attacker):
            return False
    return True


def may_attack_directly(s: State, attacker: Card) -> bool:
    for src, sc in continuous_sources(s):
        if sc.direct_attack is not None and sc.direct_attack(s, src, attacker):
            return True
    return False


def activation_locked(s: State, card: Card, seat: int) -> bool:
    """Jinzo, Spell Canceller and friends: True when ``card`` cannot be activated."""
    for src, sc in continuous_sources(s):
        if sc.locks is not None and sc.locks(s, src, card, seat):
            return True
    return False


def must_attack(s: State, attacker: Card) -> bool:
    for src, sc in continuous_sources(s):
        if sc.must_attack is not None and sc.must_attack(s, src, attacker):
            return True
    return False


def banish_instead(s: State) -> bool:
    """Macro Cosmos: cards that would be sent to the Graveyard are banished."""
    return any(sc.banish_instead_of_grave for _, sc in continuous_sources(s))


def no_battle_damage(s: State, seat: int) -> bool:
    """"You take no battle damage" effects: lingering (Kuriboh) or continuous."""
    if any(m.stat == "no_battle_damage" and m.value == seat for m in s.modifiers):
        return True
    for src, sc in continuous_sources(s):
        if sc.no_battle_damage is not None and sc.no_battle_damage(s, src, seat):
            return True
    return False
