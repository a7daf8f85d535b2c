"""``state_hash``: a stable digest of the whole state, and the packer behind it and snapshots.

Exactly ``full_state_hash`` (msgpack of every field of the state, then sha256), computed from
bytes kept on each card and player while it does not change, and the board's digest kept in
the state's ``Memo`` (docs/performance.md, "Cache invariants").
"""

from __future__ import annotations

import dataclasses
import hashlib
import operator
import threading
from collections.abc import Callable, Sequence
from enum import Enum
from typing import Any, Final

import msgpack

from ..state import Attack, Card, Link, Modifier, Player, Resolving, State, Trigger
from .caches import BoardDigest, memo_of
from .fields import (
    after_players,
    attack_values,
    card_values,
    link_values,
    modifier_values,
    resolving_values,
    trigger_values,
)


def _plain(v: Any) -> Any:
    fields = getattr(v, "__dataclass_fields__", None)
    if fields is not None:
        return {name: _plain(getattr(v, name)) for name in _hashed(type(v))}
    if isinstance(v, dict):
        return {k: _plain(x) for k, x in v.items()}
    if isinstance(v, list | tuple):
        return [_plain(x) for x in v]
    return v


def to_plain(state: State) -> dict[str, Any]:
    """The state as plain dicts and lists (what ``state_hash`` digests)."""
    out: dict[str, Any] = _plain(state)
    return out


_FIELDS: Final[dict[type, tuple[str, ...]]] = {}


def _hashed(cls: type) -> tuple[str, ...]:
    """The fields of a state dataclass that are part of the state (not caches), in order."""
    names = _FIELDS.get(cls)
    if names is None:
        names = _FIELDS[cls] = tuple(f.name for f in dataclasses.fields(cls) if not f.metadata.get("cache"))
    return names


def field_values(o: Any) -> Sequence[Any]:
    """msgpack hook: a state dataclass packs as the list of its field values (not its caches),
    in field order (a tuple or a list: the same msgpack array). ``state_hash`` packs with it
    (through ``_exact``), and so do snapshots (``server.match.snapshots``)."""
    values = _VALUES.get(type(o))
    if values is None:
        if not hasattr(o, "__dataclass_fields__"):
            raise TypeError(f"cannot pack a {type(o).__name__}")
        names = _hashed(type(o))
        if len(names) == 1:
            only = names[0]
            values = _VALUES[type(o)] = lambda x: (getattr(x, only),)
        else:
            values = _VALUES[type(o)] = operator.attrgetter(*names)
    got: Sequence[Any] = values(o)
    return got


_VALUES: Final[dict[type, Callable[[Any], Sequence[Any]]]] = {}
"""Per state dataclass: its field values (not caches) as a tuple or a list, in field order."""


def full_state_hash(state: State) -> str:
    """``state_hash`` computed from scratch (msgpack of the whole state, then sha256): the
    definition, kept as the cross-check of the cached one."""
    packed = msgpack.packb(state, default=field_values, use_bin_type=True)
    return hashlib.sha256(packed).hexdigest()[:32]


_STATE_HASHED: Final = _hashed(State)
_BEFORE_CARDS: Final = _STATE_HASHED[: _STATE_HASHED.index("cards")]
_AFTER_PLAYERS: Final = _STATE_HASHED[_STATE_HASHED.index("players") + 1 :]
assert _STATE_HASHED.index("players") == _STATE_HASHED.index("cards") + 1  # state_hash packs them in turn
_local = threading.local()


def _packer() -> msgpack.Packer:
    """``state_hash``'s packer (one per thread): it checks types exactly (``strict_types``).
    A lenient packer asks of every list and tuple whether it is an ``ExtType`` (a namedtuple):
    an ``isinstance`` that looks ``__class__`` up, 1.2 % of the engine's work per action
    (callgrind). Exactly, anything but None, bool, int, float, bytes, str, dict and list goes to
    ``_exact``, which gives the value the lenient packer would have packed in its place."""
    p: msgpack.Packer | None = getattr(_local, "packer", None)
    if p is None:
        p = _local.packer = msgpack.Packer(default=_exact, use_bin_type=True, strict_types=True)
    return p


