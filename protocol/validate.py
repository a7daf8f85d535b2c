"""Schema validation: a decoded msgpack map -> a typed message, or ProtocolError.

The rules come from the dataclass annotations and field metadata of
:mod:`protocol.messages`:

* ``int`` must be an int (not a bool), within ``min``/``max`` if given;
* ``str`` within ``min_len``/``max_len`` and matching ``pattern`` if given; a
  ``display_name`` field is normalised and checked first (:mod:`protocol.names`);
* ``list[int]`` within ``min_items``/``max_items``, each item an int in range;
* ``Data`` (``dict[str, Any]``) a map of plain data, nested at most
  ``max_depth`` levels (default 8);
* ``X | None`` accepts nil;
* a field with a default may be left out; unknown keys are refused.
"""

from __future__ import annotations

import dataclasses
import re
import types
import typing
from functools import cache
from typing import Any, TypeVar, Union

from protocol.errors import MESSAGE_BAD_FIELD, ProtocolError
from protocol.names import BadName, display_name

T = TypeVar("T")

DEFAULT_MAX_DEPTH = 8
_PLAIN_SCALARS = (type(None), bool, int, float, str, bytes)


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


@cache
def _pattern(p: str) -> re.Pattern[str]:
    return re.compile(p)


def _bad(name: str, what: str) -> ProtocolError:
    return ProtocolError(MESSAGE_BAD_FIELD, f"field '{name}' {what}")


def check_data(value: object, *, max_depth: int, str_keys: bool = True, _depth: int = 0) -> None:
    """Check that ``value`` is plain msgpack data at most ``max_depth`` levels deep."""
    if _depth > max_depth:
        raise ValueError("nested too deeply")
    if isinstance(value, _PLAIN_SCALARS):
        return
    if isinstance(value, list | tuple):
        for item in value:
            check_data(item, max_depth=max_depth, str_keys=str_keys, _depth=_depth + 1)
        return
    if isinstance(value, dict):
        for key, item in value.items():
            if str_keys and not isinstance(key, str):
                raise ValueError("map keys must be strings")
            check_data(item, max_depth=max_depth, str_keys=str_keys, _depth=_depth + 1)
        return
    raise ValueError(f"unsupported value of type {type(value).__name__}")


def _check_int(name: str, value: object, meta: typing.Mapping[str, Any]) -> int:
    if type(value) is not int:
        raise _bad(name, f"must be an integer, not {_type_name(value)}")
    lo, hi = meta.get("min"), meta.get("max")
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        raise _bad(name, f"must be between {lo} and {hi}")
    return value


def _check_str(name: str, value: object, meta: typing.Mapping[str, Any]) -> str:
    if not isinstance(value, str):
        raise _bad(name, f"must be a string, not {_type_name(value)}")
    if meta.get("display_name"):
        try:
            value = display_name(value)
        except BadName as exc:
            raise _bad(name, str(exc)) from None
    lo, hi = meta.get("min_len", 0), meta.get("max_len")
    if len(value) < lo or (hi is not None and len(value) > hi):
        raise _bad(name, f"must be {lo} to {hi} characters long")
    pattern = meta.get("pattern")
    if pattern is not None and not _pattern(pattern).fullmatch(value):
        raise _bad(name, f"must match {pattern}")
    return value


def _type_name(value: object) -> str:
    if value is None:
        return "nil"
    if isinstance(value, dict):
        return "map"
    if isinstance(value, list | tuple):
        return "array"
    return type(value).__name__


@cache
def _shape(tp: Any) -> tuple[Any, tuple[Any, ...]]:
    """An annotation's origin and arguments (``typing.get_origin``/``get_args``, kept)."""
    return typing.get_origin(tp), typing.get_args(tp)


@cache
def message_fields(cls: type) -> tuple[dict[str, dataclasses.Field[Any]], frozenset[str]]:
    """A message class's fields by name (in order), and the names of those that may be left
    out (``protocol.codec`` writes a message's map in this order)."""
    fields = {f.name: f for f in dataclasses.fields(cls)}
    optional = frozenset(
        name
        for name, f in fields.items()
        if f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING
    )
    return fields, optional


def check_value(name: str, value: object, tp: Any, meta: typing.Mapping[str, Any], *, str_keys: bool = True) -> Any:
    """Check one field value against its annotation; return the value to store."""
    origin, args = _shape(tp)
    if origin in (Union, types.UnionType):
        if value is None and type(None) in args:
            return None
        inner = [a for a in args if a is not type(None)]
        if len(inner) != 1:  # pragma: no cover - messages never use wider unions
            raise TypeError(f"unsupported annotation {tp!r}")
        if value is None:
            raise _bad(name, "must not be nil")
        return check_value(name, value, inner[0], meta, str_keys=str_keys)
    if tp is bool:
        if not isinstance(value, bool):
            raise _bad(name, f"must be a boolean, not {_type_name(value)}")
        return value
    if tp is int:
        return _check_int(name, value, meta)
    if tp is str:
        return _check_str(name, value, meta)
    if origin is list:
        if not isinstance(value, list):
            raise _bad(name, f"must be an array, not {_type_name(value)}")
        lo, hi = meta.get("min_items", 0), meta.get("max_items")
        if len(value) < lo or (hi is not None and len(value) > hi):
            raise _bad(name, f"must have {lo} to {hi} items")
        (item_tp,) = args
        return [check_value(f"{name}[]", v, item_tp, meta, str_keys=str_keys) for v in value]
    if origin is dict:
        if not isinstance(value, dict):
            raise _bad(name, f"must be a map, not {_type_name(value)}")
        if not str_keys:  # server frames (read by clients): the shape is trusted past the top level
            return value
        try:
            check_data(value, max_depth=meta.get("max_depth", DEFAULT_MAX_DEPTH), str_keys=str_keys)
        except ValueError as exc:
            raise _bad(name, str(exc)) from None
        return value
    raise TypeError(f"unsupported annotation {tp!r}")  # pragma: no cover


def build(cls: type[T], raw: dict[str, Any], *, str_keys: bool = True) -> T:
    """Build a message of class ``cls`` from a decoded map (``type`` already read).

    ``str_keys=False`` is the lenient mode for frames from the server: maps may
    have non-string keys and nested data is not walked.
    """
    hints = _hints(typing.cast(type, cls))
    fields, optional = message_fields(typing.cast(type, cls))
    unknown = sorted(str(k) for k in raw if k != "type" and k not in fields)
    if unknown:
        raise ProtocolError(MESSAGE_BAD_FIELD, f"unknown field '{unknown[0]}'")
    values: dict[str, Any] = {}
    for name, f in fields.items():
        if name not in raw:
            if name not in optional:
                raise _bad(name, "is missing")
            continue
        values[name] = check_value(name, raw[name], hints[name], f.metadata, str_keys=str_keys)
    return cls(**values)
