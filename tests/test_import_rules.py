"""The engine's layers (docs/architecture.md): every engine module sits in one layer and imports
only from its own layer or the layers below it, never upward (issue 36).

Every import statement of every module counts: at the top, inside a function, or under
``if TYPE_CHECKING:``. A type-only import that points upward is allowed only where
``TYPE_ONLY`` names it (the kernel's cache slots name the model's classes they hold). A module
added to the engine must be given a layer here, and in docs/architecture.md.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ENGINE = ROOT / "engine"

LAYERS: list[tuple[str, set[str]]] = [
    (
        "vocabulary",
        {
            "engine.plain",
            "engine.rng",
            "engine.card_data",
            "engine.cards",
            "engine.facts",
            "engine.factdoc",
            "engine.factgen",
            "engine.types",
            "engine.actions",
            "engine.actiondoc",
            "engine.events",
            "engine.decisions",
            "engine.counters",
            "engine.describe",
            "engine.ydk",
            "engine.format_data",
        },
    ),
    ("model", {"engine.state", "engine.kernel.caches", "engine.kernel.interning"}),
    ("formats", {"engine.formats"}),
    (
        "kernel",
        {"engine.kernel", "engine.kernel.fields", "engine.kernel.hashing", "engine.kernel.cow", "engine.kernel.memo"},
    ),
    ("viewer names", {"engine.aliases", "engine.redaction"}),
    ("kept views", {"engine.kernel.views"}),
    ("fold", {"engine.apply", "engine.ctx"}),
    ("card framework", {"engine.effects.base"}),
    ("stats", {"engine.stats"}),
    ("ops", {"engine.ops"}),
    (
        "procedures",
        {
            "engine.battle",
            "engine.battle.start_step",
            "engine.battle.battle_step",
            "engine.battle.damage_step",
            "engine.battle.end_step",
            "engine.chain",
            "engine.main_phase",
            "engine.effects.choices",
            "engine.prompts",
        },
    ),
    ("legal", {"engine.owed", "engine.legal"}),
    ("flow", {"engine.flow", "engine.genesis"}),
    # and every card module (``CARDS`` below)
    ("card API", {"engine.effects.common", "engine.effects.families", "engine.effects.api"}),
    ("decide and view", {"engine.decide", "engine.view"}),
    ("registry", {"engine.effects", "engine.viewpoints", "engine.catalog", "engine.stored"}),
    (
        "api",
        {
            "engine",
            "engine.decks",
            "engine.scenario",
            "engine.scenario_keys",
            "engine.scenario_questions",
            "engine.scenario_setup",
            "engine.deckcheck",
            "engine.deckguess",
            "engine.determinize",
        },
    ),
]
CARDS = "card API"
"""The layer of each card module (``engine/effects/<card>.py``): the card API's."""
FRAMEWORK = {"__init__", "api", "base", "common", "choices"}

TYPE_ONLY = {("engine.kernel.caches", "engine.state")}
"""Upward imports allowed under ``if TYPE_CHECKING:`` only: (importer, imported)."""


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def engine_modules() -> list[Path]:
    return sorted(ENGINE.rglob("*.py"))


def layer_of(module: str) -> int:
    for i, (_, names) in enumerate(LAYERS):
        if module in names:
            return i
    parts = module.split(".")
    if len(parts) == 3 and parts[1] == "effects" and parts[2] not in FRAMEWORK:
        return [name for name, _ in LAYERS].index(CARDS)
    raise KeyError(module)


def _is_module(name: str) -> bool:
    base = ROOT / Path(*name.split("."))
    return base.with_suffix(".py").exists() or (base / "__init__.py").exists()


def _type_checking_nodes(tree: ast.AST) -> set[int]:
    """The ids of the import nodes under ``if TYPE_CHECKING:``."""
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            for inner in node.body:
                for sub in ast.walk(inner):
                    out.add(id(sub))
    return out


