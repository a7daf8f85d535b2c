"""Compile the rules engine with mypyc into ``var/native/`` (``make native``).

The engine is written in typed Python (``mypy --strict``); mypyc translates its modules into
C extensions, which ``server/runtime/native.py`` loads in place of the source when the build is
current. What it bought is in docs/performance-log/2026-11-24-08-engine-compiled-with-mypyc.md
and ADR 0008.

    python deploy/build_native.py            # into var/native (DUEL_NATIVE_DIR to change)
    python deploy/build_native.py --if-stale # only if the build does not match the sources
    python deploy/build_native.py --check    # exit 1 unless the build is current

Modules left as Python (``INTERPRETED``): the package's ``__init__`` (the package is found
as source; ``server/runtime/native.py`` then puts the compiled modules first on its path), the card
data loader (it reads ``data/`` beside its source), the scenario runner, the fact table
generator and the fact classes' writer (tools, not the live path).

The fact classes are compiled from ``engine.factgen``'s written-out form of ``engine/facts.py``
(that module's classes make their readers and writers at import, which mypyc cannot
compile): the sources are staged in ``var/native-build/src`` with that form as
``engine/facts.py``, and compiled from there. A build is current while ``engine/``'s sources,
the writer among them, are those it was built from.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import shutil
import sys
import sysconfig
import time
import warnings
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
ENGINE = ROOT / "engine"


def _load_native() -> ModuleType:
    """``server/runtime/native.py`` on its own (importing the ``server`` package would install its
    finder and import nothing else we need)."""
    spec = importlib.util.spec_from_file_location("duel_engine_native", ROOT / "server" / "runtime" / "native.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_native = _load_native()

INTERPRETED = _native.INTERPRETED


def sources() -> list[str]:
    out = []
    for p in sorted((ROOT / "engine").rglob("*.py")):
        rel = p.relative_to(ROOT)
        if len(rel.parts) == 2 and rel.name in INTERPRETED:
            continue
        out.append(rel.as_posix())
    return out


def _stage(stage: Path) -> Path:
    """The engine's sources copied into ``stage``, ``engine/facts.py`` as ``engine.factgen``
    writes it out. Files whose content did not change keep their time (mypyc's C and the
    compiler's objects are kept between builds by content)."""
    sys.path.insert(0, str(ROOT))  # this tree's engine, as source (no finder installed here)
    from engine.factgen import native_source

    wanted: dict[Path, bytes] = {}
    for p in sorted(ENGINE.rglob("*.py")):
        wanted[stage / p.relative_to(ROOT)] = p.read_bytes()
    wanted[stage / "engine" / "facts.py"] = native_source().encode("utf-8")
    for p in sorted(stage.rglob("*.py")) if stage.exists() else []:
        if p not in wanted:
            p.unlink()
    for p, data in wanted.items():
        if not p.exists() or p.read_bytes() != data:
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_bytes(data)
    return stage


def _workers() -> int:
    """The cores this process may run on."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def _compile_objects_in_parallel() -> None:
    """Compile an extension's C files side by side, one per core.

    mypyc puts every compiled module in one shared library (one extension of ~270 C files), and
    setuptools' ``build_ext -j`` only builds separate extensions side by side, so that library
    compiled one file after another on one core. This replaces the compiler's loop over the
    object files (``CCompiler.compile``, whose steps it keeps: ``_setup_compile``, then
    ``_compile`` per object) with a thread pool: each ``_compile`` waits on its own ``gcc``.
    Left alone if the compiler class does not have those steps."""
    from concurrent.futures import ThreadPoolExecutor

    from setuptools._distutils import ccompiler

    base = ccompiler.CCompiler
    if not all(hasattr(base, name) for name in ("_setup_compile", "_get_cc_args", "_compile")):
        return

    def compile_all(
        self: Any,
        sources: list[str],
        output_dir: str | None = None,
        macros: Any = None,
        include_dirs: Any = None,
        debug: int = 0,
        extra_preargs: Any = None,
        extra_postargs: Any = None,
        depends: Any = None,
    ) -> list[str]:
        macros, objects, extra_postargs, pp_opts, todo = self._setup_compile(
            output_dir, macros, include_dirs, sources, depends, extra_postargs
        )
        cc_args = self._get_cc_args(pp_opts, debug, extra_preargs)

        def one(obj: str) -> None:
            if obj in todo:
                src, ext = todo[obj]
                self._compile(obj, src, ext, cc_args, extra_postargs, pp_opts)

        # the biggest files first, so that the last one does not start alone
        order = sorted(objects, key=lambda o: -os.path.getsize(todo[o][0]) if o in todo else 0)
        with ThreadPoolExecutor(_workers()) as pool:
            list(pool.map(one, order))
        return list(objects)

    setattr(base, "compile", compile_all)  # noqa: B010 - a method replaced on the class


def build(where: Path) -> None:
    """Compile into a new directory beside ``where``, then put it in ``where``'s place: a
    process importing the engine meanwhile finds the old build or none (then the source), never
    half of one. The generated C, the object files and the extensions stay in ``<where>-build``
    between builds, so that a rebuild compiles only the modules that changed; the extensions of
    this build's modules (and no others: not those of a module since deleted) are copied."""
    from mypyc.build import mypycify
    from setuptools import setup

    digest = _native.source_digest(ENGINE)
    cache = where.parent / f"{where.name}-build"
    new = where.parent / f"{where.name}.new"
    old = where.parent / f"{where.name}.old"
    shutil.rmtree(new, ignore_errors=True)
    new.mkdir(parents=True)
    stage = _stage(cache / "src")
    os.chdir(stage)  # mypyc names modules by their path from here
    # setuptools reads pyproject.toml from here and calls its [tool.setuptools] table "beta"
    warnings.filterwarnings("ignore", message=".*tool.setuptools.*")
    print("compiling the rules engine with mypyc (about a minute the first time) ...", flush=True)
    started = time.monotonic()
    modules: list[Any] = mypycify(sources(), opt_level="3", multi_file=True, target_dir=str(cache / "c"))
    lib, tmp = str(cache / "lib"), str(cache / "tmp")
    codegen = time.monotonic() - started
    _compile_objects_in_parallel()
    setup(
        name="duel-engine-native",
        ext_modules=modules,
        script_args=["-q", "build_ext", "-j", str(_workers()), "--build-lib", lib, "--build-temp", tmp],
    )
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    for ext in modules:
        built = Path(*ext.name.split(".")).with_name(ext.name.split(".")[-1] + suffix)
        (new / built).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(cache / "lib" / built, new / built)
    (new / _native.MANIFEST).write_text(digest + "\n", "ascii")
    shutil.rmtree(old, ignore_errors=True)
    if where.exists():
        where.rename(old)
    new.rename(where)
    shutil.rmtree(old, ignore_errors=True)
    took = time.monotonic() - started
    print(f"engine compiled with mypyc into {where} ({len(modules)} extensions, {took:.0f} s; mypyc {codegen:.0f} s)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 unless the build is current")
    parser.add_argument("--if-stale", action="store_true", help="build only if the build is not current")
    args = parser.parse_args()
    where = _native.native_dir().resolve()
    if args.if_stale and _native.problem(where, ENGINE) is None:
        return 0
    if args.check:
        why = _native.problem(where, ENGINE)
        print(why or f"the compiled engine in {where} is current")
        return 1 if why else 0
    build(where)
    return 0


if __name__ == "__main__":
    sys.exit(main())
