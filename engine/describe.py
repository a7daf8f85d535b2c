"""Plain words for facts: ``duel replay``, the terminal client and the web client's log.

``describe(fact, name_of)`` gives one line for a fact a reader cares about and
None for bookkeeping. Facts carry a card's passcode where the reader may know
it; where a fact names a card only by id (a stat change, a counter), the
caller's ``name_of`` turns that id into a name (the terminal client looks it
up in its view); without it, "a card" is written.
"""

from __future__ import annotations

from collections.abc import Callable

from .cards import CARDS
from .types import Fact

SEAT = ("A", "B")
NameOf = Callable[[int], str | None]

PHASES = {
    "draw": "Draw Phase",
    "standby": "Standby Phase",
    "main1": "Main Phase 1",
    "battle": "Battle Phase",
    "main2": "Main Phase 2",
    "end": "End Phase",
}
STEPS = {"start": "Start Step", "battle": "Battle Step", "damage": "Damage Step", "end": "End Step"}
TIMINGS = {
    "start_of_damage_step": "start of the Damage Step",
    "before_damage_calculation": "before damage calculation",
    "during_damage_calculation": "during damage calculation",
    "after_damage_calculation": "after damage calculation",
    "end_of_damage_step": "end of the Damage Step",
}
UNTIL = {
    "damage_calculation": "until the end of damage calculation",
    "end_of_damage_step": "until the end of the Damage Step",
    "end_of_battle_phase": "until the end of the Battle Phase",
    "end_phase": "until the End Phase",
    "turn": "until the end of the turn",
    "while_face_up": "while its source stays face-up",
}
END_REASONS = {
    "lp": "Life Points reached 0",
    "deck_out": "a player had to draw from an empty Deck",
    "concede": "a player conceded",
    "timeout": "a player ran out of time",
}


def phase_text(phase: str, step: str | None = None, timing: str | None = None) -> str:
    """ "Battle Phase - Damage Step (before damage calculation)"."""
    out = PHASES.get(phase, phase)
    if step:
        out += f" - {STEPS.get(step, step)}"
    if timing:
        out += f" ({TIMINGS.get(timing, timing)})"
    return out


def _quoted(code: object) -> str | None:
    if isinstance(code, int) and code in CARDS:
        return f'"{CARDS[code].name}"'
    return None


def _card(fact: Fact, name_of: NameOf | None, code_key: str = "code", id_key: str = "card") -> str:
    named = _quoted(fact.get(code_key))
    if named:
        return named
    cid = fact.get(id_key)
    if name_of is not None and isinstance(cid, int):
        name = name_of(cid)
        if name:
            return f'"{name}"'
    return "a card"


def _by_id(cid: object, name_of: NameOf | None, fallback: str = "a card") -> str:
    if name_of is not None and isinstance(cid, int):
        name = name_of(cid)
        if name:
            return f'"{name}"'
    return fallback


def _modifier(fact: Fact, name_of: NameOf | None) -> str | None:
    stat = str(fact.get("stat", "atk"))
    if fact.get("op") == "flag":
        flags = {
            "no_battle_damage": "takes no battle damage",
            "nutrient_z": "is protected by Nutrient Z",
            "battle_indestructible": "cannot be destroyed by battle",
            "battle_indestructible_all": "has monsters that cannot be destroyed by battle",
        }
        what = flags.get(stat)
        if what is None:
            return None
        who = (
            f"{SEAT[int(fact['value'])]}"
            if stat in ("no_battle_damage", "nutrient_z", "battle_indestructible_all")
            and isinstance(fact.get("value"), int)
            and fact["value"] in (0, 1)
            else _by_id(fact.get("value"), name_of)
        )
        return f"    {who} {what} {UNTIL.get(str(fact.get('until')), '')}".rstrip()
    target = _by_id(fact.get("card"), name_of, "a monster")
    label = stat.upper() if stat in ("atk", "def") else stat
    value = int(fact.get("value", 0))
    op = fact.get("op")
    if op == "add":
        change = f"{'+' if value >= 0 else ''}{value} {label}"
        return f"    {target} {change} {UNTIL.get(str(fact.get('until')), '')}".rstrip()
    if op == "set":
        return f"    {target}'s {label} becomes {value}"
    if op == "set_original":
        return f"    {target}'s original {label} becomes {value}"
    if op == "half_original":
        return f"    {target}'s original {label} is halved {UNTIL.get(str(fact.get('until')), '')}".rstrip()
    return None