def imports(path: Path, source: str | None = None) -> list[tuple[int, str, bool]]:
    """(line, engine module imported, type only) of every import statement of ``path``'s module
    (its source, or ``source``)."""
    module = module_name(path)
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    tree = ast.parse(path.read_text(encoding="utf-8") if source is None else source)
    type_only = _type_checking_nodes(tree)
    out: list[tuple[int, str, bool]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [
                (node.lineno, a.name, id(node) in type_only) for a in node.names if a.name.split(".")[0] == "engine"
            ]
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0:
                base = node.module or ""
            else:
                base = ".".join(package[: len(package) - (node.level - 1)] + ([node.module] if node.module else []))
            if base.split(".")[0] != "engine":
                continue
            for a in node.names:  # ``from engine import flow`` imports the module engine.flow
                sub = f"{base}.{a.name}"
                out.append((node.lineno, sub if _is_module(sub) else base, id(node) in type_only))
    return out


def upward(path: Path, source: str | None = None) -> list[str]:
    """The imports of ``path``'s module that point to a higher layer than its own."""
    module = module_name(path)
    mine = layer_of(module)
    bad = []
    for line, name, type_only in imports(path, source):
        if name == module:
            continue
        theirs = layer_of(name)
        if theirs > mine and not (type_only and (module, name) in TYPE_ONLY):
            bad.append(f"line {line}: {name} ({LAYERS[theirs][0]}) from {LAYERS[mine][0]}")
    return bad


def test_every_engine_module_has_a_layer() -> None:
    missing = []
    for p in engine_modules():
        try:
            layer_of(module_name(p))
        except KeyError:
            missing.append(module_name(p))
    assert not missing, f"give these modules a layer (here and in docs/architecture.md): {missing}"


def test_every_named_module_exists() -> None:
    named = {m for _, names in LAYERS for m in names}
    assert {m for m in named if not _is_module(m)} == set()


@pytest.mark.parametrize("path", engine_modules(), ids=module_name)
def test_no_upward_import(path: Path) -> None:
    bad = upward(path)
    assert not bad, f"{module_name(path)} imports upward: {bad}"


def test_the_engine_has_no_function_local_engine_import() -> None:
    """Imports sit at the top of a module (or under ``TYPE_CHECKING``): a local import was the
    way round an upward one."""
    local = []
    for p in engine_modules():
        tree = ast.parse(p.read_text(encoding="utf-8"))
        for fn in ast.walk(tree):
            if isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
                for node in ast.walk(fn):
                    if isinstance(node, ast.ImportFrom) and (
                        node.level > 0 or (node.module or "").startswith("engine")
                    ):
                        local.append(f"{module_name(p)} line {node.lineno}")
    assert local == []


@pytest.mark.parametrize(
    ("module_path", "line"),
    [
        ("engine/ops.py", "from .flow import go_to_end_phase"),  # ops under flow
        ("engine/ops.py", "from .battle import start_step"),
        ("engine/flow.py", "from .decide import perform"),
        ("engine/stats.py", "from . import ops"),
        ("engine/state.py", "from .kernel.cow import derive"),  # the model under the kernel
        ("engine/kernel/hashing.py", "from ..apply import fold"),
        ("engine/effects/base.py", "from .common import each"),
        ("engine/effects/flashbang.py", "from ..decide import decide"),
        ("engine/legal.py", "import engine.flow"),
    ],
)
def test_an_upward_import_is_caught(module_path: str, line: str) -> None:
    path = ROOT / module_path
    for source in (f"{line}\n", f"def f() -> None:\n    {line}\n", f"if TYPE_CHECKING:\n    {line}\n"):
        assert upward(path, source), (module_path, source)


def test_a_downward_import_is_allowed() -> None:
    assert upward(ENGINE / "flow.py", "from .ops import draw\nfrom .legal import legal_actions\n") == []
    assert upward(ENGINE / "kernel" / "caches.py", "if TYPE_CHECKING:\n    from ..state import Card\n") == []


IMPURE = {"random", "time", "datetime", "os", "socket", "asyncio", "secrets", "uuid", "subprocess"}
"""Standard modules an engine module must not import: I/O, the clock, global randomness (the
engine draws from ``engine.rng``: the duel state's PRNG, or a seeded ``Draws``)."""


def impure_imports(source: str) -> list[str]:
    """The modules of ``IMPURE`` that ``source`` imports."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [a.name for a in node.names if a.name.split(".")[0] in IMPURE]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module.split(".")[0] in IMPURE:
                found.append(node.module)
    return found


def test_the_engine_imports_no_clock_io_or_global_random() -> None:
    assert impure_imports("import random\nfrom time import monotonic\nfrom .rng import Draws") == ["random", "time"]
    bad = {module_name(p): found for p in engine_modules() if (found := impure_imports(p.read_text(encoding="utf-8")))}
    assert not bad, f"engine modules must stay pure: {bad}"
