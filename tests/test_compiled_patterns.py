"""What the compiled engine must not lose to a later edit (rule 1 of
docs/adr/0008-compiled-engine.md, "The rules for compiled code", the one place that states them
all): module constants read as C statics, not looked up in the module's dict at every read, and
constant tuples kept as one object, not boxed anew at every read.

mypyc compiles a module-level name without ``Final`` to a lookup in the module's globals
dict at each read, and a ``Final`` fixed-length tuple (``tuple[str]``, inferred from
``("stats",)``) to an unboxed C struct that becomes a new tuple object each time it is
read: a dict key built, hashed and compared at every use. Measured with callgrind over the
recorded duels (2026-11-25), these and the other patterns the ADR lists were 17 % of the
instructions of the engine's work per action.
"""

from __future__ import annotations

import ast
import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _interpreted() -> set[str]:
    spec = importlib.util.spec_from_file_location("build_native", ROOT / "deploy" / "build_native.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    names: set[str] = module.INTERPRETED
    return names


def compiled_sources() -> list[Path]:
    """The engine modules ``make native`` compiles (deploy/build_native.py's rule)."""
    skip = _interpreted()
    out = []
    for p in sorted((ROOT / "engine").rglob("*.py")):
        rel = p.relative_to(ROOT)
        if len(rel.parts) == 2 and rel.name in skip:
            continue
        out.append(p)
    return out


def _is_constant_name(name: str) -> bool:
    bare = name.lstrip("_")
    return bool(bare) and bare[0].isalpha() and bare.upper() == bare


def _final_of(annotation: ast.expr | None) -> tuple[bool, ast.expr | None]:
    """Whether ``annotation`` is ``Final``, and the type inside ``Final[...]`` (None if bare)."""
    if isinstance(annotation, ast.Name) and annotation.id == "Final":
        return True, None
    if isinstance(annotation, ast.Subscript) and isinstance(annotation.value, ast.Name):
        if annotation.value.id == "Final":
            return True, annotation.slice
    return False, None


def _is_fixed_tuple(t: ast.expr | None, value: ast.expr) -> bool:
    """Would mypyc keep this constant as an unboxed fixed-length tuple?"""
    if t is None:
        return isinstance(value, ast.Tuple)
    if isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name) and t.value.id == "tuple":
        elts = t.slice.elts if isinstance(t.slice, ast.Tuple) else [t.slice]
        return not any(isinstance(e, ast.Constant) and e.value is Ellipsis for e in elts)
    return False


def constants(path: Path) -> list[tuple[int, str, ast.expr | None, ast.expr]]:
    """(line, name, annotation, value) of each module-level assignment to a constant's name."""
    out: list[tuple[int, str, ast.expr | None, ast.expr]] = []
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
            out.append((node.lineno, node.target.id, node.annotation, node.value))
        elif isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            out.append((node.lineno, node.targets[0].id, None, node.value))
    return [c for c in out if _is_constant_name(c[1])]


def _is_typevar(value: ast.expr) -> bool:
    return isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "TypeVar"


def test_the_compiled_modules_are_found() -> None:
    names = {p.relative_to(ROOT).as_posix() for p in compiled_sources()}
    assert {"engine/view.py", "engine/state.py", "engine/effects/base.py"} <= names
    # the fact classes are compiled as engine.factgen writes them out (deploy/build_native.py)
    assert "engine/facts.py" in names and "engine/factgen.py" not in names


def test_module_constants_of_compiled_modules_are_final() -> None:
    loose = [
        f"{p.relative_to(ROOT)}:{line} {name}"
        for p in compiled_sources()
        for line, name, annotation, value in constants(p)
        if not _final_of(annotation)[0] and not _is_typevar(value)
    ]
    assert not loose, f"module constants without Final (a globals lookup per read when compiled): {loose}"


def test_no_final_constant_is_a_fixed_length_tuple() -> None:
    boxed = [
        f"{p.relative_to(ROOT)}:{line} {name}"
        for p in compiled_sources()
        for line, name, annotation, value in constants(p)
        if _final_of(annotation)[0] and _is_fixed_tuple(_final_of(annotation)[1], value)
    ]
    assert not boxed, f"Final fixed-length tuples (a new tuple object per read when compiled): {boxed}"


def test_the_checks_catch_what_they_look_for(tmp_path: Path) -> None:
    """Each check fails on the pattern it is there to catch."""
    src = tmp_path / "m.py"
    src.write_text(
        "from typing import Final\n"
        "A = 1\n"
        "B: Final = ('x',)\n"
        "C: Final[tuple[str, ...]] = ('x',)\n"
        "D: Final[tuple[str, int]] = ('x', 1)\n"
        "E: Final[object] = ('x',)\n"
    )
    found = {name: (annotation, value) for _, name, annotation, value in constants(src)}
    assert not _final_of(found["A"][0])[0]
    fixed = {n for n, (a, v) in found.items() if _final_of(a)[0] and _is_fixed_tuple(_final_of(a)[1], v)}
    assert fixed == {"B", "D"}
