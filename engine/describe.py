"""Plain words for facts: ``duel replay``, the terminal client and the web client's log.

``describe(fact, name_of)`` gives one line for a fact a reader cares about and
None for bookkeeping. Facts carry a card's passcode where the reader may know
it; where a fact names a card only by id (a stat change, a counter), the
caller's ``name_of`` turns that id into a name (the terminal client looks it
up in its view); without it, "a card" is written.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from . import facts as F
from .cards import CARDS
from .facts import FACTS, Fact, WireFact
from .types import Zone

SEAT: Final[tuple[str, ...]] = ("A", "B")
NameOf = Callable[[int], str | None]

Narration = Callable[[WireFact, NameOf | None], str | None]
NARRATION: Final[dict[type[Fact], Narration]] = {}
"""The plain words of each fact class a reader cares about (they read the wire map: what the
viewer received, or the whole fact)."""
SILENT: Final[frozenset[type[Fact]]] = frozenset(
    {
        F.Priority,
        F.ChainResolving,
        F.LinkResolving,
        F.TriggerDone,
        F.Rng,
        F.FixedOutcome,
        F.Used,
        F.Flag,
        F.Choice,
        F.Event,
        F.Delayed,
        F.DelayedDone,
        F.ModifiersExpired,
    }
)
"""Bookkeeping: no words (``tests/engine/test_facts.py``: every class is here or narrated)."""


def narrates(cls: type[Fact]) -> Callable[[Narration], Narration]:
    def register(fn: Narration) -> Narration:
        NARRATION[cls] = fn
        return fn

    return register


PHASE_WORDS: Final = {
    "draw": "Draw Phase",
    "standby": "Standby Phase",
    "main1": "Main Phase 1",
    "battle": "Battle Phase",
    "main2": "Main Phase 2",
    "end": "End Phase",
}
STEP_WORDS: Final = {"start": "Start Step", "battle": "Battle Step", "damage": "Damage Step", "end": "End Step"}
TIMING_WORDS: Final = {
    "start_of_damage_step": "start of the Damage Step",
    "before_damage_calculation": "before damage calculation",
    "during_damage_calculation": "during damage calculation",
    "after_damage_calculation": "after damage calculation",
    "end_of_damage_step": "end of the Damage Step",
}
UNTIL: Final = {
    "damage_calculation": "until the end of damage calculation",
    "end_of_damage_step": "until the end of the Damage Step",
    "end_of_battle_phase": "until the end of the Battle Phase",
    "end_phase": "until the End Phase",
    "turn": "until the end of the turn",
    "while_face_up": "while its source stays face-up",
}
END_REASONS: Final = {
    "lp": "Life Points reached 0",
    "deck_out": "a player had to draw from an empty Deck",
    "concede": "a player conceded",
    "timeout": "a player ran out of time",
}


def phase_text(phase: str, step: str | None = None, timing: str | None = None) -> str:
    """ "Battle Phase - Damage Step (before damage calculation)". Kept per (phase, step, timing):
    every decision's prompt starts with it (``engine.prompts``), a few dozen texts in all."""
    key = (phase, step, timing)
    got = _PHASE_TEXTS.get(key)
    if got is None:
        got = _phase_text(phase, step, timing)
        if len(_PHASE_TEXTS) < 512:  # the engine's names: fewer than 100 (a fact read back may hold any)
            _PHASE_TEXTS[key] = got
    return got


_PHASE_TEXTS: Final[dict[tuple[str, str | None, str | None], str]] = {}


def _phase_text(phase: str, step: str | None, timing: str | None) -> str:
    out = PHASE_WORDS.get(phase, phase)
    if step:
        out += f" - {STEP_WORDS.get(step, step)}"
    if timing:
        out += f" ({TIMING_WORDS.get(timing, timing)})"
    return out


def _quoted(code: object) -> str | None:
    if isinstance(code, int) and code in CARDS:
        return f'"{CARDS[code].name}"'
    return None


def _card(fact: WireFact, name_of: NameOf | None, code_key: str = "code", id_key: str = "card") -> str:
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


