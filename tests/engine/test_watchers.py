"""``Script.watch_on``: ``raise_event`` calls a card's ``watch`` only for the event kinds it
names, so those must be every kind the function looks at. Checked on the card modules'
source: each ``watch`` function compares the event's kind with ``EventKind`` members, and the
script registered with it names exactly those kinds."""

from __future__ import annotations

import ast
from pathlib import Path

from engine.effects.base import SCRIPTS
from engine.ops import script_tables
from engine.types import EventKind

EFFECTS = Path(__file__).resolve().parents[2] / "engine" / "effects"


def _is_kind(node: ast.expr) -> bool:
    """``ev.get("kind")``, ``ev["kind"]`` or a name ``kind`` (``kind = ev.get("kind")``)."""
    if isinstance(node, ast.Name):
        return node.id == "kind"
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get":
        return bool(node.args) and isinstance(node.args[0], ast.Constant) and node.args[0].value == "kind"
    if isinstance(node, ast.Subscript):
        return isinstance(node.slice, ast.Constant) and node.slice.value == "kind"
    return False


def _kind(node: ast.expr) -> str | None:
    """The event kind ``node`` names: a member ``EventKind.X`` (or a plain string)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "EventKind":
        return EventKind[node.attr].value
    return None


def _strings(node: ast.expr) -> set[str]:
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return {k for e in node.elts if (k := _kind(e)) is not None}
    k = _kind(node)
    return set() if k is None else {k}


def compared_kinds(fn: ast.FunctionDef) -> set[str]:
    """The string constants ``fn`` compares the event's kind with."""
    out: set[str] = set()
    for node in ast.walk(fn):
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            if any(_is_kind(o) for o in operands):
                for o in operands:
                    out |= _strings(o)
    return out


def _module(path: Path) -> tuple[dict[str, ast.FunctionDef], dict[str, ast.expr]]:
    """A module's top-level functions and the values of its top-level names."""
    tree = ast.parse(path.read_text("utf-8"))
    functions = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
    names = {
        t.id: n.value for n in tree.body if isinstance(n, ast.Assign) for t in n.targets if isinstance(t, ast.Name)
    }
    for n in tree.body:  # ``NAME: Final = ...``
        if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name) and n.value is not None:
            names[n.target.id] = n.value
    return functions, names


def declared() -> dict[str, tuple[set[str], set[str]]]:
    """Per card module with a watcher: (the kinds its ``watch_on`` names, the kinds its ``watch``
    function compares with). A watcher shared in ``families`` (the Spirit monsters' ``spirit_watch``
    with ``SPIRIT_WATCH_ON``) is read there."""
    out: dict[str, tuple[set[str], set[str]]] = {}
    shared_functions, shared_names = _module(EFFECTS / "families.py")
    for path in sorted(EFFECTS.glob("*.py")):
        tree = ast.parse(path.read_text("utf-8"))
        functions = {**shared_functions, **{n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}}
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "Script"):
                continue
            keywords = {k.arg: k.value for k in node.keywords}
            watch = keywords.get("watch")
            if not isinstance(watch, ast.Name):
                continue
            on = keywords.get("watch_on")
            if isinstance(on, ast.Name):
                on = shared_names.get(on.id)
            named: set[str] = set()
            if isinstance(on, ast.Call) and on.args:
                named = _strings(on.args[0])
            out[path.stem] = (named, compared_kinds(functions[watch.id]))
    return out


def test_every_watcher_names_exactly_the_kinds_it_compares_with() -> None:
    found = declared()
    assert len(found) >= 13
    for module, (named, compared) in found.items():
        assert compared, f"{module}: its watch function compares no event kind"
        assert named == compared, f"{module}: watch_on {sorted(named)}, the function looks at {sorted(compared)}"


def test_raise_event_visits_a_watcher_for_its_kinds_only() -> None:
    tables = script_tables()
    watchers = {code: sc for code, sc in SCRIPTS.items() if sc.watch is not None}
    assert len(watchers) >= 13 and all(sc.watch_on for sc in watchers.values())
    assert tables.watch_all == frozenset()
    for kind, codes in tables.watching.items():
        assert codes == {code for code, sc in watchers.items() if kind in sc.watch_on}
        assert tables.watch_keys[kind] == ("watching", kind)
    assert set(tables.watching) == {k for sc in watchers.values() for k in sc.watch_on}


def test_the_check_sees_each_way_of_comparing_a_kind() -> None:
    src = (
        "def w(ctx, card, ev):\n"
        "    kind = ev.get('kind')\n"
        "    if ev.get('kind') != 'a' or ev['kind'] in ('b', 'c'):\n"
        "        return\n"
        "    if kind == 'd' and ev.get('reason') == 'not_a_kind':\n"
        "        pass\n"
    )
    fn = ast.parse(src).body[0]
    assert isinstance(fn, ast.FunctionDef)
    assert compared_kinds(fn) == {"a", "b", "c", "d"}