def describe(fact: Fact, name_of: NameOf | None = None) -> str | None:
    """One line for a fact a reader cares about; None for bookkeeping facts."""
    t = fact["t"]
    card = _card(fact, name_of)
    if t == "duel_started":
        return f"Duel starts; {SEAT[fact.get('first', 0)]} goes first, {fact.get('lp', 8000)} LP each"
    if t == "setup":
        where = phase_text(str(fact.get("phase")), fact.get("step"))
        return f"The duel starts from a set position: turn {fact.get('turn')}, {where}"
    if t == "turn":
        return f"=== Turn {fact['turn']} ({SEAT[fact['player']]}) ==="
    if t == "phase":
        why = " (by a card's effect)" if fact.get("reason") not in (None, "turn_player") else ""
        return f"  [{phase_text(str(fact['phase']), fact.get('step'))}]{why}"
    if t == "damage_step":
        return f"    Damage Step: {TIMINGS.get(fact['timing'], fact['timing'])}"
    if t == "skip_phase":
        return f"  {PHASES.get(str(fact.get('phase')), fact.get('phase'))} is skipped"
    if t == "extra_battle_phase":
        return "  an additional Battle Phase is granted this turn"
    if t == "drew":
        return f"  {SEAT[fact['seat']]} draws {_quoted(fact.get('code')) or 'a card'}"
    if t == "shuffled":
        return f"  {SEAT[fact['seat']]}'s Deck is shuffled"
    if t == "summoned":
        if fact.get("kind") == "set":
            return f"  {SEAT[fact['seat']]} Sets a monster"
        how = {
            "normal": "Normal Summons",
            "tribute": "Tribute Summons",
            "flip": "Flip Summons",
            "special": "Special Summons",
        }
        return f"  {SEAT[fact['seat']]} {how.get(str(fact.get('kind')), 'summons')} {card}"
    if t == "activated":
        effect = "" if int(fact.get("effect", 1)) == 1 else f" (effect {fact['effect']})"
        what = "'s effect" if fact.get("trigger") else ""
        return f"  {SEAT[fact['seat']]} activates {card}{what}{effect} (chain link {fact.get('link')})"
    if t == "triggered":
        return f"  the effect of {card} is triggered"
    if t == "passed":
        if fact.get("intent") == "battle":
            return f"  {SEAT[fact['seat']]} moves to the Battle Phase"
        if fact.get("intent") == "end":
            return f"  {SEAT[fact['seat']]} ends the turn"
        if fact.get("intent") == "next":
            return f"  {SEAT[fact['seat']]} moves on"
        return f"  {SEAT[fact['seat']]} passes" + (" (nothing to activate)" if fact.get("auto") else "")
    if t == "negated":
        return f"    chain link {fact['link']} ({card}): {fact.get('what', 'activation')} negated"
    if t == "link_resolved":
        return f"    chain link {fact['link']} resolves"
    if t == "chain_resolved":
        return "    the chain has resolved"
    if t == "note":
        if fact.get("what") == "no_effect":
            return f"    chain link {fact.get('link')} ({card}) resolves without effect"
        if fact.get("what") == "excavated":
            return f"    {SEAT[int(fact.get('seat', 0))]} excavates {card}"
        if fact.get("what") == "die_roll":
            return f"    {card}: the die shows {fact.get('result')}"
        return None
    if t == "attack_declared":
        target = (
            "directly"
            if fact.get("target") is None
            else _card(fact, name_of, "target_code", "target").replace("a card", "a face-down monster")
        )
        return f"  {SEAT[fact['seat']]}'s {_card(fact, name_of, 'code', 'attacker')} attacks {target}"
    if t == "attack_replay":
        return "  replay: the monsters the attack could target changed; the attacker chooses again"
    if t == "attack_retargeted":
        target = "directly" if fact.get("target") is None else _card(fact, name_of, "target_code", "target")
        return f"  replay: the attack is redirected {'at ' if fact.get('target') is not None else ''}{target}"
    if t == "attack_ended" and fact.get("reason") not in ("damage_step_over", "battle_phase_ended"):
        reasons = {
            "cancelled": "the attack is cancelled",
            "negated": "the attack is negated",
            "attacker_gone": "the attack stops: the attacker can no longer attack",
            "attacker_cannot_attack": "the attack stops: the attacker can no longer attack",
        }
        reason = str(fact.get("reason"))
        return f"  {reasons.get(reason, 'the attack ends (' + reason + ')')}"
    if t == "battle_stopped":
        return f"    damage calculation does not happen ({fact.get('reason')})"
    if t == "battle":
        attacker = _by_id(fact.get("attacker"), name_of, "the attacker")
        if fact.get("target") is None:
            return f"    damage calculation: {attacker} (ATK {fact['attacker_atk']}) attacks directly"
        target = _by_id(fact.get("target"), name_of, "the attack target")
        if "target_def" in fact:
            vs = f"{target} (DEF {fact['target_def']}, Defense Position)"
        else:
            vs = f"{target} (ATK {fact.get('target_atk')})"
        return f"    damage calculation: {attacker} (ATK {fact['attacker_atk']}) vs {vs}"
    if t == "lp":
        d = int(fact.get("delta", 0))
        what = {"battle": "battle damage", "cost": "paid as a cost", "effect": "by an effect"}.get(
            fact.get("reason", ""), ""
        )
        return f"    {SEAT[fact['seat']]} LP {'+' if d > 0 else ''}{d} ({what}) -> {fact['lp']}"
    if t == "destroyed":
        how = {"battle": "by battle", "effect": "by an effect", "self": "by its own effect", "rule": "by the rules"}
        return f"    {card} is destroyed {how.get(str(fact.get('reason')), '')}".rstrip()
    if t == "moved":
        return _moved(fact, card)
    if t == "position_changed":
        pos = {"attack": "Attack Position", "defense": "Defense Position"}.get(
            str(fact.get("position")), fact.get("position")
        )
        face = "" if fact.get("face_up", True) else " face-down"
        return f"  {card} changes to{face} {pos}"
    if t == "flipped":
        return f"    {card} is flipped face-up"
    if t == "modifier":
        return _modifier(fact, name_of)
    if t == "counters":
        kind = str(fact.get("name", "")).replace("_", " ")
        return f"    {_by_id(fact.get('card'), name_of)} now has {fact.get('count')} {kind} counter(s)"
    if t == "equipped":
        if fact.get("to") is None:
            return None
        return f"    {_by_id(fact.get('card'), name_of)} is equipped to {_by_id(fact.get('to'), name_of, 'a monster')}"
    if t == "duel_ended":
        w = fact["winner"]
        who = "a draw" if w == "draw" else f"{SEAT[w]} wins"
        reason = END_REASONS.get(str(fact.get("reason")), str(fact.get("reason")))
        return f"=== Duel over: {who} ({reason}) ==="
    return None


def _moved(fact: Fact, card: str) -> str | None:
    to, src, reason = fact.get("to"), fact.get("from"), fact.get("reason")
    if to in ("graveyard", "banished"):
        if reason in ("battle", "effect", "self"):
            return f"    {card} is banished" if to == "banished" else None
        how = {
            "tribute": "is Tributed",
            "discard": "is discarded",
            "cost": "is sent as a cost",
            "detach": "is detached",
            "rule": "goes to the Graveyard",
        }
        verb = how.get(str(reason), f"goes to the {'Graveyard' if to == 'graveyard' else 'banishment'}")
        if to == "banished":
            verb += " (banished instead)"
        return f"    {card} {verb}"
    if to == "hand" and src in ("monsters", "spells_traps", "field", "graveyard", "banished"):
        return f"    {card} returns to the hand"
    if to == "hand" and src == "deck":
        return f"    {card} is added from the Deck to the hand"
    if to == "deck":
        return f"    {card} goes back into the Deck"
    if to in ("monsters", "spells_traps", "field") and reason == "control":
        return f"    control of {card} changes"
    if to == "spells_traps" and src == "hand" and not fact.get("face_up", True):
        return "  a card is Set in the Spell & Trap Zone"
    return None
