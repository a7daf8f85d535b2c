"""The server's layers (docs/architecture.md, "Server"), read from the sources: every import
statement, at the top of a module or inside a function, ``TYPE_CHECKING`` ones included.

- ``server/rules.py`` is the one server module that imports the engine; the clients package
  imports none of it (the words it shows are ``protocol/words.py``, a generated copy, and the
  effect labels come with the server's catalogue), but for the search bot
  (``server/clients/search/``, which thinks with it);
- ``protocol/`` imports nothing from ``server`` or the engine (``protocol/actions.py`` is a
  copy of the engine's action kinds made by ``engine.actiondoc``, checked by a test);
- each server package imports only the packages below it (:data:`MAY_IMPORT`); the clients
  package imports no other server package;
- the server's modules live in its packages: at the top of ``server/`` only ``__init__`` and
  ``rules``.
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SERVER = ROOT / "server"

MAY_IMPORT: dict[str, frozenset[str]] = {
    "runtime": frozenset(),
    "rules": frozenset(),
    "clients": frozenset(),
    "storage": frozenset({"rules"}),
    "match": frozenset({"rules", "runtime", "storage"}),
    "history": frozenset({"rules", "runtime", "storage", "match"}),
    "lobby": frozenset({"rules", "runtime", "storage", "match", "clients"}),
    "accounts": frozenset({"rules", "runtime", "storage", "match"}),
    "process": frozenset({"rules", "runtime", "storage", "match", "history", "lobby", "clients", "accounts"}),
    "cli": frozenset({"rules", "runtime", "storage", "match", "history", "lobby", "clients", "process", "accounts"}),
    "__init__": frozenset({"runtime"}),
}
"""The server packages each server package may import (besides itself and ``protocol``)."""

CLIENTS_MAY_IMPORT_FROM_ENGINE: frozenset[str] = frozenset()
THINKING_CLIENTS: tuple[str, ...] = ("clients/search/",)
"""Clients that carry the rules engine to think with (the search bot, docs/search.md): it searches
worlds it builds from its view alone, and is given no more than any client (a test of no
peeking: tests/server/test_search_bot.py). The other clients load no engine module."""
PROTOCOL_MAY_IMPORT_FROM_ENGINE: frozenset[str] = frozenset()


def imports(path: Path) -> Iterator[tuple[int, str]]:
    """(line, dotted name) of everything ``path`` imports; ``from server import rules`` is
    ``server.rules``."""
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom) and node.module is not None and node.level == 0:
            if node.module in ("server", "engine"):
                for alias in node.names:
                    yield node.lineno, f"{node.module}.{alias.name}"
            else:
                yield node.lineno, node.module


def package_of(path: Path, server: Path = SERVER) -> str:
    """``server/match/live.py`` -> ``match``; ``server/rules.py`` -> ``rules``."""
    parts = path.relative_to(server).parts
    return parts[0] if len(parts) > 1 else parts[0].removesuffix(".py")


def engine_imports(server: Path) -> list[str]:
    """Imports of the engine by server modules other than the rules module (and the clients'
    allowed ones)."""
    found = []
    for path in sorted(server.rglob("*.py")):
        package = package_of(path, server)
        for line, name in imports(path):
            if name != "engine" and not name.startswith("engine."):
                continue
            if package == "rules":
                continue
            if path.relative_to(server).as_posix().startswith(THINKING_CLIENTS):
                continue
            if package == "clients" and any(
                name == allowed or name.startswith(allowed + ".") for allowed in CLIENTS_MAY_IMPORT_FROM_ENGINE
            ):
                continue
            found.append(f"{path.relative_to(server.parent)}:{line}: {name}")
    return found


def layer_breaks(server: Path) -> list[str]:
    """Imports of a server package by a package not above it (:data:`MAY_IMPORT`)."""
    found = []
    for path in sorted(server.rglob("*.py")):
        package = package_of(path, server)
        allowed = MAY_IMPORT.get(package)
        if allowed is None:
            found.append(f"{path.relative_to(server.parent)}: a package the layer rules do not know")
            continue
        for line, name in imports(path):
            parts = name.split(".")
            if parts[0] == "server" and len(parts) > 1 and parts[1] != package and parts[1] not in allowed:
                found.append(f"{path.relative_to(server.parent)}:{line}: {package} imports {name}")
    return found


def test_the_rules_module_is_the_one_server_module_that_imports_the_engine() -> None:
    found = engine_imports(SERVER)
    assert not found, "server modules that import the engine (go through server.rules):\n" + "\n".join(found)


def test_protocol_imports_no_server_and_only_the_action_table_of_the_engine() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{line}: {name}"
        for path in sorted((ROOT / "protocol").rglob("*.py"))
        for line, name in imports(path)
        if name.split(".")[0] == "server"
        or (name.split(".")[0] == "engine" and name not in PROTOCOL_MAY_IMPORT_FROM_ENGINE)
    ]
    assert not found, "protocol modules that import the server or the engine:\n" + "\n".join(found)


def test_each_server_package_imports_only_the_packages_below_it() -> None:
    found = layer_breaks(SERVER)
    assert not found, "imports against the layers (docs/architecture.md):\n" + "\n".join(found)


def test_the_server_modules_live_in_its_packages() -> None:
    loose = sorted(p.name for p in SERVER.glob("*.py"))
    assert loose == ["__init__.py", "rules.py"]


def test_the_checks_find_a_module_that_breaks_the_rules(tmp_path: Path) -> None:
    """The checks see what they are meant to: in a server tree with a storage module that imports
    the engine and (inside a function) the match package, a client that imports the rules
    module, and a package nobody placed, each break is found, and the allowed imports are not."""
    server = tmp_path / "server"
    for name, text in {
        "storage/bad.py": "from engine.state import State\n\ndef f() -> None:\n    from server.match import live\n",
        "storage/good.py": "from server import rules\nfrom protocol.codec import pack\n",
        "clients/ok.py": "from protocol.words import END_REASONS\n",
        "clients/peeks.py": "from engine.describe import END_REASONS\n",
        "clients/search/thinks.py": "from engine import decide_state\n",
        "clients/leaky.py": "from server.rules import State\n",
        "stray/x.py": "import os\n",
    }.items():
        (server / name).parent.mkdir(parents=True, exist_ok=True)
        (server / name).write_text(text)
    assert engine_imports(server) == [
        "server/clients/peeks.py:1: engine.describe",
        "server/storage/bad.py:1: engine.state",
    ]
    assert layer_breaks(server) == [
        "server/clients/leaky.py:1: clients imports server.rules",
        "server/storage/bad.py:4: storage imports server.match",
        "server/stray/x.py: a package the layer rules do not know",
    ]


def test_the_clients_run_without_the_engine() -> None:
    """The protocol client, the bots (policies and the player that runs them), the load tool and
    the terminal client load no engine module at all: they name actions by ``protocol.actions``
    and phases by ``protocol.words``."""
    code = (
        "import sys\n"
        "import server.clients.client, server.clients.load, server.clients.bot, server.clients.bot_player\n"
        "import server.clients.terminal.render, server.clients.terminal.lists, server.clients.terminal.cards\n"
        "print(sorted(m for m in sys.modules if m == 'engine' or m.startswith('engine.')))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
