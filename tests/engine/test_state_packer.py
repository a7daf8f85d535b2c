"""``state_hash``'s packer checks types exactly (``engine.kernel.hashing._packer``): whatever is not a
plain None, bool, int, float, bytes, str, dict or list goes through its hook, which must give
the bytes the lenient packer of ``full_state_hash`` (the definition) makes of the same value."""

from __future__ import annotations

from enum import IntEnum
from typing import Any

import msgpack
import pytest

from engine.kernel.hashing import _VALUES, _hashed, _packer, field_values
from engine.state import Attack, Card, Link, Modifier, Player, Resolving, Trigger
from engine.types import CardFlag, Phase, Zone


class Level(IntEnum):
    ONE = 1


def lenient(v: Any) -> bytes:
    packed: bytes = msgpack.packb(v, default=field_values, use_bin_type=True)
    return packed


VALUES: list[Any] = [
    (1, "a", None),
    [(1, 2), [3, (4,)]],
    {CardFlag.EQUIP_ATK: 200, "plain": [Zone.MONSTERS, Phase.BATTLE]},
    {"k": (Zone.HAND, {"n": Level.ONE})},
    Level.ONE,
    [True, False, 0, -1, 2**40, 1.5, b"\x00"],
    Player(lp=4000, hand=[1, 2]),
    Attack(attacker=3, target=None, snapshot=[4, 5]),
    [Modifier(card=1, stat="atk", op="add", value=300, until="turn", source=2, turn=1)],
]


@pytest.mark.parametrize("value", VALUES, ids=[type(v).__name__ + str(i) for i, v in enumerate(VALUES)])
def test_the_exact_packer_makes_the_bytes_of_the_lenient_one(value: Any) -> None:
    assert _packer().pack(value) == lenient(value)


def test_the_exact_packer_refuses_what_the_lenient_one_refuses() -> None:
    with pytest.raises(TypeError):
        lenient(object())
    with pytest.raises(TypeError):
        _packer().pack(object())


WRITTEN_OUT: list[Any] = [
    Card(id=7, code=89631139, owner=1, controller=0, counters={"spell": 2}, materials=[3], flags={"f": 1}),
    Link(card=1, effect=2, controller=1, targets=[4], negated=True, data={"d": [1]}, trigger=True),
    Attack(attacker=3, target=4, snapshot=[4], flipped=4, calculated=True, destroyed=[4], damage=[0, 300]),
    Modifier(card=1, stat="atk", op="add", value=300, until="turn", source=2, turn=1),
    Trigger(card=5, effect=1, controller=0, event={"kind": "destroyed"}, mandatory=True),
    Resolving(was=[[1, 0, "attack", True]], destroyed=[2], started=1),
]


@pytest.mark.parametrize("value", WRITTEN_OUT, ids=[type(v).__name__ for v in WRITTEN_OUT])
def test_each_written_out_field_list_is_the_class_fields(value: Any) -> None:
    """``state_hash`` packs these classes by functions that list their fields: each must list
    every field that is not a cache, in the class's order."""
    assert list(_VALUES[type(value)](value)) == [getattr(value, name) for name in _hashed(type(value))]
