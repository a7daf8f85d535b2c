"""``evolve``: how each fact changes the state.

Every change of the duel state goes through one of these small functions, so
folding the log always rebuilds exactly the live state (DESIGN invariant 1).
They trust the fact: deciding whether it was allowed is ``decide``'s job.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .state import (
    Attack,
    Card,
    Link,
    Modifier,
    Player,
    Resolving,
    State,
    Trigger,
    derive,
    write_card,
    write_player,
)
from .types import Fact

Handler = Callable[[State, Fact], None]
HANDLERS: dict[str, Handler] = {}


def handles(name: str) -> Callable[[Handler], Handler]:
    def register(fn: Handler) -> Handler:
        HANDLERS[name] = fn
        return fn

    return register


def apply(state: State, fact: Fact) -> None:
    """Apply one fact to ``state`` in place. A card ``state`` shares with other states is
    copied before it is written (``write_card``), so only ``state`` changes."""
    state._memo = None  # what was computed from the state before (engine.state, engine.view)
    HANDLERS[fact["t"]](state, fact)
    state.seq += 1
    state._memo = None


def evolve(state: State, fact: Fact) -> State:
    """Pure: the state after ``fact`` (it shares the cards the fact did not change)."""
    s = derive(state)
    apply(s, fact)
    return s


def fold(facts: list[Fact], state: State | None = None) -> State:
    """Pure: the state after ``facts``, from ``state`` (default: the empty state). The result
    shares the cards the facts did not change with ``state`` (copy-on-write, ADR 0006)."""
    s = State() if state is None else derive(state)
    for f in facts:
        apply(s, f)
    return s


def fold_into(state: State, facts: list[Fact]) -> State:
    """Apply ``facts`` to ``state`` itself and return it: the fastest way through a log entry
    by entry (replays, ``duel verify``) when the state before each entry is not kept. Other
    states that share cards with ``state`` do not change."""
    for f in facts:
        apply(state, f)
    return state


# ---------------------------------------------------------------- zones


def _remove_from_zone(s: State, c: Card) -> None:
    p = write_player(s, c.controller if c.on_field else c.owner)
    if c.zone == "monsters":
        p.monsters[c.slot] = None
    elif c.zone == "spells_traps":
        p.spells_traps[c.slot] = None
    elif c.zone == "field":
        p.field_zone = None
    elif c.zone == "xyz_material":
        for host in [h for h in s.cards.values() if c.id in h.materials]:
            write_card(s, host.id).materials.remove(c.id)
    else:
        lst: list[int] = getattr(p, c.zone)
        if c.id in lst:
            lst.remove(c.id)
    c.slot = -1


def place(s: State, c: Card, zone: str, slot: int = -1, top: bool = True) -> None:
    """Put a card (already removed from its old zone) into ``zone``."""
    c.zone = zone
    if zone in ("monsters", "spells_traps", "field"):
        p = write_player(s, c.controller)
        if zone == "monsters":
            if slot < 0:
                slot = p.monsters.index(None)
            p.monsters[slot] = c.id
        elif zone == "spells_traps":
            if slot < 0:
                slot = p.spells_traps.index(None)
            p.spells_traps[slot] = c.id
        else:
            p.field_zone = c.id
            slot = 0
        c.slot = slot
        return
    # leaving the field resets the card's on-field status
    c.controller = c.owner
    c.face_up = zone in ("graveyard", "banished")
    c.position = "attack"
    c.counters = {}
    c.equipped_to = None
    c.attacks = 0
    c.flags = {}
    lst: list[int] = getattr(write_player(s, c.owner), zone)
    if zone == "deck" and top:
        lst.insert(0, c.id)
    else:
        lst.append(c.id)


@handles("duel_started")
def _duel_started(s: State, f: Fact) -> None:
    s.started = True
    s.options = dict(f.get("options", {}))
    s.rng = int(f["rng"])
    s.players = [Player(), Player()]
    for seat, deck in enumerate(f["decks"]):
        s.players[seat].lp = int(f.get("lp", 8000))
        for cid, code in deck:
            s.cards[cid] = Card(id=cid, code=code, owner=seat, controller=seat, zone="deck")
            s.players[seat].deck.append(cid)
        for cid, code in f.get("extra", [[], []])[seat]:
            s.cards[cid] = Card(id=cid, code=code, owner=seat, controller=seat, zone="extra")
            s.players[seat].extra.append(cid)
    s.turn_player = int(f.get("first", 0))


@handles("shuffled")
def _shuffled(s: State, f: Fact) -> None:
    write_player(s, f["seat"]).deck = list(f["order"])
    if "rng" in f:
        s.rng = int(f["rng"])


@handles("rng")
def _rng(s: State, f: Fact) -> None:
    s.rng = int(f["rng"])


@handles("fixed_outcome")
def _fixed_outcome(s: State, f: Fact) -> None:
    """A die result or coin toss a scenario fixed in advance was used."""
    what = f["what"]
    s.options = {**s.options, what: list(s.options.get(what, []))[1:]}


@handles("drew")
def _drew(s: State, f: Fact) -> None:
    c = write_card(s, f["card"])
    _remove_from_zone(s, c)
    place(s, c, "hand")


@handles("moved")
def _moved(s: State, f: Fact) -> None:
    """A card changes zone. Keys: card, to, slot?, face_up?, position?, controller?, top?"""
    c = write_card(s, f["card"])
    _remove_from_zone(s, c)
    if "controller" in f:
        c.controller = f["controller"]
    to = f["to"]
    if to in ("monsters", "spells_traps", "field"):
        c.face_up = bool(f.get("face_up", True))
        c.position = f.get("position", "attack")
        if not c.face_up and to != "monsters":
            c.set_turn = s.turn
        if to == "monsters":
            c.position_turn = s.turn
            c.attacks = 0
            if not c.face_up:
                c.set_turn = s.turn
    place(s, c, to, int(f.get("slot", -1)), bool(f.get("top", True)))
    if to == "graveyard" and f.get("reason") == "battle":
        # destroyed by battle and sent to the Graveyard in this Battle Phase (Tualatin)
        c.flags["battle_sent"] = [s.turn, s.battle_phases]
    if to not in ("monsters", "spells_traps", "field"):
        # a card that leaves the field takes its lingering changes and equips with it
        s.modifiers = [
            m for m in s.modifiers if m.card != c.id and not (m.source == c.id and m.until == "while_face_up")
        ]
        for other in [o for o in s.cards.values() if o.equipped_to == c.id]:
            write_card(s, other.id).equipped_to = None


@handles("summoned")
def _summoned(s: State, f: Fact) -> None:
    c = write_card(s, f["card"])
    c.summoned_turn = s.turn
    c.position_turn = s.turn
    if f.get("kind") in ("normal", "tribute", "set"):
        write_player(s, c.controller).normal_summoned = True


@handles("position_changed")
def _position_changed(s: State, f: Fact) -> None:
    c = write_card(s, f["card"])
    c.position = f["position"]
    c.face_up = bool(f["face_up"])
    if f.get("by_player", True):
        c.position_turn = s.turn


@handles("turn")
def _turn(s: State, f: Fact) -> None:
    s.turn = int(f["turn"])
    s.turn_player = int(f["player"])
    s.battle_phases = 0
    s.extra_battle_phases = 0
    s.skip = []
    s.skipped_main1 = False
    s.intent = None
    for seat in (0, 1):
        if s.players[seat].normal_summoned:
            write_player(s, seat).normal_summoned = False
    _reset_attacks(s)


def _reset_attacks(s: State) -> None:
    """No card has attacked yet (writes only the cards that had)."""
    for cid in [k for k, c in s.cards.items() if c.attacks or "attacked_targets" in c.flags]:
        c = write_card(s, cid)
        c.attacks = 0
        c.flags.pop("attacked_targets", None)


@handles("phase")
def _phase(s: State, f: Fact) -> None:
    s.phase = f["phase"]
    s.step = f.get("step")
    s.damage_step = None
    s.intent = None
    s.event = None
    s.chains_in_timing = 0
    if s.phase == "battle" and s.step == "start":
        s.battle_phases += 1
        s.start_step_monsters = [[m for m in s.players[sd].monsters if m is not None] for sd in (0, 1)]
        _reset_attacks(s)
    if s.phase != "battle":
        s.attack = None
        # "until the end of the Battle Phase" (Dark Diviner): gone once the Battle Phase is left
        s.modifiers = [m for m in s.modifiers if m.until != "end_of_battle_phase"]


@handles("skip_phase")
def _skip_phase(s: State, f: Fact) -> None:
    if f["phase"] not in s.skip:
        s.skip.append(f["phase"])
    if f["phase"] == "main1" and f.get("now"):
        s.skipped_main1 = True


@handles("extra_battle_phase")
def _extra_bp(s: State, f: Fact) -> None:
    s.extra_battle_phases += int(f.get("count", 1))


@handles("damage_step")
def _damage_step(s: State, f: Fact) -> None:
    s.step = "damage"
    s.damage_step = f["timing"]
    s.chains_in_timing = 0
    s.event = None


@handles("priority")
def _priority(s: State, f: Fact) -> None:
    s.priority = int(f["seat"])
    s.passes = int(f.get("passes", 0))
    if "intent" in f:
        s.intent = f["intent"]


@handles("passed")
def _passed(s: State, f: Fact) -> None:
    s.passes += 1
    s.priority = 1 - int(f["seat"])
    if "intent" in f:
        s.intent = f["intent"]


@handles("event")
def _event(s: State, f: Fact) -> None:
    ev = f.get("event")
    s.event = dict(ev) if ev else None


@handles("activated")
def _activated(s: State, f: Fact) -> None:
    c = s.cards[f["card"]]
    if c.zone in ("spells_traps", "field") and not c.face_up:
        write_card(s, c.id).face_up = True
    s.chain.append(
        Link(
            card=c.id,
            effect=int(f.get("effect", 1)),
            controller=int(f["seat"]),
            targets=list(f.get("targets", [])),
            data=dict(f.get("data", {})),
            trigger=bool(f.get("trigger", False)),
        )
    )
    s.passes = 0
    s.priority = 1 - int(f["seat"])
    key = f.get("once")
    if key:
        s.used[key] = s.turn


@handles("negated")
def _negated(s: State, f: Fact) -> None:
    link = s.chain[int(f["link"]) - 1]
    if f.get("what") == "effect":
        link.effect_negated = True
    else:
        link.negated = True


@handles("chain_resolving")
def _chain_resolving(s: State, f: Fact) -> None:
    s.resolving = Resolving(was=[list(x) for x in f["was"]])


@handles("link_resolving")
def _link_resolving(s: State, f: Fact) -> None:
    if s.resolving is not None:
        s.resolving.started = int(f["link"])


@handles("link_resolved")
def _link_resolved(s: State, f: Fact) -> None:
    s.chain.pop()
    if s.resolving is not None:
        s.resolving.started = 0


@handles("chain_resolved")
def _chain_resolved(s: State, f: Fact) -> None:
    s.chain = []
    s.resolving = None
    s.chains_in_timing += 1
    s.chain_no += 1
    s.event = None
    if s.attack is not None and s.step == "battle":
        s.attack.responded = True


@handles("lp")
def _lp(s: State, f: Fact) -> None:
    write_player(s, f["seat"]).lp = max(0, int(f["lp"]))
    if s.attack is not None and f.get("reason") == "battle":
        s.attack.damage[f["seat"]] += -int(f.get("delta", 0))


@handles("attack_declared")
def _attack_declared(s: State, f: Fact) -> None:
    a = write_card(s, f["attacker"])
    a.attacks += 1
    a.attacked_turn = s.turn
    a.flags["battled"] = [s.turn, s.battle_phases]
    a.flags.setdefault("attacked_targets", [])
    if f.get("target") is not None:
        a.flags["attacked_targets"] = [*a.flags["attacked_targets"], f["target"]]
        write_card(s, f["target"]).flags["battled"] = [s.turn, s.battle_phases]
    s.attack = Attack(attacker=a.id, target=f.get("target"), snapshot=list(f.get("snapshot", [])))
    s.event = {"kind": "attack_declared", "attacker": a.id, "target": f.get("target")}


@handles("attack_replay")
def _attack_replay(s: State, f: Fact) -> None:
    if s.attack is not None:
        s.attack.replay = True


@handles("attack_retargeted")
def _attack_retargeted(s: State, f: Fact) -> None:
    if s.attack is not None:
        s.attack.target = f.get("target")
        s.attack.snapshot = list(f.get("snapshot", []))
        if f.get("target") is not None:
            write_card(s, f["target"]).flags["battled"] = [s.turn, s.battle_phases]
            atk_card = write_card(s, s.attack.attacker)
            atk_card.flags["attacked_targets"] = [*atk_card.flags.get("attacked_targets", []), f["target"]]
        s.attack.replay = False
        s.attack.responded = True


@handles("attack_ended")
def _attack_ended(s: State, f: Fact) -> None:
    """The attack is over: cancelled, negated, or its Damage Step finished."""
    s.attack = None
    s.event = None
    s.damage_step = None
    s.modifiers = [m for m in s.modifiers if m.until not in ("damage_calculation", "end_of_damage_step")]
    if s.phase == "battle":
        s.step = "battle"


@handles("flipped")
def _flipped(s: State, f: Fact) -> None:
    c = write_card(s, f["card"])
    c.face_up = True
    if c.zone == "monsters" and f.get("position"):
        c.position = f["position"]
    if s.attack is not None and f.get("by_attack"):
        s.attack.flipped = c.id


@handles("battle")
def _battle(s: State, f: Fact) -> None:
    if s.attack is not None:
        s.attack.calculated = True
        s.attack.destroyed = list(f.get("destroyed", []))


@handles("battle_stopped")
def _battle_stopped(s: State, f: Fact) -> None:
    if s.attack is not None:
        s.attack.stopped = True


@handles("modifier")
def _modifier(s: State, f: Fact) -> None:
    s.modifiers.append(
        Modifier(
            card=f["card"],
            stat=f.get("stat", "atk"),
            op=f.get("op", "add"),
            value=int(f.get("value", 0)),
            until=f.get("until", "permanent"),
            source=int(f.get("source", 0)),
            turn=s.turn,
        )
    )


@handles("modifiers_expired")
def _modifiers_expired(s: State, f: Fact) -> None:
    untils = set(f["until"])
    s.modifiers = [m for m in s.modifiers if m.until not in untils]


@handles("counters")
def _counters(s: State, f: Fact) -> None:
    c = write_card(s, f["card"])
    n = int(f["count"])
    if n <= 0:
        c.counters.pop(f["name"], None)
    else:
        c.counters[f["name"]] = n


@handles("equipped")
def _equipped(s: State, f: Fact) -> None:
    write_card(s, f["card"]).equipped_to = f.get("to")


@handles("flag")
def _flag(s: State, f: Fact) -> None:
    c = write_card(s, f["card"])
    if f.get("value") is None:
        c.flags.pop(f["name"], None)
    else:
        c.flags[f["name"]] = f["value"]


@handles("used")
def _used(s: State, f: Fact) -> None:
    s.used[f["key"]] = s.turn


@handles("triggered")
def _triggered(s: State, f: Fact) -> None:
    s.triggers.append(
        Trigger(
            card=f["card"],
            effect=int(f.get("effect", 1)),
            controller=int(f["seat"]),
            event=dict(f.get("event", {})),
            mandatory=bool(f.get("mandatory", True)),
        )
    )


@handles("trigger_done")
def _trigger_done(s: State, f: Fact) -> None:
    idx = int(f["index"])
    if 0 <= idx < len(s.triggers):
        s.triggers.pop(idx)


@handles("choice")
def _choice(s: State, f: Fact) -> None:
    ch: dict[str, Any] | None = f.get("choice")
    s.choice = dict(ch) if ch else None


@handles("duel_ended")
def _duel_ended(s: State, f: Fact) -> None:
    s.winner = f["winner"]
    s.end_reason = f.get("reason")
    s.choice = None


@handles("note")
def _note(s: State, f: Fact) -> None:
    """A fact for the record only (a negated effect, a resolution without effect)."""


def apply_facts(state: State, facts: list[Fact]) -> State:
    """Pure: the state after a whole entry's facts (``fold``)."""
    s = derive(state)
    for f in facts:
        apply(s, f)
    return s


