"""The fact classes written out for the compiled engine: ``deploy/build_native.py`` compiles
this module's :func:`native_source` in place of ``engine/facts.py``.

``engine.facts`` declares each fact type once, as a dataclass, and makes its ``to_wire`` and
its reader when the module is imported (``exec``). mypyc cannot compile code made at run time,
nor a dataclass's generated ``__init__``: in the compiled engine every fact was built by a
keyword call into the interpreter, written by interpreted code, and each of its fields read
by the compiled rules through a generic attribute lookup. Here the same classes are written
out as source, which mypyc makes into native classes: per class, ``__init__`` with the same
keyword-only fields and defaults, ``__eq__`` over the fields that take part in ``==``, a
``to_wire`` per key order (``LAYOUTS``) and the reader ``from_wire`` uses, the same code the
source module's ``exec`` makes. What the rest of ``engine/facts.py`` holds (``Sent``,
``Fact``'s map-like reads, ``to_wire``, ``from_wire`` ...) is copied as it is.

One difference: compiled, a class checks the types of the values it is given, so a stored
map whose value is not of its field's type (a list where an int is due) is refused with a
TypeError by ``from_wire``, where the source classes took it as it was. The engine writes
every field with its type (mypy checks the calls), and ``tests/test_native_engine.py``
reads what it wrote back through the compiled readers.

``tests/engine/test_factgen.py`` runs the written-out module as Python against the source one
(the same wire forms, readers, equality and refusals for every golden fact);
``tests/test_native_engine.py`` checks the compiled engine against the source engine.

    .venv/bin/python -m engine.factgen      # print the module
"""

from __future__ import annotations

import ast
import dataclasses
import functools
import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

from .facts import Fact

SOURCE: Path = Path(__file__).with_name("facts.py")