@narrates(F.Modifier)
def _modifier(fact: WireFact, name_of: NameOf | None) -> str | None:
    stat = str(fact.get("stat", "atk"))
    if fact.get("op") == "flag":
        flags = {
            "no_battle_damage": "takes no battle damage",
            "nutrient_z": "is protected by Nutrient Z",
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


def describe(fact: Fact | WireFact, name_of: NameOf | None = None) -> str | None:
    """One line for a fact a reader cares about; None for bookkeeping facts. ``fact``: a fact,
    or its wire map as a viewer received it (card ids are then that viewer's aliases)."""
    wire = fact if isinstance(fact, dict) else fact.to_wire()
    cls = FACTS.get(wire["t"])
    narration = None if cls is None else NARRATION.get(cls)
    return None if narration is None else narration(wire, name_of)


@narrates(F.DuelStarted)
def _duel_started(fact: WireFact, name_of: NameOf | None) -> str | None:
    return f"Duel starts; {SEAT[fact.get('first', 0)]} goes first, {fact.get('lp', 8000)} LP each"


@narrates(F.Setup)
def _setup(fact: WireFact, name_of: NameOf | None) -> str | None:
    where = phase_text(str(fact.get("phase")), fact.get("step"))
    return f"The duel starts from a set position: turn {fact.get('turn')}, {where}"


@narrates(F.Turn)
def _turn(fact: WireFact, name_of: NameOf | None) -> str | None:
    return f"=== Turn {fact['turn']} ({SEAT[fact['player']]}) ==="


@narrates(F.PhaseBegan)
def _phase(fact: WireFact, name_of: NameOf | None) -> str | None:
    why = " (by a card's effect)" if fact.get("reason") not in (None, "turn_player") else ""
    return f"  [{phase_text(str(fact['phase']), fact.get('step'))}]{why}"


@narrates(F.DamageStep)
def _damage_step(fact: WireFact, name_of: NameOf | None) -> str | None:
    return f"    Damage Step: {TIMING_WORDS.get(fact['timing'], fact['timing'])}"


@narrates(F.SkipPhase)
def _skip_phase(fact: WireFact, name_of: NameOf | None) -> str | None:
    return f"  {PHASE_WORDS.get(str(fact.get('phase')), fact.get('phase'))} is skipped"


@narrates(F.ExtraBattlePhase)
def _extra_battle_phase(fact: WireFact, name_of: NameOf | None) -> str | None:
    return "  an additional Battle Phase is granted this turn"


@narrates(F.Drew)
def _drew(fact: WireFact, name_of: NameOf | None) -> str | None:
    return f"  {SEAT[fact['seat']]} draws {_quoted(fact.get('code')) or 'a card'}"


@narrates(F.Shuffled)
def _shuffled(fact: WireFact, name_of: NameOf | None) -> str | None:
    return f"  {SEAT[fact['seat']]}'s Deck is shuffled"


@narrates(F.Summoned)
def _summoned(fact: WireFact, name_of: NameOf | None) -> str | None:
    if fact.get("kind") == "set":
        return f"  {SEAT[fact['seat']]} Sets a monster"
    how = {
        "normal": "Normal Summons",
        "tribute": "Tribute Summons",
        "flip": "Flip Summons",
        "special": "Special Summons",
    }
    return f"  {SEAT[fact['seat']]} {how.get(str(fact.get('kind')), 'summons')} {_card(fact, name_of)}"


@narrates(F.TokenMade)
def _token_made(fact: WireFact, name_of: NameOf | None) -> str | None:
    side = "" if fact.get("summoner") == fact.get("seat") else f" on {SEAT[fact['seat']]}'s side"
    return f"  {SEAT[fact['summoner']]} Special Summons {_card(fact, name_of)}{side}"


@narrates(F.TokenGone)
def _token_gone(fact: WireFact, name_of: NameOf | None) -> str | None:
    return f"    {_by_id(fact.get('card'), name_of, 'a Token')} ceases to exist"


@narrates(F.Activated)
def _activated(fact: WireFact, name_of: NameOf | None) -> str | None:
    effect = "" if int(fact.get("effect", 1)) == 1 else f" (effect {fact['effect']})"
    what = "'s effect" if fact.get("trigger") else ""
    card = _card(fact, name_of)
    return f"  {SEAT[fact['seat']]} activates {card}{what}{effect} (chain link {fact.get('link')})"


@narrates(F.Triggered)
def _triggered(fact: WireFact, name_of: NameOf | None) -> str | None:
    return f"  the effect of {_card(fact, name_of)} is triggered"


@narrates(F.Passed)
def _passed(fact: WireFact, name_of: NameOf | None) -> str | None:
    if fact.get("intent") == "battle":
        return f"  {SEAT[fact['seat']]} moves to the Battle Phase"
    if fact.get("intent") == "finish":
        return f"  {SEAT[fact['seat']]} " + ("passes (ending the turn)" if fact.get("auto") else "ends the turn")
    if fact.get("intent") == "end":
        return f"  {SEAT[fact['seat']]} moves on towards the End Phase"
    if fact.get("intent") == "next":
        return f"  {SEAT[fact['seat']]} moves on"
    return f"  {SEAT[fact['seat']]} passes" + (" (nothing to activate)" if fact.get("auto") else "")


@narrates(F.Negated)
def _negated(fact: WireFact, name_of: NameOf | None) -> str | None:
    if fact.get("what") == "summon":
        return f"    the Summon of {_card(fact, name_of)} is negated"
    return f"    chain link {fact['link']} ({_card(fact, name_of)}): {fact.get('what', 'activation')} negated"


@narrates(F.LinkResolved)
def _link_resolved(fact: WireFact, name_of: NameOf | None) -> str | None:
    return f"    chain link {fact['link']} resolves"


@narrates(F.ChainResolved)
def _chain_resolved(fact: WireFact, name_of: NameOf | None) -> str | None:
    return "    the chain has resolved"


@narrates(F.Revealed)
def _revealed(fact: WireFact, name_of: NameOf | None) -> str | None:
    whose = SEAT[int(fact["seat"])]
    to = "both players" if fact.get("shown_to") is None else SEAT[int(fact["shown_to"])]
    names = [_quoted(code) or "a card" for code in fact.get("codes", [])]
    shown = ", ".join(names) if names else f"{fact.get('count', 0)} card(s)"
    return f"    {whose} reveals to {to}: {shown}"


@narrates(F.Targeted)
def _targeted(fact: WireFact, name_of: NameOf | None) -> str | None:
    return f"    chain link {fact['link']} also targets {_card(fact, name_of)}"


@narrates(F.Note)
def _note(fact: WireFact, name_of: NameOf | None) -> str | None:
    card = _card(fact, name_of)
    if fact.get("what") == "no_effect":
        return f"    chain link {fact.get('link')} ({card}) resolves without effect"
    if fact.get("what") == "excavated":
        return f"    {SEAT[int(fact.get('seat', 0))]} excavates {card}"
    if fact.get("what") == "die_roll":
        return f"    {card}: the die shows {fact.get('result')}"
    if fact.get("what") == "random_discard":
        return f"    {card} is picked at random from {SEAT[int(fact.get('seat', 0))]}'s hand"
    if fact.get("what") == "coin_toss":
        return f"    {card}: the coin shows {fact.get('result')}"
    if fact.get("what") == "effects_negated":
        return f"    the effects of {card} are negated"
    return None


@narrates(F.AttackDeclared)
def _attack_declared(fact: WireFact, name_of: NameOf | None) -> str | None:
    target = (
        "directly"
        if fact.get("target") is None
        else _card(fact, name_of, "target_code", "target").replace("a card", "a face-down monster")
    )
    return f"  {SEAT[fact['seat']]}'s {_card(fact, name_of, 'code', 'attacker')} attacks {target}"


@narrates(F.AttackReplay)
def _attack_replay(fact: WireFact, name_of: NameOf | None) -> str | None:
    return "  replay: the monsters the attack could target changed; the attacker chooses again"


@narrates(F.AttackRetargeted)
def _attack_retargeted(fact: WireFact, name_of: NameOf | None) -> str | None:
    target = "directly" if fact.get("target") is None else _card(fact, name_of, "target_code", "target")
    return f"  replay: the attack is redirected {'at ' if fact.get('target') is not None else ''}{target}"


@narrates(F.AttackEnded)
def _attack_ended(fact: WireFact, name_of: NameOf | None) -> str | None:
    if fact.get("reason") in ("damage_step_over", "battle_phase_ended"):
        return None
    reasons = {
        "cancelled": "the attack is cancelled",
        "negated": "the attack is negated",
        "attacker_gone": "the attack stops: the attacker can no longer attack",
        "attacker_cannot_attack": "the attack stops: the attacker can no longer attack",
    }
    reason = str(fact.get("reason"))
    return f"  {reasons.get(reason, 'the attack ends (' + reason + ')')}"


@narrates(F.BattleStopped)
def _battle_stopped(fact: WireFact, name_of: NameOf | None) -> str | None:
    return f"    damage calculation does not happen ({fact.get('reason')})"


@narrates(F.Battle)
def _battle(fact: WireFact, name_of: NameOf | None) -> str | None:
    attacker = _by_id(fact.get("attacker"), name_of, "the attacker")
    if fact.get("target") is None:
        return f"    damage calculation: {attacker} (ATK {fact['attacker_atk']}) attacks directly"
    target = _by_id(fact.get("target"), name_of, "the attack target")
    if "target_def" in fact:
        vs = f"{target} (DEF {fact['target_def']}, Defense Position)"
    else:
        vs = f"{target} (ATK {fact.get('target_atk')})"
    return f"    damage calculation: {attacker} (ATK {fact['attacker_atk']}) vs {vs}"


@narrates(F.LifePoints)
def _lp(fact: WireFact, name_of: NameOf | None) -> str | None:
    d = int(fact.get("delta", 0))
    what = {"battle": "battle damage", "cost": "paid as a cost", "effect": "by an effect"}.get(
        fact.get("reason", ""), ""
    )
    return f"    {SEAT[fact['seat']]} LP {'+' if d > 0 else ''}{d} ({what}) -> {fact['lp']}"


@narrates(F.Destroyed)
def _destroyed(fact: WireFact, name_of: NameOf | None) -> str | None:
    how = {"battle": "by battle", "effect": "by an effect", "self": "by its own effect", "rule": "by the rules"}
    return f"    {_card(fact, name_of)} is destroyed {how.get(str(fact.get('reason')), '')}".rstrip()


@narrates(F.Moved)
def _moved_line(fact: WireFact, name_of: NameOf | None) -> str | None:
    return _moved(fact, _card(fact, name_of))


@narrates(F.PositionChanged)
def _position_changed(fact: WireFact, name_of: NameOf | None) -> str | None:
    pos = {"attack": "Attack Position", "defense": "Defense Position"}.get(
        str(fact.get("position")), fact.get("position")
    )
    face = "" if fact.get("face_up", True) else " face-down"
    return f"  {_card(fact, name_of)} changes to{face} {pos}"


@narrates(F.Flipped)
def _flipped(fact: WireFact, name_of: NameOf | None) -> str | None:
    return f"    {_card(fact, name_of)} is flipped face-up"


@narrates(F.Counters)
def _counters(fact: WireFact, name_of: NameOf | None) -> str | None:
    kind = str(fact.get("name", "")).replace("_", " ")
    return f"    {_by_id(fact.get('card'), name_of)} now has {fact.get('count')} {kind} counter(s)"


@narrates(F.Equipped)
def _equipped(fact: WireFact, name_of: NameOf | None) -> str | None:
    if fact.get("to") is None:
        return None
    return f"    {_by_id(fact.get('card'), name_of)} is equipped to {_by_id(fact.get('to'), name_of, 'a monster')}"


@narrates(F.DuelEnded)
def _duel_ended(fact: WireFact, name_of: NameOf | None) -> str | None:
    w = fact["winner"]
    who = "a draw" if w == "draw" else f"{SEAT[w]} wins"
    reason = END_REASONS.get(str(fact.get("reason")), str(fact.get("reason")))
    return f"=== Duel over: {who} ({reason}) ==="


def _moved(fact: WireFact, card: str) -> str | None:
    to, src, reason = fact.get("to"), fact.get("from"), fact.get("reason")
    if to in (Zone.GRAVEYARD, Zone.BANISHED):
        if reason in ("battle", "effect", "self"):
            return f"    {card} is banished" if to == Zone.BANISHED else None
        how = {
            "tribute": "is Tributed",
            "discard": "is discarded",
            "cost": "is sent as a cost",
            "detach": "is detached",
            "rule": "goes to the Graveyard",
        }
        verb = how.get(str(reason), f"goes to the {'Graveyard' if to == 'graveyard' else 'banishment'}")
        if to == Zone.BANISHED:
            verb += " (banished instead)"
        return f"    {card} {verb}"
    if to == Zone.HAND and src in (Zone.MONSTERS, Zone.SPELLS_TRAPS, Zone.FIELD, Zone.GRAVEYARD, Zone.BANISHED):
        return f"    {card} returns to the hand"
    if to == Zone.HAND and src == Zone.DECK:
        return f"    {card} is added from the Deck to the hand"
    if to == Zone.DECK:
        return f"    {card} goes back into the Deck"
    if to in (Zone.MONSTERS, Zone.SPELLS_TRAPS, Zone.FIELD) and reason == "control":
        return f"    control of {card} changes"
    if to == Zone.SPELLS_TRAPS and src == Zone.HAND and not fact.get("face_up", True):
        return "  a card is Set in the Spell & Trap Zone"
    return None
