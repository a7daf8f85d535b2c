"""A duel state and an alias book as bytes, and back: what a server keeps beside a log.

``dump_state`` packs every field of the state that is part of the game (never a cache), in
field order, the way ``state_hash`` packs it; ``load_state`` makes the same state again, so
that ``state_hash(load_state(dump_state(s))) == state_hash(s)``. The server's snapshots
(issue 13) hold these bytes and trust a loaded state only if it hashes to the hash its log
recorded; a state dumped by another rules version simply fails that check.

The readers are written out class by class: each unpacks exactly the fields its class has,
so a field added to a class and not here makes every load fail, and
``tests/engine/test_stored.py`` fails with it.
"""

from __future__ import annotations

from typing import Any

import msgpack

from .aliases import AliasBook, place
from .kernel.hashing import field_values
from .state import NO_COUNTERS, NO_FLAGS, NO_MATERIALS, Attack, Card, Link, Modifier, Player, Resolving, State, Trigger
from .types import Phase, Position, Step, Timing, Zone


class StoredError(ValueError):
    """The bytes are not a state (or a book) this engine can read."""


def dump_state(s: State) -> bytes:
    """The state's bytes: its fields in order, a dataclass as the list of its fields."""
    return _pack(s)


def load_state(data: bytes) -> State:
    """The state ``data`` holds (:func:`dump_state`'s inverse); :class:`StoredError` if it
    holds none."""
    try:
        return _state(_unpack(data))
    except StoredError:
        raise
    except Exception as exc:  # any other shape is simply not a state of this engine
        raise StoredError(f"not a stored state ({type(exc).__name__}: {exc})") from None


def dump_book(book: AliasBook) -> bytes:
    """The alias book's bytes, without its key: the key is derived from the server's secret
    and never stored; :func:`load_book` takes the loading server's."""
    return _pack(
        [
            b"",
            book.places,
            book.codes,
            book.facts,
            book.entries,
            book._alias,
            book._card,
            book._eph_card,
            book._eph_alias,
            book._eph_at,
        ]
    )


def load_book(data: bytes, key: bytes) -> AliasBook:
    """The alias book ``data`` holds, with ``key`` as its key."""
    try:
        return _book(_unpack(data), key)
    except StoredError:
        raise
    except Exception as exc:
        raise StoredError(f"not a stored alias book ({type(exc).__name__}: {exc})") from None


def _pack(o: object) -> bytes:
    packed: bytes = msgpack.packb(o, default=_default, use_bin_type=True)
    return packed


def _default(o: Any) -> Any:
    """A dataclass of the state (or a book's ``Place``) packs as the list of its fields."""
    return field_values(o)


def _unpack(data: bytes) -> Any:
    return msgpack.unpackb(data, raw=False, strict_map_key=False, use_list=True)


# ---------------------------------------------------------------------------- the readers


def _state(v: list[Any]) -> State:
    (
        started,
        options,
        rng,
        cards,
        players,
        turn,
        turn_player,
        phase,
        step,
        damage_step,
        battle_phases,
        extra_battle_phases,
        skip,
        skipped_main1,
        priority,
        passes,
        intent,
        event,
        chain,
        resolving,
        chains_in_timing,
        chain_no,
        next_turn,
        attack,
        modifiers,
        triggers,
        choice,
        start_step_monsters,
        used,
        winner,
        end_reason,
        seq,
    ) = v
    return State(
        started=started,
        options=options,
        rng=rng,
        cards={int(cid): _card(c) for cid, c in cards.items()},
        players=[_player(p) for p in players],
        turn=turn,
        turn_player=turn_player,
        phase=Phase(phase),
        step=None if step is None else Step(step),
        damage_step=None if damage_step is None else Timing(damage_step),
        battle_phases=battle_phases,
        extra_battle_phases=extra_battle_phases,
        skip=skip,
        skipped_main1=skipped_main1,
        priority=priority,
        passes=passes,
        intent=intent,
        event=event,
        chain=[_link(x) for x in chain],
        resolving=None if resolving is None else _resolving(resolving),
        chains_in_timing=chains_in_timing,
        chain_no=chain_no,
        next_turn=next_turn,
        attack=None if attack is None else _attack(attack),
        modifiers=[_modifier(x) for x in modifiers],
        triggers=[_trigger(x) for x in triggers],
        choice=choice,
        start_step_monsters=start_step_monsters,
        used=used,
        winner=winner,
        end_reason=end_reason,
        seq=seq,
    )