@handles("destroyed")
def _destroyed(s: State, f: Fact) -> None:
    """Destruction itself; the move to the Graveyard is its own fact."""
    if s.resolving is not None:
        s.resolving.destroyed.append(int(f["card"]))


@handles("setup")
def _setup(s: State, f: Fact) -> None:
    """A position set up directly (scenario files and puzzles): cards, LP, turn, phase."""
    s.started = True
    s.options = dict(f.get("options", {}))
    s.rng = int(f.get("rng", 0))
    s.players = [Player(), Player()]
    s.cards = {}
    s.turn = int(f["turn"])
    s.turn_player = int(f["turn_player"])
    for seat in (0, 1):
        s.players[seat].lp = int(f["lp"][seat])
    for e in f["cards"]:
        c = Card(id=int(e["id"]), code=int(e["code"]), owner=int(e["owner"]), controller=int(e["controller"]))
        c.face_up = bool(e.get("face_up", False))
        c.position = e.get("position", "attack")
        c.set_turn = int(e.get("set_turn", 0))
        c.summoned_turn = int(e.get("summoned_turn", 0))
        c.position_turn = int(e.get("position_turn", 0))
        c.attacks = int(e.get("attacks", 0))
        c.attacked_turn = int(e.get("attacked_turn", 0))
        c.counters = dict(e.get("counters", {}))
        c.equipped_to = e.get("equipped_to")
        c.materials = list(e.get("materials", []))
        c.flags = dict(e.get("flags", {}))
        s.cards[c.id] = c
        if e["zone"] == "xyz_material":
            c.zone = "xyz_material"
            continue
        zone = e["zone"]
        if zone in ("monsters", "spells_traps", "field"):
            c.zone = zone
            p = s.players[c.controller]
            slot = int(e.get("slot", -1))
            if zone == "monsters":
                slot = slot if slot >= 0 else p.monsters.index(None)
                p.monsters[slot] = c.id
            elif zone == "spells_traps":
                slot = slot if slot >= 0 else p.spells_traps.index(None)
                p.spells_traps[slot] = c.id
            else:
                p.field_zone = c.id
                slot = 0
            c.slot = slot
        else:
            c.zone = zone
            lst: list[int] = getattr(s.players[c.owner], zone)
            lst.append(c.id)
    s.phase = f["phase"]
    s.step = f.get("step")
    s.battle_phases = int(f.get("battle_phases", 0))
    s.extra_battle_phases = int(f.get("extra_battle_phases", 0))
    s.used = dict(f.get("used", {}))
    for seat, done in enumerate(f.get("normal_summoned", [False, False])):
        s.players[seat].normal_summoned = bool(done)
    s.start_step_monsters = [list(x) for x in f.get("start_step_monsters", [[], []])]
    s.priority = s.turn_player
    s.passes = 0


@handles("delayed")
def _delayed(s: State, f: Fact) -> None:
    """An effect that applies in a player's next turn (skip a phase, extra Battle Phases)."""
    s.next_turn.append({"seat": int(f["seat"]), **dict(f["effect"])})


@handles("delayed_done")
def _delayed_done(s: State, f: Fact) -> None:
    idx = int(f["index"])
    if 0 <= idx < len(s.next_turn):
        s.next_turn.pop(idx)