@functools.cache
def declared() -> ModuleType:
    """``engine/facts.py`` run as source, as a module of its own (``engine._declared_facts``):
    its dataclasses, whichever build ``engine.facts`` is (in the compiled engine, the classes
    this module wrote out)."""
    spec = importlib.util.spec_from_file_location("engine._declared_facts", SOURCE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses reads the annotations' module from there
    spec.loader.exec_module(module)
    return module


SKIPPED: frozenset[str] = frozenset({"fact", "_compile", "_reader"})
"""Functions of ``engine.facts`` that make the classes at import: not needed once written out."""


def _is_fact_class(node: ast.stmt) -> bool:
    return isinstance(node, ast.ClassDef) and any(
        isinstance(d, ast.Name) and d.id == "fact" for d in node.decorator_list
    )


def _is_class_var(node: ast.stmt) -> bool:
    """``name: ClassVar[...] = ...`` in a class body."""
    if not isinstance(node, ast.AnnAssign):
        return False
    ann = node.annotation
    target = ann.value if isinstance(ann, ast.Subscript) else ann
    return isinstance(target, ast.Name) and target.id == "ClassVar"


def _plain(expr: str, annotation: str) -> str:
    """``expr`` as the wire holds it: a str field may hold a StrEnum member (``Phase.BATTLE``),
    whose plain str the wire gets (as ``engine.facts.fact``'s writers)."""
    if annotation.startswith("str"):
        return f"({expr} if {expr}.__class__ is str else plain_value({expr}))"
    return expr


def _fields(cls: type[Fact]) -> list[dataclasses.Field[Any]]:
    return list(dataclasses.fields(cls))  # type: ignore[arg-type]


def _optional(f: dataclasses.Field[Any]) -> bool:
    """Is the field's default ``ABSENT`` (the declared module's own)?"""
    return f.default is declared().ABSENT


def _default(f: dataclasses.Field[Any]) -> str | None:
    """The default as source (None: the field is required)."""
    if _optional(f):
        return "ABSENT"
    if f.default is dataclasses.MISSING:
        return None
    return repr(f.default)


def _writer(cls: type[Fact], name: str, layout: tuple[str, ...]) -> list[str]:
    """A ``to_wire`` writing the keys in ``layout``'s order (absent ones left out)."""
    fields = {f.name: f for f in _fields(cls)}
    lines = [f"    def {name}(self) -> WireFact:", f"        d: WireFact = {{'t': {cls.t!r}}}"]
    for key in layout:
        attr = cls.KEYS[key]
        ann = str(fields[attr].type)
        if _optional(fields[attr]):
            lines.append(f"        {attr} = self.{attr}")
            lines.append(f"        if {attr} is not ABSENT:")
            lines.append(f"            d[{key!r}] = {_plain(attr, ann)}")
        else:
            lines.append(f"        d[{key!r}] = {_plain('self.' + attr, ann)}")
    lines.append("        return d")
    return lines


def _class_source(node: ast.ClassDef, cls: type[Fact]) -> str:
    """The class as a native class: its class variables as written (its docstring is set after it), its fields
    declared, and the methods the dataclass and ``fact`` made, written out."""
    fields = _fields(cls)
    keep: list[str] = []
    for stmt in node.body:
        if _is_class_var(stmt) or isinstance(stmt, ast.Assign):
            keep.append("    " + ast.unparse(stmt))
    for f in fields:
        keep.append(f"    {f.name}: {f.type}")
    layouts = [tuple(cls.KEYS), *cls.LAYOUTS]
    keep.append(f"    KEYS: ClassVar[dict[str, str]] = {dict(cls.KEYS)!r}")
    keep.append(f"    OPTIONAL: ClassVar[frozenset[str]] = frozenset({sorted(cls.OPTIONAL)!r})")
    if len(layouts) > 1:
        keep.append(f"    _layouts: ClassVar[dict[tuple[str, ...], int]] = {cls._layouts!r}")
    params = ", ".join(f"{f.name}: {f.type}" + ("" if _default(f) is None else f" = {_default(f)}") for f in fields)
    keep.append("")
    keep.append(f"    def __init__(self, *, {params}) -> None:" if fields else "    def __init__(self) -> None:")
    keep += [f"        self.{f.name} = {f.name}" for f in fields] or ["        pass"]
    compared = [f.name for f in fields if f.compare]
    keep.append("")
    keep.append("    def __eq__(self, other: object) -> bool:")
    keep.append(f"        if not isinstance(other, {node.name}):")
    keep.append("            return NotImplemented")
    if compared:
        mine = ", ".join(f"self.{n}" for n in compared)
        theirs = ", ".join(f"other.{n}" for n in compared)
        keep.append(f"        return ({mine},) == ({theirs},)")
    else:
        keep.append("        return True")
    keep.append("")
    if len(layouts) == 1:
        keep += _writer(cls, "to_wire", layouts[0])
    else:
        keep.append("    def to_wire(self) -> WireFact:")
        for i in range(1, len(layouts)):
            keep.append(f"        if self.layout == {i}:")
            keep.append(f"            return self._wire{i}()")
        keep.append("        return self._wire0()")
        for i, layout in enumerate(layouts):
            keep.append("")
            keep += _writer(cls, f"_wire{i}", layout)
    return f"class {node.name}(Fact):\n" + "\n".join(keep) + "\n"


def _reader_source(cls: type[Fact]) -> str:
    """The class's reader (``READERS``): its fields from the map, then the same check as
    ``engine.facts._reader`` that the map has no other key."""
    name = cls.__name__
    lines = [f"def _read_{name}(d: WireFact) -> Fact:"]
    args: list[str] = []
    counted: list[str] = []
    required = 1  # ``t``
    fields = {f.name: f for f in _fields(cls)}
    for key, attr in cls.KEYS.items():
        if _optional(fields[attr]):
            var = f"o{len(counted)}"
            lines.append(f"    {var} = d.get({key!r}, ABSENT)")
            counted.append(f" + ({var} is not ABSENT)")
            args.append(f"{attr}={var}")
        else:
            required += 1
            args.append(f"{attr}=d[{key!r}]")
    if "layout" in fields:
        args.append(f"layout=_layout_of({name}, d)")
    lines.append(f"    f = {name}({', '.join(args)})")
    known = sorted(["t", *cls.KEYS])
    lines.append(f"    if len(d) != {required}{''.join(counted)}:")
    lines.append(f"        _unknown({name}, d, frozenset({known!r}))")
    lines.append("    return f")
    return "\n".join(lines) + "\n"


def native_source() -> str:
    """``engine/facts.py`` with its fact classes written out (the module mypyc compiles)."""
    facts: dict[str, type[Fact]] = declared().FACTS
    tree = ast.parse(SOURCE.read_text("utf-8"))
    by_name = {c.__name__: c for c in facts.values()}
    parts: list[str] = [
        '"""engine/facts.py with its fact classes written out for mypyc (engine/factgen.py). Generated."""'
    ]
    written: list[type[Fact]] = []
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name in SKIPPED:
            continue
        if isinstance(node, ast.ClassDef) and _is_fact_class(node):
            cls = by_name[node.name]
            parts.append(_class_source(node, cls))
            written.append(cls)
            continue
        if isinstance(node, ast.ClassDef) and node.name == "Fact":
            node.body = [
                s for s in node.body if not (isinstance(s, ast.Assign) and ast.unparse(s.targets[0]) == "__slots__")
            ]
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            continue  # the module's docstring (replaced above)
        parts.append(ast.unparse(node))
    if len(written) != len(facts):
        raise ValueError("engine/facts.py has fact classes not written out (not decorated by @fact at top level?)")
    names = [c.__name__ for c in written]
    parts += [_reader_source(c) for c in written]
    parts.append("FACTS.update({" + ", ".join(f"{c.t!r}: {n}" for c, n in zip(written, names, strict=True)) + "})")
    parts.append(
        "READERS.update({" + ", ".join(f"{c.t!r}: _read_{n}" for c, n in zip(written, names, strict=True)) + "})"
    )
    # a native class keeps neither its docstring (PROTOCOL.md's description) nor its fields'
    # annotations (``typing.get_type_hints``: engine.factdoc types the keys by them): set on it
    for c, n in zip(written, names, strict=True):
        annotations = {f.name: str(f.type) for f in _fields(c)}
        parts.append(f"setattr({n}, '__doc__', {c.__doc__!r})\nsetattr({n}, '__annotations__', {annotations!r})")
    return "\n\n".join(parts) + "\n"


if __name__ == "__main__":
    sys.stdout.write(native_source())
