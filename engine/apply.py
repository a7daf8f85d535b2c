"""``evolve``: how each fact changes the state.

Every change of the duel state goes through one of these small functions, so
folding the log always rebuilds exactly the live state (DESIGN invariant 1).
They trust the fact: deciding whether it was allowed is ``decide``'s job.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final, TypeVar

from . import facts as F
from .facts import ABSENT, Fact
from .formats import rules_of
from .kernel.cow import add_card, derive, new_cards, own_cards, write_card, write_player
from .kernel.interning import shared_code, shared_int
from .kernel.memo import cards_made, forget
from .state import NO_COUNTERS, NO_FLAGS, NO_MATERIALS, Attack, Card, Link, Modifier, Player, Resolving, State, Trigger
from .types import CardFlag, Phase, Position, Step, Timing, Zone

# the fact's string (a log's, or already the member) -> the member the state holds
ZONE_OF: Final = {z.value: z for z in Zone}
POSITION_OF: Final = {p.value: p for p in Position}
PHASE_OF: Final = {p.value: p for p in Phase}
STEP_OF: Final = {st.value: st for st in Step}
TIMING_OF: Final = {t.value: t for t in Timing}

FactT = TypeVar("FactT", bound=Fact)
V = TypeVar("V")
HANDLERS: Final[dict[type[Fact], Callable[[State, Any], None]]] = {}
"""How each fact class changes the state (``tests/engine/test_facts.py``: every class has one)."""


def handles(cls: type[FactT]) -> Callable[[Callable[[State, FactT], None]], Callable[[State, FactT], None]]:
    def register(fn: Callable[[State, FactT], None]) -> Callable[[State, FactT], None]:
        if cls in HANDLERS:
            raise ValueError(f"two handlers for {cls.__name__}")
        HANDLERS[cls] = fn
        return fn

    return register


def apply(state: State, fact: Fact) -> None:
    """Apply one fact to ``state`` in place. A card ``state`` shares with other states is
    copied before it is written (``write_card``), so only ``state`` changes."""
    forget(state)  # what was worked out from the state before
    HANDLERS[fact.__class__](state, fact)
    state.seq += 1
    forget(state)


def evolve(state: State, fact: Fact) -> State:
    """Pure: the state after ``fact`` (it shares the cards the fact did not change)."""
    s = derive(state)
    apply(s, fact)
    return s


def fold(facts: list[Fact], state: State | None = None) -> State:
    """Pure: the state after ``facts``, from ``state`` (default: the empty state). The result
    shares the cards the facts did not change with ``state`` (copy-on-write, ADR 0006)."""
    return fold_into(State() if state is None else derive(state), facts)


def fold_into(state: State, facts: list[Fact]) -> State:
    """Apply ``facts`` to ``state`` itself and return it: the fastest way through a log entry
    by entry (replays, ``duel verify``) when the state before each entry is not kept. Other
    states that share cards with ``state`` do not change. Exactly ``apply`` of each fact in
    turn, written out: a stored log is mostly this loop (the call per fact was a tenth of it)."""
    handlers = HANDLERS
    for f in facts:
        forget(state)
        handlers[f.__class__](state, f)
    state.seq += len(facts)  # no handler reads it (a rule reads it while deciding: ``apply``)
    forget(state)
    return state


# ---------------------------------------------------------------- zones


def _remove_from_zone(s: State, c: Card) -> None:
    p = write_player(s, c.controller if c.on_field else c.owner)
    if c.zone == Zone.MONSTERS:
        if p.monsters[c.slot] == c.id:  # a swap of control put the other monster there first
            p.monsters[c.slot] = None
    elif c.zone == Zone.SPELLS_TRAPS:
        p.spells_traps[c.slot] = None
    elif c.zone == Zone.FIELD:
        p.field_zone = None
    elif c.zone == Zone.XYZ_MATERIAL:
        for host in [h for h in s.cards.values() if c.id in h.materials]:
            h = write_card(s, host.id)
            h.materials = [m for m in h.materials if m != c.id]
    else:
        lst: list[int] = getattr(p, c.zone)
        if c.id in lst:
            lst.remove(c.id)
    c.slot = -1


def place(s: State, c: Card, zone: str, slot: int = -1, top: bool = True) -> None:
    """Put a card (already removed from its old zone) into ``zone``."""
    c.zone = ZONE_OF[zone]
    if zone in (Zone.MONSTERS, Zone.SPELLS_TRAPS, Zone.FIELD):
        p = write_player(s, c.controller)
        if zone == Zone.MONSTERS:
            if slot < 0:
                slot = p.monsters.index(None)
            p.monsters[slot] = c.id
        elif zone == Zone.SPELLS_TRAPS:
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
    c.face_up = zone in (Zone.GRAVEYARD, Zone.BANISHED)
    c.position = Position.ATTACK
    c.counters = NO_COUNTERS
    c.equipped_to = None
    c.attacks = 0
    c.flags = NO_FLAGS
    lst: list[int] = getattr(write_player(s, c.owner), zone)
    if zone == Zone.DECK and top:
        lst.insert(0, c.id)
    else:
        lst.append(c.id)


@handles(F.DuelStarted)
def _duel_started(s: State, f: F.DuelStarted) -> None:
    s.started = True
    cards_made(s)
    s.options = dict(f.options)
    s.rng = int(f.rng)
    s.players = [Player(), Player()]
    cards = own_cards(s)
    for seat, deck in enumerate(f.decks):
        s.players[seat].lp = int(f.lp)
        for cid, code in deck:
            cards[shared_int(cid)] = Card(id=cid, code=shared_code(code), owner=seat, controller=seat, zone=Zone.DECK)
            s.players[seat].deck.append(shared_int(cid))
        for cid, code in f.extra[seat]:
            card = Card(id=cid, code=shared_code(code), owner=seat, controller=seat, zone=Zone.EXTRA)
            cards[shared_int(cid)] = card
            s.players[seat].extra.append(shared_int(cid))
    s.turn_player = int(f.first)


@handles(F.Shuffled)
def _shuffled(s: State, f: F.Shuffled) -> None:
    write_player(s, f.seat).deck = list(f.order)
    s.rng = int(f.rng)


@handles(F.Rng)
def _rng(s: State, f: F.Rng) -> None:
    s.rng = int(f.rng)


@handles(F.FixedOutcome)
def _fixed_outcome(s: State, f: F.FixedOutcome) -> None:
    """A die result or coin toss a scenario fixed in advance was used."""
    what = f.what
    s.options = {**s.options, what: list(s.options.get(what, []))[1:]}


@handles(F.Drew)
def _drew(s: State, f: F.Drew) -> None:
    c = write_card(s, f.card)
    _remove_from_zone(s, c)
    place(s, c, "hand")


@handles(F.Moved)
def _moved(s: State, f: F.Moved) -> None:
    """A card changes zone."""
    c = write_card(s, f.card)
    _remove_from_zone(s, c)
    if f.controller is not ABSENT:
        c.controller = f.controller
    to = f.to
    if to in (Zone.MONSTERS, Zone.SPELLS_TRAPS, Zone.FIELD):
        c.face_up = f.face_up is not False
        c.position = Position.ATTACK if f.position is ABSENT else POSITION_OF[f.position]
        if not c.face_up and to != Zone.MONSTERS:
            c.set_turn = s.turn
        if to == Zone.MONSTERS:
            c.position_turn = s.turn
            c.attacks = 0
            if not c.face_up:
                c.set_turn = s.turn
    place(s, c, to, -1 if f.slot is ABSENT else int(f.slot), f.top is not False)
    if to == Zone.GRAVEYARD and f.reason == "battle":
        # destroyed by battle and sent to the Graveyard in this Battle Phase (Tualatin)
        c.flags = {**c.flags, CardFlag.BATTLE_SENT: [s.turn, s.battle_phases]}
    if to not in (Zone.MONSTERS, Zone.SPELLS_TRAPS, Zone.FIELD):
        # a card that leaves the field takes its lingering changes and equips with it
        s.modifiers = [
            m for m in s.modifiers if m.card != c.id and not (m.source == c.id and m.until == "while_face_up")
        ]
        for other in s.equips_of(c):
            write_card(s, other.id).equipped_to = None


@handles(F.Summoned)
def _summoned(s: State, f: F.Summoned) -> None:
    c = write_card(s, f.card)
    c.summoned_turn = s.turn
    c.position_turn = s.turn
    if f.kind in ("normal", "tribute", "set"):
        write_player(s, c.controller).normal_summoned = True


@handles(F.TokenMade)
def _token_made(s: State, f: F.TokenMade) -> None:
    """A Token is made on the field: a new card of the duel (``ops.make_token``)."""
    seat = int(f.seat)
    c = Card(id=f.card, code=shared_code(f.code), owner=seat, controller=seat, zone=Zone.DECK)
    add_card(s, c)
    cards_made(s)
    c.face_up = True
    c.position = POSITION_OF[f.position]
    c.summoned_turn = s.turn
    c.position_turn = s.turn
    place(s, c, "monsters", -1 if f.slot is ABSENT else int(f.slot))


@handles(F.TokenGone)
def _token_gone(s: State, f: F.TokenGone) -> None:
    """A Token that left the field ceases to exist: it is in no zone any more."""
    c = write_card(s, f.card)
    _remove_from_zone(s, c)
    c.zone = Zone.GONE


@handles(F.PositionChanged)
def _position_changed(s: State, f: F.PositionChanged) -> None:
    c = write_card(s, f.card)
    c.position = POSITION_OF[f.position]
    c.face_up = bool(f.face_up)
    if f.by_player is not False or rules_of(s).effect_position_change_counts:
        # an effect's change is not the player's once-per-turn change (ruling FMT-3)
        c.position_turn = s.turn


@handles(F.Turn)
def _turn(s: State, f: F.Turn) -> None:
    s.turn = int(f.turn)
    s.turn_player = int(f.player)
    s.battle_phases = 0
    s.extra_battle_phases = 0
    s.skip = []
    s.skipped_main1 = False
    s.intent = None
    for seat in (0, 1):
        if s.players[seat].normal_summoned:
            write_player(s, seat).normal_summoned = False
    _reset_attacks(s)


def _without(m: Mapping[str, V], key: str) -> Mapping[str, V]:
    """``m`` less ``key`` (a card's counters and flags are replaced, never changed in place)."""
    if key not in m:
        return m
    out = dict(m)
    del out[key]
    return out


def _set_flag(c: Card, name: str, value: Any) -> None:
    c.flags = {**c.flags, name: value}


def _reset_attacks(s: State) -> None:
    """No card has attacked yet (writes only the cards that had). Only cards on the field
    can have attacked: leaving it resets a card's attacks and flags (``place``), so the
    field's at most 22 cards are looked at, not the duel's 80 (a fifth of folding a log)."""
    flag = CardFlag.ATTACKED_TARGETS
    for cid in [c.id for c in s.field_cards() if c.attacks or flag in c.flags]:
        c = write_card(s, cid)
        c.attacks = 0
        c.flags = _without(c.flags, flag)


@handles(F.PhaseBegan)
def _phase(s: State, f: F.PhaseBegan) -> None:
    s.phase = PHASE_OF[f.phase]
    s.step = None if f.step is ABSENT else STEP_OF[f.step]
    s.damage_step = None
    s.intent = None
    s.event = None
    s.chains_in_timing = 0
    if s.phase == Phase.BATTLE and s.step == Step.START:
        s.battle_phases += 1
        s.start_step_monsters = [[m for m in s.players[sd].monsters if m is not None] for sd in (0, 1)]
        _reset_attacks(s)
    if s.phase != Phase.BATTLE:
        s.attack = None
        # "until the end of the Battle Phase" (Dark Diviner): gone once the Battle Phase is left
        s.modifiers = [m for m in s.modifiers if m.until != "end_of_battle_phase"]


@handles(F.SkipPhase)
def _skip_phase(s: State, f: F.SkipPhase) -> None:
    if f.phase not in s.skip:
        s.skip.append(f.phase)
    if f.phase == Phase.MAIN1 and f.now:
        s.skipped_main1 = True


@handles(F.ExtraBattlePhase)
def _extra_bp(s: State, f: F.ExtraBattlePhase) -> None:
    s.extra_battle_phases += int(f.count)


@handles(F.DamageStep)
def _damage_step(s: State, f: F.DamageStep) -> None:
    s.step = Step.DAMAGE
    s.damage_step = TIMING_OF[f.timing]
    s.chains_in_timing = 0
    s.event = None


@handles(F.Priority)
def _priority(s: State, f: F.Priority) -> None:
    s.priority = int(f.seat)
    s.passes = int(f.passes)
    if f.intent is not ABSENT:
        s.intent = f.intent


@handles(F.Passed)
def _passed(s: State, f: F.Passed) -> None:
    s.passes += 1
    s.priority = 1 - int(f.seat)
    if f.intent is not ABSENT:
        s.intent = f.intent


@handles(F.Event)
def _event(s: State, f: F.Event) -> None:
    s.event = f.event.copy() if f.event else None


@handles(F.Activated)
def _activated(s: State, f: F.Activated) -> None:
    c = s.cards[f.card]
    if c.zone in (Zone.SPELLS_TRAPS, Zone.FIELD) and not c.face_up:
        write_card(s, c.id).face_up = True
    s.chain.append(
        Link(
            card=c.id,
            effect=int(f.effect),
            controller=int(f.seat),
            targets=list(f.targets),
            data=dict(f.data),
            trigger=bool(f.trigger),
        )
    )
    s.passes = 0
    s.priority = 1 - int(f.seat)
    if f.once is not ABSENT and f.once:
        s.used[f.once] = s.turn


@handles(F.Negated)
def _negated(s: State, f: F.Negated) -> None:
    if f.what == "summon":
        return  # a Summon negated (``ops.negate_summon``): no chain link; the monster is destroyed next
    link = s.chain[int(f.link) - 1]
    if f.what == "effect":
        link.effect_negated = True
    else:
        link.negated = True


@handles(F.ChainResolving)
def _chain_resolving(s: State, f: F.ChainResolving) -> None:
    s.resolving = Resolving(was=[list(x) for x in f.was])


@handles(F.LinkResolving)
def _link_resolving(s: State, f: F.LinkResolving) -> None:
    if s.resolving is not None:
        s.resolving.started = int(f.link)


@handles(F.LinkResolved)
def _link_resolved(s: State, f: F.LinkResolved) -> None:
    s.chain.pop()
    if s.resolving is not None:
        s.resolving.started = 0


@handles(F.ChainResolved)
def _chain_resolved(s: State, f: F.ChainResolved) -> None:
    s.chain = []
    s.resolving = None
    s.chains_in_timing += 1
    s.chain_no += 1
    s.event = None
    if s.attack is not None and s.step == Step.BATTLE:
        s.attack.responded = True


@handles(F.LifePoints)
def _lp(s: State, f: F.LifePoints) -> None:
    write_player(s, f.seat).lp = max(0, int(f.lp))
    if s.attack is not None and f.reason == "battle":
        s.attack.damage[f.seat] += -int(f.delta)


@handles(F.AttackDeclared)
def _attack_declared(s: State, f: F.AttackDeclared) -> None:
    a = write_card(s, f.attacker)
    a.attacks += 1
    a.attacked_turn = s.turn
    targets = a.flags.get(CardFlag.ATTACKED_TARGETS, [])
    if f.target is not None:
        targets = [*targets, f.target]
        _set_flag(write_card(s, f.target), CardFlag.BATTLED, [s.turn, s.battle_phases])
    a.flags = {**a.flags, CardFlag.BATTLED: [s.turn, s.battle_phases], CardFlag.ATTACKED_TARGETS: targets}
    s.attack = Attack(attacker=a.id, target=f.target, snapshot=list(f.snapshot))
    s.event = {"kind": "attack_declared", "attacker": a.id, "target": f.target}


@handles(F.AttackReplay)
def _attack_replay(s: State, f: F.AttackReplay) -> None:
    if s.attack is not None:
        s.attack.replay = True


@handles(F.AttackRetargeted)
def _attack_retargeted(s: State, f: F.AttackRetargeted) -> None:
    if s.attack is not None:
        s.attack.target = f.target
        s.attack.snapshot = list(f.snapshot)
        if f.target is not None:
            _set_flag(write_card(s, f.target), CardFlag.BATTLED, [s.turn, s.battle_phases])
            atk_card = write_card(s, s.attack.attacker)
            targets = [*atk_card.flags.get(CardFlag.ATTACKED_TARGETS, []), f.target]
            _set_flag(atk_card, CardFlag.ATTACKED_TARGETS, targets)
        s.attack.replay = False
        s.attack.responded = True


@handles(F.AttackEnded)
def _attack_ended(s: State, f: F.AttackEnded) -> None:
    """The attack is over: cancelled, negated, or its Damage Step finished."""
    s.attack = None
    s.event = None
    s.damage_step = None
    s.modifiers = [m for m in s.modifiers if m.until not in ("damage_calculation", "end_of_damage_step")]
    if s.phase == Phase.BATTLE:
        s.step = Step.BATTLE


@handles(F.Flipped)
def _flipped(s: State, f: F.Flipped) -> None:
    c = write_card(s, f.card)
    c.face_up = True
    if c.zone == Zone.MONSTERS and f.position:
        c.position = POSITION_OF[f.position]
    if s.attack is not None and f.by_attack:
        s.attack.flipped = c.id


@handles(F.Battle)
def _battle(s: State, f: F.Battle) -> None:
    if s.attack is not None:
        s.attack.calculated = True
        s.attack.destroyed = list(f.destroyed)


@handles(F.BattleStopped)
def _battle_stopped(s: State, f: F.BattleStopped) -> None:
    if s.attack is not None:
        s.attack.stopped = True


@handles(F.Modifier)
def _modifier(s: State, f: F.Modifier) -> None:
    s.modifiers.append(
        Modifier(
            card=f.card,
            stat=f.stat,
            op=f.op,
            value=int(f.value),
            until=f.until,
            source=int(f.source),
            turn=s.turn,
        )
    )


@handles(F.ModifiersExpired)
def _modifiers_expired(s: State, f: F.ModifiersExpired) -> None:
    untils = set(f.until)
    s.modifiers = [m for m in s.modifiers if m.until not in untils]


@handles(F.Counters)
def _counters(s: State, f: F.Counters) -> None:
    c = write_card(s, f.card)
    n = int(f.count)
    c.counters = _without(c.counters, f.name) if n <= 0 else {**c.counters, f.name: n}


@handles(F.Equipped)
def _equipped(s: State, f: F.Equipped) -> None:
    write_card(s, f.card).equipped_to = f.to


@handles(F.Flag)
def _flag(s: State, f: F.Flag) -> None:
    c = write_card(s, f.card)
    if f.value is None:
        c.flags = _without(c.flags, f.name)
    else:
        _set_flag(c, f.name, f.value)


@handles(F.Used)
def _used(s: State, f: F.Used) -> None:
    s.used[f.key] = s.turn


@handles(F.Targeted)
def _targeted(s: State, f: F.Targeted) -> None:
    link = s.chain[int(f.link) - 1]
    link.targets = [*link.targets, int(f.card)]


@handles(F.Triggered)
def _triggered(s: State, f: F.Triggered) -> None:
    s.triggers.append(
        Trigger(
            card=f.card,
            effect=int(f.effect),
            controller=int(f.seat),
            event=f.event.copy(),
            mandatory=bool(f.mandatory),
        )
    )


@handles(F.TriggerDone)
def _trigger_done(s: State, f: F.TriggerDone) -> None:
    idx = int(f.index)
    if 0 <= idx < len(s.triggers):
        s.triggers.pop(idx)


@handles(F.Choice)
def _choice(s: State, f: F.Choice) -> None:
    s.choice = f.choice.copy() if f.choice else None


@handles(F.DuelEnded)
def _duel_ended(s: State, f: F.DuelEnded) -> None:
    s.winner = f.winner
    s.end_reason = f.reason
    s.choice = None


@handles(F.Note)
def _note(s: State, f: F.Note) -> None:
    """A fact for the record only (a negated effect, a resolution without effect)."""


@handles(F.Revealed)
def _revealed(s: State, f: F.Revealed) -> None:
    """Cards shown to a player: the state does not change (the viewers' facts say who saw them)."""


def apply_facts(state: State, facts: list[Fact]) -> State:
    """Pure: the state after a whole entry's facts (``fold``)."""
    s = derive(state)
    for f in facts:
        apply(s, f)
    return s


@handles(F.Destroyed)
def _destroyed(s: State, f: F.Destroyed) -> None:
    """Destruction itself; the move to the Graveyard is its own fact."""
    if s.resolving is not None:
        s.resolving.destroyed.append(int(f.card))


@handles(F.Setup)
def _setup(s: State, f: F.Setup) -> None:
    """A position set up directly (scenario files and puzzles): cards, LP, turn, phase."""
    s.started = True
    s.options = dict(f.options)
    s.rng = int(f.rng)
    s.players = [Player(), Player()]
    new_cards(s)
    cards_made(s)
    s.turn = int(f.turn)
    s.turn_player = int(f.turn_player)
    for seat in (0, 1):
        s.players[seat].lp = int(f.lp[seat])
    for e in f.cards:
        code = shared_code(int(e["code"]))
        c = Card(id=int(e["id"]), code=code, owner=int(e["owner"]), controller=int(e["controller"]))
        c.face_up = bool(e.get("face_up", False))
        c.position = POSITION_OF[e.get("position", "attack")]
        c.set_turn = int(e.get("set_turn", 0))
        c.summoned_turn = int(e.get("summoned_turn", 0))
        c.position_turn = int(e.get("position_turn", 0))
        c.attacks = int(e.get("attacks", 0))
        c.attacked_turn = int(e.get("attacked_turn", 0))
        c.counters = dict(e["counters"]) if e.get("counters") else NO_COUNTERS
        c.equipped_to = e.get("equipped_to")
        c.materials = list(e["materials"]) if e.get("materials") else NO_MATERIALS
        c.flags = dict(e["flags"]) if e.get("flags") else NO_FLAGS
        s.cards[c.id] = c
        if e["zone"] == Zone.XYZ_MATERIAL:
            c.zone = Zone.XYZ_MATERIAL
            continue
        zone = e["zone"]
        if zone in (Zone.MONSTERS, Zone.SPELLS_TRAPS, Zone.FIELD):
            c.zone = ZONE_OF[zone]
            p = s.players[c.controller]
            slot = int(e.get("slot", -1))
            if zone == Zone.MONSTERS:
                slot = slot if slot >= 0 else p.monsters.index(None)
                p.monsters[slot] = c.id
            elif zone == Zone.SPELLS_TRAPS:
                slot = slot if slot >= 0 else p.spells_traps.index(None)
                p.spells_traps[slot] = c.id
            else:
                p.field_zone = c.id
                slot = 0
            c.slot = slot
        else:
            c.zone = ZONE_OF[zone]
            lst: list[int] = getattr(s.players[c.owner], zone)
            lst.append(c.id)
    s.phase = PHASE_OF[f.phase]
    s.step = None if f.step is None else STEP_OF[f.step]
    s.battle_phases = int(f.battle_phases)
    s.extra_battle_phases = 0 if f.extra_battle_phases is ABSENT else int(f.extra_battle_phases)
    s.used = {} if f.used is ABSENT else dict(f.used)
    for seat, done in enumerate([False, False] if f.normal_summoned is ABSENT else f.normal_summoned):
        s.players[seat].normal_summoned = bool(done)
    s.start_step_monsters = [[], []] if f.start_step_monsters is ABSENT else [list(x) for x in f.start_step_monsters]
    s.priority = s.turn_player
    s.passes = 0


@handles(F.Delayed)
def _delayed(s: State, f: F.Delayed) -> None:
    """An effect that applies in a player's next turn (skip a phase, extra Battle Phases)."""
    s.next_turn.append({"seat": int(f.seat), **dict(f.effect)})


@handles(F.DelayedDone)
def _delayed_done(s: State, f: F.DelayedDone) -> None:
    idx = int(f.index)
    if 0 <= idx < len(s.next_turn):
        s.next_turn.pop(idx)