def _card(v: list[Any]) -> Card:
    (
        cid,
        code,
        owner,
        controller,
        zone,
        slot,
        face_up,
        position,
        set_turn,
        summoned_turn,
        position_turn,
        attacks,
        attacked_turn,
        counters,
        equipped_to,
        materials,
        flags,
    ) = v
    return Card(
        id=cid,
        code=code,
        owner=owner,
        controller=controller,
        zone=Zone(zone),
        slot=slot,
        face_up=face_up,
        position=Position(position),
        set_turn=set_turn,
        summoned_turn=summoned_turn,
        position_turn=position_turn,
        attacks=attacks,
        attacked_turn=attacked_turn,
        # the empty ones are the engine's shared empty values, as in a card never written
        counters=counters or NO_COUNTERS,
        equipped_to=equipped_to,
        materials=materials or NO_MATERIALS,
        flags=flags or NO_FLAGS,
    )


def _player(v: list[Any]) -> Player:
    lp, deck, hand, graveyard, banished, extra, monsters, spells_traps, field_zone, normal_summoned = v
    return Player(
        lp=lp,
        deck=deck,
        hand=hand,
        graveyard=graveyard,
        banished=banished,
        extra=extra,
        monsters=monsters,
        spells_traps=spells_traps,
        field_zone=field_zone,
        normal_summoned=normal_summoned,
    )


def _link(v: list[Any]) -> Link:
    card, effect, controller, targets, negated, effect_negated, data, trigger = v
    return Link(
        card=card,
        effect=effect,
        controller=controller,
        targets=targets,
        negated=negated,
        effect_negated=effect_negated,
        data=data,
        trigger=trigger,
    )


def _attack(v: list[Any]) -> Attack:
    attacker, target, snapshot, responded, replay, flipped, calculated, stopped, destroyed, damage = v
    return Attack(
        attacker=attacker,
        target=target,
        snapshot=snapshot,
        responded=responded,
        replay=replay,
        flipped=flipped,
        calculated=calculated,
        stopped=stopped,
        destroyed=destroyed,
        damage=damage,
    )


def _modifier(v: list[Any]) -> Modifier:
    card, stat, op, value, until, source, turn = v
    return Modifier(card=card, stat=stat, op=op, value=value, until=until, source=source, turn=turn)


def _trigger(v: list[Any]) -> Trigger:
    card, effect, controller, event, mandatory = v
    return Trigger(card=card, effect=effect, controller=controller, event=event, mandatory=mandatory)


def _resolving(v: list[Any]) -> Resolving:
    was, destroyed, started = v
    return Resolving(was=was, destroyed=destroyed, started=started)


def _book(v: list[Any], key: bytes) -> AliasBook:
    _no_key, places, codes, facts, entries, alias, card, eph_card, eph_alias, eph_at = v
    return AliasBook(
        key=key,
        places={int(cid): place(*p) for cid, p in places.items()},
        codes={int(cid): code for cid, code in codes.items()},
        facts=facts,
        entries=entries,
        _alias=tuple(_ints(d) for d in alias),
        _card=tuple(_ints(d) for d in card),
        _eph_card=tuple(_ints(d) for d in eph_card),
        _eph_alias=tuple(_ints(d) for d in eph_alias),
        _eph_at=eph_at,
    )


def _ints(d: dict[Any, Any]) -> dict[int, int]:
    return {int(k): int(x) for k, x in d.items()}
