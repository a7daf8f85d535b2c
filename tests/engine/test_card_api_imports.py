"""Card modules reach the engine through one module, the card API (issues 12 and 36;
docs/cards-howto.md).

Every card module in ``engine/effects/`` (one per card or card family) may import only
``engine.effects.api`` (which hands on the model, the card data, the facts a card emits, the
effect framework of ``base``, the game actions of ``ops``, the checks of ``stats`` and the shared
helpers of ``common``), plus the standard library. Never another card module, never ``ops``,
``common`` or ``choices`` directly, never an engine internal (``flow``, ``chain``, ``battle``,
``ctx``, ``rng`` ...). Every import statement counts, also one inside a function or an
``if TYPE_CHECKING:`` block.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

EFFECTS = Path(__file__).resolve().parents[2] / "engine" / "effects"
# the framework itself, not card modules
FRAMEWORK = {"__init__.py", "api.py", "base.py", "common.py", "families.py", "choices.py"}
ALLOWED = {"engine.effects.api"}


def card_modules() -> list[Path]:
    return sorted(p for p in EFFECTS.glob("*.py") if p.name not in FRAMEWORK)


def _absolute(node: ast.ImportFrom) -> str:
    """The absolute name of a ``from ... import`` in a module of ``engine.effects``."""
    if node.level == 0:
        return node.module or ""
    base = ["engine", "effects"][: 3 - node.level]  # level 1: engine.effects, level 2: engine
    return ".".join([*base, *([node.module] if node.module else [])])


def violations(source: str) -> list[str]:
    """The imports of a card module's source that the card API does not allow."""
    out: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] not in sys.stdlib_module_names:
                    out.append(f"line {node.lineno}: import {alias.name}")
        elif isinstance(node, ast.ImportFrom):
            name = _absolute(node)
            top = name.split(".")[0]
            if node.level == 0 and (top in sys.stdlib_module_names or name == "__future__"):
                continue
            if name == "engine" or name == "engine.effects":
                # ``from .. import ops`` / ``from . import common``: judge each imported module
                for alias in node.names:
                    if f"{name}.{alias.name}" not in ALLOWED:
                        out.append(f"line {node.lineno}: from {name} import {alias.name}")
                continue
            if name not in ALLOWED:
                out.append(f"line {node.lineno}: from {name} import ...")
    return out


def test_there_are_card_modules() -> None:
    assert len(card_modules()) > 50


@pytest.mark.parametrize("path", card_modules(), ids=lambda p: p.stem)
def test_card_module_imports_only_the_card_api(path: Path) -> None:
    bad = violations(path.read_text(encoding="utf-8"))
    assert not bad, f"{path.name} imports outside the card API: {bad}"


@pytest.mark.parametrize(
    "line",
    [
        "from .hydrogeddon import destroyed_by_this",  # another card module
        "from .choices import ask_cards",  # through the API only
        "from .common import each",
        "from ..ops import destroy",
        "from ..stats import atk",
        "from ..state import Card",
        "from engine.facts import Flag",
        "from ..ctx import Ctx",  # an engine internal (common hands it on)
        "from ..flow import go_to_end_phase",
        "from ..battle import start_step",
        "from engine.chain import activate",
        "from engine import flow",
        "from .. import rng",
        "import engine.decide",
        "import msgpack",
    ],
)
def test_a_violating_import_is_caught(line: str) -> None:
    source = f"from __future__ import annotations\n\ndef f() -> None:\n    {line}\n"
    assert violations(source), line
    assert violations(line + "\n"), line


def test_the_card_api_is_allowed() -> None:
    source = "\n".join(
        [
            "from __future__ import annotations",
            "from collections.abc import Callable",
            "from typing import TYPE_CHECKING, Any",
            "import itertools",
            "from .api import Card, Ctx, Effect, ask_cards, atk, by_name, destroy",
            "from engine.effects.api import damage",
            "from . import api",
        ]
    )
    assert violations(source) == []


@pytest.mark.parametrize("name", ["api.py", "base.py", "common.py", "families.py", "choices.py"])
def test_the_card_api_depends_on_no_card_module(name: str) -> None:
    """``api`` and the framework behind it (``base``, ``common``, ``families``, ``choices``) never
    import a card's module (a helper two cards share lives in ``common`` or ``families``)."""
    framework = {p[: -len(".py")] for p in FRAMEWORK}
    tree = ast.parse((EFFECTS / name).read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            assert (node.module or "") in framework, f"{name} imports .{node.module}"
