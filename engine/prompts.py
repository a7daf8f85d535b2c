"""What the deciding player is asked, in plain words ("Respond to the attack declaration, or
pass"): the ``prompt`` of ``pending``. Only the seat that decides reads it (the others are
told whom they wait for), so it may name the cards involved."""

from __future__ import annotations

from typing import Final

from .cards import CARDS
from .describe import phase_text
from .state import State
from .types import MAIN_PHASES, ChoiceKind, EventKind, Phase, Step

EVENTS: Final = {
    "attack_declared": "the attack declaration",
    "summoned": "the summon",
    EventKind.SUMMONING: "the monster about to be Summoned (only a card that negates a Summon)",
    EventKind.LEFT_FIELD: "the monster(s) leaving the field",
}


def _name(s: State, cid: object) -> str:
    if isinstance(cid, int) and cid in s.cards and s.cards[cid].code in CARDS:
        return f'"{s.cards[cid].data.name}"'
    return "a card"


def _choice_prompt(s: State) -> str:
    ch = s.choice
    assert ch is not None
    kind = ch["kind"]
    if kind == ChoiceKind.REPLAY:
        return "Replay: choose a new attack target, attack directly, or cancel the attack"
    if kind == ChoiceKind.TRIGGER:
        card = _name(s, ch.get("card"))
        if len(ch.get("indices", [])) > 1:
            return "Several of your effects trigger at once: choose which goes on the chain first"
        if ch.get("mandatory"):
            return f"{card}'s effect must be activated: choose how"
        return f"Activate {card}'s effect?"
    if kind == ChoiceKind.DISCARD:
        return f"Discard {ch['count']} card(s): your hand is over the limit of 6"
    if kind == ChoiceKind.AHEAD:
        return "Battle damage was dealt: activate a card now, before the effects it triggers, or pass"
    if kind == ChoiceKind.CARDS:
        n = int(ch.get("count", 1))
        source = _name(s, ch.get("source"))
        upto = "up to " if int(ch.get("min", n)) < n else ""
        return f"{source}: choose {upto}{n} card(s)"
    if kind == ChoiceKind.OPTIONS:
        return f"{_name(s, ch.get('source'))}: choose one: {', '.join(str(o) for o in ch.get('options', []))}"
    return "Make a choice"


def prompt_for(s: State) -> str:
    """The question the player who must decide now is asked."""
    if s.choice is not None:
        return _choice_prompt(s)
    where = phase_text(s.phase, s.step, s.damage_step)
    mine = s.priority == s.turn_player
    if s.chain:
        top = s.chain[-1]
        return f"{where}: respond to chain link {len(s.chain)} ({_name(s, top.card)}), or pass to let the chain resolve"
    if s.event is not None and not s.event.get("soft"):
        what = EVENTS.get(str(s.event.get("kind")), "what just happened")
        return f"{where}: respond to {what}, or pass"
    if s.step == Step.DAMAGE:
        return f"{where}: activate a card that may be used now, or pass"
    if s.phase == Phase.BATTLE and s.step == Step.BATTLE and s.attack is None:
        if mine:
            return f"{where}: declare an attack, activate a card, or end the Battle Phase"
        return f"{where}: activate a card, or pass"
    if s.phase == Phase.BATTLE and s.step in (Step.START, Step.END):
        then = "go to the Battle Step" if s.step == Step.START else "leave the Battle Phase"
        return f"{where}: activate a card, or pass to {then}"
    if s.phase in MAIN_PHASES and mine:
        return f"{where}: summon, Set or activate a card, or move on"
    if mine:
        return f"{where}: activate a card, or move on"
    return f"{where}: activate a card, or pass"
