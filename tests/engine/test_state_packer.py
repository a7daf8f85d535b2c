"""``state_hash``'s packer checks types exactly (``engine.state._packer``): whatever is not a
plain None, bool, int, float, bytes, str, dict or list goes through its hook, which must give
the bytes the lenient packer of ``full_state_hash`` (the definition) makes of the same value."""

from __future__ import annotations

from enum import IntEnum
from typing import Any

import msgpack
import pytest

from engine.state import Attack, Modifier, Player, _packer, field_values
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
