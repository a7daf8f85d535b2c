"""The model's classes written out field by field, for the compiled build: the copies and swaps
of copy-on-write (``engine.kernel.cow``) and the value lists ``state_hash`` packs
(``engine.kernel.hashing``).

The one list of each class's fields is its definition in ``engine.state``. Code made from it
at import (``exec``) would run interpreted in the compiled build (it cost 2-3 % of the engine's
work; docs/adr/0008-compiled-engine.md), so it is written out here instead, and
``tests/engine/test_state_copies.py`` and ``tests/engine/test_state_packer.py`` check every
list against the class's fields: a field added to the model and not here fails there.
"""

from __future__ import annotations

from typing import Any

from ..plain import plain_value
from ..state import Attack, Card, Link, Modifier, Player, Resolving, State, Trigger
from .caches import Roster

# The copies and swaps below are written out field by field: compiled (engine.NATIVE) each is a
# run of struct reads and writes, where a function made at import (exec) stayed interpreted
# and cost 2-3 % of the engine's work. tests/engine/test_state_copies.py checks every field of
# every class against these rules, so a field added and not copied here fails there:
# a container field (one with a default factory) is copied one level deep, except by the
# sharing copies (``Link``, ``Attack``, ``State``) and for containers never changed in place
# (``IMMUTABLE``); every other value is shared; cache fields start empty, except shared ones
# (``SHARED_CACHE``). A swap exchanges every field, caches too.


def copy_card(o: Card) -> Card:
    n = Card.__new__(Card)
    n.id = o.id
    n.code = o.code
    n.owner = o.owner
    n.controller = o.controller
    n.zone = o.zone
    n.slot = o.slot
    n.face_up = o.face_up
    n.position = o.position
    n.set_turn = o.set_turn
    n.summoned_turn = o.summoned_turn
    n.position_turn = o.position_turn
    n.attacks = o.attacks
    n.attacked_turn = o.attacked_turn
    n.counters = o.counters
    n.equipped_to = o.equipped_to
    n.materials = o.materials
    n.flags = o.flags
    n._memo = None
    n._packed = None
    n._data = o._data
    return n


def copy_player(o: Player) -> Player:
    n = Player.__new__(Player)
    n.lp = o.lp
    n.deck = o.deck.copy()
    n.hand = o.hand.copy()
    n.graveyard = o.graveyard.copy()
    n.banished = o.banished.copy()
    n.extra = o.extra.copy()
    n.monsters = o.monsters.copy()
    n.spells_traps = o.spells_traps.copy()
    n.field_zone = o.field_zone
    n.normal_summoned = o.normal_summoned
    n._packed = None
    n._memo = None
    return n


def swap_card(a: Card, b: Card) -> None:
    a.id, b.id = b.id, a.id
    a.code, b.code = b.code, a.code
    a.owner, b.owner = b.owner, a.owner
    a.controller, b.controller = b.controller, a.controller
    a.zone, b.zone = b.zone, a.zone
    a.slot, b.slot = b.slot, a.slot
    a.face_up, b.face_up = b.face_up, a.face_up
    a.position, b.position = b.position, a.position
    a.set_turn, b.set_turn = b.set_turn, a.set_turn
    a.summoned_turn, b.summoned_turn = b.summoned_turn, a.summoned_turn
    a.position_turn, b.position_turn = b.position_turn, a.position_turn
    a.attacks, b.attacks = b.attacks, a.attacks
    a.attacked_turn, b.attacked_turn = b.attacked_turn, a.attacked_turn
    a.counters, b.counters = b.counters, a.counters
    a.equipped_to, b.equipped_to = b.equipped_to, a.equipped_to
    a.materials, b.materials = b.materials, a.materials
    a.flags, b.flags = b.flags, a.flags
    a._memo, b._memo = b._memo, a._memo
    a._packed, b._packed = b._packed, a._packed
    a._data, b._data = b._data, a._data


def swap_player(a: Player, b: Player) -> None:
    a.lp, b.lp = b.lp, a.lp
    a.deck, b.deck = b.deck, a.deck
    a.hand, b.hand = b.hand, a.hand
    a.graveyard, b.graveyard = b.graveyard, a.graveyard
    a.banished, b.banished = b.banished, a.banished
    a.extra, b.extra = b.extra, a.extra
    a.monsters, b.monsters = b.monsters, a.monsters
    a.spells_traps, b.spells_traps = b.spells_traps, a.spells_traps
    a.field_zone, b.field_zone = b.field_zone, a.field_zone
    a.normal_summoned, b.normal_summoned = b.normal_summoned, a.normal_summoned
    a._packed, b._packed = b._packed, a._packed
    a._memo, b._memo = b._memo, a._memo


