"""Plain words for facts, for ``duel replay`` and logs."""

from __future__ import annotations

from .cards import CARDS
from .types import Fact

SEAT = ("A", "B")


def _name(code: object) -> str:
    if isinstance(code, int) and code in CARDS:
        return f'"{CARDS[code].name}"'
    return "a card"


def describe(fact: Fact) -> str | None:
    """One line for a fact a reader cares about; None for bookkeeping facts."""
    t = fact["t"]
    if t == "duel_started":
        return f"Duel starts; {SEAT[fact.get('first', 0)]} goes first, {fact.get('lp', 8000)} LP each"
    if t == "turn":
        return f"=== Turn {fact['turn']} ({SEAT[fact['player']]}) ==="
    if t == "phase":
        step = f" - {fact['step']} step" if fact.get("step") else ""
        return f"  [{fact['phase']}{step}]"
    if t == "damage_step":
        return f"    damage step: {fact['timing'].replace('_', ' ')}"
    if t == "drew":
        return f"  {SEAT[fact['seat']]} draws {_name(fact.get('code'))}"
    if t == "summoned":
        if fact.get("kind") == "set":
            return f"  {SEAT[fact['seat']]} Sets a monster"
        return f"  {SEAT[fact['seat']]} {fact.get('kind', 'normal')} summons {_name(fact.get('code'))}"
    if t == "activated":
        return f"  {SEAT[fact['seat']]} activates {_name(fact.get('code'))} (chain link {fact.get('link')})"
    if t == "attack_declared":
        target = "directly" if fact.get("target") is None else (_name(fact.get("target_code")) if fact.get("target_code") else "a face-down monster")
        return f"  {SEAT[fact['seat']]}'s {_name(fact.get('code'))} attacks {target}"
    if t == "attack_retargeted":
        return "  replay: the attack is redirected " + ("directly" if fact.get("target") is None else f"at {_name(fact.get('target_code'))}")
    if t == "attack_ended" and fact.get("reason") not in ("damage_step_over", "battle_phase_ended"):
        return f"  the attack ends ({fact.get('reason')})"
    if t == "battle":
        other = fact.get("target_atk", fact.get("target_def"))
        vs = "directly" if fact.get("target") is None else f"vs {other}"
        return f"    damage calculation: ATK {fact['attacker_atk']} {vs}"
    if t == "lp":
        d = int(fact.get("delta", 0))
        what = {"battle": "battle damage", "cost": "paid", "effect": "effect"}.get(fact.get("reason", ""), "")
        return f"    {SEAT[fact['seat']]} LP {'+' if d > 0 else ''}{d} ({what}) -> {fact['lp']}"
    if t == "destroyed":
        return f"    {_name(fact.get('code'))} is destroyed ({fact.get('reason')})"
    if t == "moved" and fact.get("to") in ("graveyard", "banished") and fact.get("reason") not in ("battle", "effect", "self"):
        how = {"tribute": "is Tributed", "discard": "is discarded", "cost": "is sent as a cost", "detach": "is detached"}
        verb = how.get(str(fact.get("reason")), f"goes to the {fact['to']}")
        if fact["to"] == "banished" and fact.get("reason") in how:
            verb += " (banished)"
        return f"    {_name(fact.get('code'))} {verb}"
    if t == "moved" and fact.get("to") == "banished":
        return f"    {_name(fact.get('code'))} is banished"
    if t == "moved" and fact.get("to") == "hand" and fact.get("from") in ("monsters", "spells_traps", "graveyard"):
        return f"    {_name(fact.get('code'))} returns to the hand"
    if t == "position_changed":
        return f"  {_name(fact.get('code'))} changes to {fact['position']} position"
    if t == "flipped":
        return f"    {_name(fact.get('code'))} is flipped face-up"
    if t == "negated":
        return f"    chain link {fact['link']}: {fact.get('what', 'activation')} negated"
    if t == "duel_ended":
        w = fact["winner"]
        who = "draw" if w == "draw" else f"{SEAT[w]} wins"
        return f"=== Duel over: {who} ({fact.get('reason')}) ==="
    return None
