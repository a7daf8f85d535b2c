"""The copies and swaps of the model (``engine.kernel.fields``) are written out field by field (so that they
compile): every field of every class must follow the copy rules, so a field added to a class
and forgotten in its copy fails here (a slotted attribute never set cannot be read)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import pytest

from engine import state as S
from engine.kernel import caches, fields


def _card(cid: int) -> S.Card:
    """A card whose every field differs from that of a card made with another odd/even ``cid``."""
    odd = cid % 2 == 1
    c = S.Card(
        id=cid,
        code=89631139 if odd else 46986414,
        owner=cid % 2,
        controller=cid % 2,
        zone=S.Zone.MONSTERS if odd else S.Zone.HAND,
        slot=cid % 5,
        face_up=odd,
        position=S.Position.ATTACK if odd else S.Position.DEFENSE,
        set_turn=cid,
        summoned_turn=cid + 1,
        position_turn=cid + 2,
        attacks=cid,
        attacked_turn=cid + 3,
        equipped_to=cid + 4,
    )
    c.counters = {"spell": cid}
    c.materials = [cid, cid + 1]
    c.flags = {"f": cid}
    c._memo = {"k": cid}
    c._packed = bytes([cid])
    c._data = c.data  # its own (looked up once, then shared by its copies)
    return c


def _player(seed: int) -> S.Player:
    p = S.Player(lp=seed, deck=[seed, 2], hand=[seed + 3], graveyard=[seed + 4], banished=[seed + 5])
    p.extra = [seed + 6]
    p.field_zone = seed + 7
    p.monsters = [seed, None, None, None, None]
    p.spells_traps = [None, seed, None, None, None]
    p.normal_summoned = seed % 20 == 10
    p._packed = bytes([seed])
    p._memo = {0: seed}
    return p


def _state() -> S.State:
    st = S.State(started=True, options={"o": 1}, rng=7, cards={1: _card(1)}, turn=3, skip=["main1"])
    st.chain = [S.Link(card=1, effect=1, controller=0, targets=[2])]
    st.attack = S.Attack(attacker=1, target=2, snapshot=[2])
    st.used = {"u": 1}
    st._w = {1}
    st._memo = caches.Memo()
    st._roster = caches.Roster()
    st._board = caches.Board()
    return st


CASES: list[tuple[str, Callable[[Any], Any], Callable[[], Any], bool]] = [
    ("Card", fields.copy_card, lambda: _card(3), False),
    ("Player", fields.copy_player, lambda: _player(11), False),
    ("Link", fields.copy_link, lambda: S.Link(card=4, effect=2, controller=1, targets=[5], data={"d": 1}), True),
    ("Attack", fields.copy_attack, lambda: S.Attack(attacker=1, target=None, snapshot=[3], destroyed=[4]), True),
    ("State", fields.share_state, _state, True),
]


def _container(v: Any) -> bool:
    return isinstance(v, list | dict | set | tuple | bytes | S.Card | S.Player) or v.__class__ is object


@pytest.mark.parametrize(("name", "copy", "make", "share"), CASES, ids=[c[0] for c in CASES])
def test_each_field_is_copied_shared_or_emptied_as_its_metadata_says(
    name: str, copy: Callable[[Any], Any], make: Callable[[], Any], share: bool
) -> None:
    o = make()
    n = copy(o)
    assert type(n) is type(o) and n is not o
    for f in dataclasses.fields(type(o)):
        was, got = getattr(o, f.name), getattr(n, f.name)  # AttributeError: a field left out
        if f.metadata.get("shared"):
            assert got is was or (not _container(was) and got == was), f"{name}.{f.name} must be shared"
        elif f.metadata.get("cache"):
            assert was is not None, f"the test gives {name}.{f.name} a value"
            assert got is None, f"{name}.{f.name} is a cache: a copy starts without it"
        elif f.default_factory is not dataclasses.MISSING and not share:
            assert got == was and got is not was, f"{name}.{f.name} must be copied one level deep"
        else:
            assert got == was, f"{name}.{f.name} must keep its value"
            if _container(was):
                assert got is was, f"{name}.{f.name} is shared by this copy"


@pytest.mark.parametrize(
    ("swap", "make"),
    [(fields.swap_card, lambda i: _card(i)), (fields.swap_player, lambda i: _player(i * 10))],
    ids=["Card", "Player"],
)
def test_a_swap_exchanges_every_field_caches_too(swap: Callable[[Any, Any], None], make: Callable[[int], Any]) -> None:
    a, b = make(1), make(2)
    names = [f.name for f in dataclasses.fields(type(a))]
    before_a = {n: getattr(a, n) for n in names}
    before_b = {n: getattr(b, n) for n in names}
    assert all(before_a[n] != before_b[n] for n in names), "the two objects differ in every field"
    swap(a, b)
    for n in names:
        assert getattr(a, n) == before_b[n], n
        assert getattr(b, n) == before_a[n], n
