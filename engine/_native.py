"""Where the engine's modules come from: compiled by mypyc, or the Python source.

``make native`` (``deploy/build_native.py``) compiles the engine's modules with mypyc into
``var/native/`` and writes the digest of the sources it compiled beside them. When the
``engine`` package is imported, :func:`choose` puts that directory first on the package's
path if the digest still matches the sources (and the build is for this Python), so that
``engine.state`` and the rest load as C extensions; otherwise the Python source runs. Both
are the same program: the compiled modules are the source type-checked by mypy and
translated, and the same logs fold to the same states (``tests/test_native_engine.py``).

``DUEL_ENGINE``: ``native`` (refuse to start without a current build), ``pure`` (never use
it), or unset (use it when current). ``DUEL_NATIVE_DIR``: where the build is (default
``var/native`` beside the package). Not compiled: this module, ``engine/__init__.py`` and
the modules in ``deploy/build_native.py``'s ``INTERPRETED`` list.
"""

from __future__ import annotations

import hashlib
import os
import sys
import warnings
from collections.abc import MutableSequence
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT_DIR = HERE.parent / "var" / "native"
MANIFEST = "engine.sha256"
MODES = ("auto", "native", "pure")


def source_digest(root: Path = HERE) -> str:
    """The digest of the engine's sources (every ``.py`` under the package, by path and
    content) and of the Python that compiles them: what a build is valid for."""
    h = hashlib.sha256(sys.implementation.cache_tag.encode())
    for p in sorted(root.rglob("*.py")):
        h.update(b"\0" + p.relative_to(root).as_posix().encode() + b"\0" + p.read_bytes())
    return h.hexdigest()


def native_dir() -> Path:
    return Path(os.environ.get("DUEL_NATIVE_DIR") or DEFAULT_DIR)


def problem(where: Path) -> str | None:
    """Why the build in ``where`` cannot be used (None: it can)."""
    try:
        built = (where / MANIFEST).read_text("ascii").strip()
    except OSError:
        return f"no compiled engine in {where}"
    if built != source_digest():
        return f"the compiled engine in {where} is older than the sources"
    return None


def choose(package_path: MutableSequence[str]) -> bool:
    """Put the compiled modules first on ``package_path`` (the ``engine`` package's
    ``__path__``) if ``DUEL_ENGINE`` allows and the build is current; True if it did."""
    mode = os.environ.get("DUEL_ENGINE") or "auto"
    if mode not in MODES:
        raise ImportError(f"DUEL_ENGINE={mode!r}: expected one of {', '.join(MODES)}")
    if mode == "pure":
        return False
    where = native_dir()
    why = problem(where)
    if why is None:
        package_path.insert(0, str(where / "engine"))
        if str(where) not in sys.path:
            sys.path.append(str(where))  # the modules' shared library, a top-level module
        return True
    if mode == "native":
        raise ImportError(f"DUEL_ENGINE=native, but {why}: run `make native`")
    if (where / MANIFEST).exists():
        warnings.warn(f"{why}: the engine runs as Python source (`make native` compiles it)", stacklevel=3)
    return False


NATIVE: bool = __name__ == "engine._native" and choose(sys.modules["engine"].__path__)
"""True when the engine's modules are the mypyc-compiled ones (``engine.NATIVE``)."""