def _exact(o: Any) -> Any:
    """``state_hash``'s msgpack hook (``_packer``): what the lenient packer of
    ``full_state_hash`` would have packed in the place of ``o`` (bool, None and exact plain
    values never come here), as a plain value: a state dataclass as the list of its field
    values, a tuple as a list, an enum member as its value, a subclass of int, str, dict or
    list as the plain value."""
    values = _VALUES.get(type(o))
    if values is not None:
        return list(values(o))
    if isinstance(o, Enum):
        o = o._value_  # packed as its value, which may itself come back here
    if isinstance(o, bool):
        return bool(o)
    if isinstance(o, int):
        return int(o)
    if isinstance(o, str):
        return str.__str__(o)
    if isinstance(o, tuple | list):
        return list(o)
    if isinstance(o, dict):
        return dict(o)
    return list(field_values(o))


_STATE_HEADER: Final = _packer().pack_array_header(len(_STATE_HASHED))
_before_cards = operator.attrgetter(*_BEFORE_CARDS)  # a tuple: ``_board_hash`` packs it as a list


# ``field_values`` written out for the classes a state holds many of or hashes at every action
# (``tests/engine/test_state_packer.py`` checks each against the fields it lists)
_VALUES[Card] = card_values
_VALUES[Link] = link_values
_VALUES[Attack] = attack_values
_VALUES[Modifier] = modifier_values
_VALUES[Trigger] = trigger_values
_VALUES[Resolving] = resolving_values
assert len(_AFTER_PLAYERS) == 27 and len(_hashed(Card)) == 17  # the two functions above list them all
_SKIP_BEFORE: Final = len(_packer().pack_array_header(len(_BEFORE_CARDS)))
_SKIP_AFTER: Final = len(_packer().pack_array_header(len(_AFTER_PLAYERS)))


def _card_bytes(c: Card, packer: msgpack.Packer) -> bytes:
    """The card's entry in the packed ``cards`` map (its id, then the card), cached on the
    card until it is next written (``write_card`` clears ``_packed``)."""
    b: bytes = packer.pack(c.id) + packer.pack(card_values(c))
    c._packed = b
    return b


def _player_bytes(p: Player, packer: msgpack.Packer) -> bytes:
    b: bytes = packer.pack(p)
    p._packed = b
    return b


def state_hash(state: State) -> str:
    """A stable digest of the whole state (same bytes in every process): sha256 of the
    msgpack of the state, each dataclass packed as the list of its field values.

    Exactly ``full_state_hash``, computed faster: the packed bytes of each card are kept on
    the card while it does not change (most of an action leaves most cards alone, and a
    state shares its unchanged card objects with the state before it), so only the cards an
    action wrote (the players likewise) and the small rest of the state are packed again.
    The digest of the board (everything up to the players) is kept in ``State._memo`` until
    the next fact, and ``engine.decide`` carries it over an action that changes only what
    follows the players (a pass, a new phase: ``carry_board_hash``)."""
    memo = memo_of(state)
    board = memo.board_hash
    if board is None:
        board = memo.board_hash = BoardDigest(_board_hash(state))
    h = board.sha.copy()
    h.update(_packer().pack(after_players(state))[_SKIP_AFTER:])
    digest: str = h.hexdigest()[:32]
    return digest


def carry_board_hash(old: State, new: State) -> None:
    """Give ``new`` the board digest kept for ``old`` (``state_hash``) if ``new``'s board is
    ``old``'s: ``new`` is the state a Ctx made from ``old`` (``derive``, then a journal closed
    by ``end_in_place``) and owns none of its cards and players, so it wrote none (every write
    goes through ``write_card`` / ``write_player``, which make it own what they write: the same
    rule the cached bytes of each card rely on), and the fields before the cards are the same
    (the options are replaced by the facts, never written)."""
    board = None if old._memo is None else old._memo.board_hash
    if board is None or new._w or len(new.cards) != len(old.cards):
        return
    if new.started != old.started or new.options is not old.options or new.rng != old.rng:
        return
    memo_of(new).board_hash = board


def _board_hash(state: State) -> Any:
    """A sha256 object fed the packed state up to the end of the players (the cards, the
    players and the fields before them: see ``state_hash``)."""
    packer = _packer()
    cards = state.cards
    parts = [
        _STATE_HEADER,
        packer.pack(list(_before_cards(state)))[_SKIP_BEFORE:],
        packer.pack_map_header(len(cards)),
    ]
    for c in cards.values():
        b = c._packed  # compared with None: ``or`` asks the bytes object for its truth
        parts.append(_card_bytes(c, packer) if b is None else b)
    players = state.players
    parts.append(packer.pack_array_header(len(players)))
    for p in players:
        pb = p._packed
        parts.append(_player_bytes(p, packer) if pb is None else pb)
    return hashlib.sha256(b"".join(parts))