def copy_link(o: Link) -> Link:
    n = Link.__new__(Link)
    n.card = o.card
    n.effect = o.effect
    n.controller = o.controller
    n.targets = o.targets
    n.negated = o.negated
    n.effect_negated = o.effect_negated
    n.data = o.data
    n.trigger = o.trigger
    return n


def copy_attack(o: Attack) -> Attack:
    n = Attack.__new__(Attack)
    n.attacker = o.attacker
    n.target = o.target
    n.snapshot = o.snapshot
    n.responded = o.responded
    n.replay = o.replay
    n.flipped = o.flipped
    n.calculated = o.calculated
    n.stopped = o.stopped
    n.destroyed = o.destroyed
    n.damage = o.damage
    return n


def share_state(o: State) -> State:
    n = State.__new__(State)
    if o._roster is None:
        # made here, not by its first reader: a copy asked first (``decide`` asks its own
        # derived state, then drops it) fills it for ``o`` and every other copy as well
        o._roster = Roster()
    n.started = o.started
    n.options = o.options
    n.rng = o.rng
    n.cards = o.cards
    n.players = o.players
    n.turn = o.turn
    n.turn_player = o.turn_player
    n.phase = o.phase
    n.step = o.step
    n.damage_step = o.damage_step
    n.battle_phases = o.battle_phases
    n.extra_battle_phases = o.extra_battle_phases
    n.skip = o.skip
    n.skipped_main1 = o.skipped_main1
    n.priority = o.priority
    n.passes = o.passes
    n.intent = o.intent
    n.event = o.event
    n.chain = o.chain
    n.resolving = o.resolving
    n.chains_in_timing = o.chains_in_timing
    n.chain_no = o.chain_no
    n.next_turn = o.next_turn
    n.attack = o.attack
    n.modifiers = o.modifiers
    n.triggers = o.triggers
    n.choice = o.choice
    n.start_step_monsters = o.start_step_monsters
    n.used = o.used
    n.winner = o.winner
    n.end_reason = o.end_reason
    n.seq = o.seq
    n._w = None
    n._memo = None
    n._roster = o._roster
    n._board = o._board
    return n


def after_players(s: State) -> list[Any]:
    """The state's fields after ``players``, in field order, its enums as plain strs (the
    same bytes as the members; ``full_state_hash`` is the cross-check the tests make: a field
    added to ``State`` and not here makes the two differ). A list: ``_packer`` packs a tuple
    through its hook; the chain, the attack and the rest as the lists of their field values,
    as ``field_values`` gives them, so that the packer calls no hook for them."""
    return [
        s.turn,
        s.turn_player,
        plain_value(s.phase),
        plain_value(s.step),
        plain_value(s.damage_step),
        s.battle_phases,
        s.extra_battle_phases,
        s.skip,
        s.skipped_main1,
        s.priority,
        s.passes,
        s.intent,
        s.event,
        [link_values(x) for x in s.chain],
        None if s.resolving is None else resolving_values(s.resolving),
        s.chains_in_timing,
        s.chain_no,
        s.next_turn,
        None if s.attack is None else attack_values(s.attack),
        [modifier_values(x) for x in s.modifiers],
        [trigger_values(x) for x in s.triggers],
        s.choice,
        s.start_step_monsters,
        s.used,
        s.winner,
        s.end_reason,
        s.seq,
    ]


def card_values(c: Card) -> list[Any]:
    """``field_values`` of a card, written out (its enums as plain strs: the same bytes). A
    list, as ``after_players``."""
    return [
        c.id,
        c.code,
        c.owner,
        c.controller,
        plain_value(c.zone),
        c.slot,
        c.face_up,
        plain_value(c.position),
        c.set_turn,
        c.summoned_turn,
        c.position_turn,
        c.attacks,
        c.attacked_turn,
        c.counters,
        c.equipped_to,
        c.materials,
        c.flags,
    ]


def link_values(o: Link) -> list[Any]:
    return [o.card, o.effect, o.controller, o.targets, o.negated, o.effect_negated, o.data, o.trigger]


def attack_values(o: Attack) -> list[Any]:
    return [
        o.attacker,
        o.target,
        o.snapshot,
        o.responded,
        o.replay,
        o.flipped,
        o.calculated,
        o.stopped,
        o.destroyed,
        o.damage,
    ]


def modifier_values(o: Modifier) -> list[Any]:
    return [o.card, o.stat, o.op, o.value, o.until, o.source, o.turn]


def trigger_values(o: Trigger) -> list[Any]:
    return [o.card, o.effect, o.controller, o.event, o.mandatory]


def resolving_values(o: Resolving) -> list[Any]:
    return [o.was, o.destroyed, o.started]
