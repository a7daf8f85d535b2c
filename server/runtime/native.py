"""Where the engine's modules come from: compiled by mypyc, or the Python source.

``make native`` (``deploy/build_native.py``) compiles the engine's modules with mypyc into
``var/native/`` and writes beside them the digest of the sources it compiled. The engine
itself does no I/O, so the choice is made here, at the edge: :func:`install` puts a finder
first on ``sys.meta_path`` that, when the ``engine`` package is imported, puts the compiled
modules first on its path if the digest still matches that package's sources (and the build
is for this Python); ``engine.state`` and the rest then load as C extensions, otherwise the
Python source runs. ``server/__init__.py`` installs it, so the server, the ``duel`` commands,
the tests and the benchmarks get it before they import the engine. Both are the same program
(``tests/test_native_engine.py``); ``engine.NATIVE`` says which one runs.

``DUEL_ENGINE``: ``native`` (refuse to import the engine without a current build), ``pure``
(never use it), or unset (use it when current). ``DUEL_NATIVE_DIR``: where the build is
(default ``var/native`` in the repository). Not compiled: ``engine/__init__.py`` and the
modules in :data:`INTERPRETED`.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import os
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

REPO = Path(__file__).resolve().parents[2]
DEFAULT_DIR = REPO / "var" / "native"
MANIFEST = "engine.sha256"
MODES = ("auto", "native", "pure")

INTERPRETED: frozenset[str] = frozenset(
    {
        "__init__.py",
        "actiondoc.py",
        "actions.py",  # its dataclasses' ClassVar DO: compiled, dataclasses took it for a field
        "cards.py",
        "factdoc.py",
        "factgen.py",
        "format_data.py",  # reads the formats' data files beside its source, as cards.py does
        "scenario.py",
        "scenario_keys.py",
        "scenario_questions.py",
        "scenario_setup.py",
    }
)
"""Top-level engine modules ``make native`` keeps as source (a subpackage is compiled whole or not
at all: its ``__path__`` is the directory its ``__init__`` came from). Part of what a build is
valid for (:func:`source_digest`): a module moved in or out of this set needs a new build."""


def source_digest(root: Path) -> str:
    """The digest of an engine's sources (every ``.py`` under the package ``root``, by path
    and content), of the Python that compiles them and of the modules kept as source
    (:data:`INTERPRETED`): what a build is valid for."""
    h = hashlib.sha256(sys.implementation.cache_tag.encode())
    h.update(b"\0".join(name.encode() for name in sorted(INTERPRETED)))
    for p in sorted(root.rglob("*.py")):
        h.update(b"\0" + p.relative_to(root).as_posix().encode() + b"\0" + p.read_bytes())
    return h.hexdigest()


def native_dir() -> Path:
    return Path(os.environ.get("DUEL_NATIVE_DIR") or DEFAULT_DIR)


def problem(where: Path, sources: Path) -> str | None:
    """Why the build in ``where`` cannot stand for the engine in ``sources`` (None: it can)."""
    try:
        built = (where / MANIFEST).read_text("ascii").strip()
    except OSError:
        return f"no compiled engine in {where}"
    if built != source_digest(sources):
        return f"the compiled engine in {where} is older than the sources"
    return None


def mode() -> str:
    chosen = os.environ.get("DUEL_ENGINE") or "auto"
    if chosen not in MODES:
        raise ImportError(f"DUEL_ENGINE={chosen!r}: expected one of {', '.join(MODES)}")
    return chosen


class _EngineFinder(importlib.abc.MetaPathFinder):
    """Finds the ``engine`` package as the other finders do, then puts the compiled modules
    first on its path when the build matches the sources found."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname != "engine" or mode() == "pure":
            return None
        spec = None
        for finder in sys.meta_path:
            if finder is not self and hasattr(finder, "find_spec"):
                spec = finder.find_spec(fullname, path, target)
                if spec is not None:
                    break
        if spec is None or not spec.submodule_search_locations:
            return spec
        where = native_dir()
        why = problem(where, Path(spec.submodule_search_locations[0]))
        if why is None:
            spec.submodule_search_locations.insert(0, str(where / "engine"))
            if str(where) not in sys.path:
                sys.path.append(str(where))  # the modules' shared library, a top-level module
        elif mode() == "native":
            raise ImportError(f"DUEL_ENGINE=native, but {why}: run `make native`")
        elif (where / MANIFEST).exists():
            warnings.warn(f"{why}: the engine runs as Python source (`make native` compiles it)", stacklevel=2)
        return spec


def install() -> None:
    """Install the finder (once), before anything imports the engine."""
    if not any(isinstance(f, _EngineFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, _EngineFinder())
