"""``duel scenario FILE...``: run scenario files (docs/scenario-format.md).

Prints ``PASS name`` or ``FAIL name`` per file, and for a failure the failing
step's index, what was expected and what the engine did; exits 1 if any
failed (2 if a file could not be read). A directory runs every ``*.yaml`` in
it. ``--serve FILE`` starts a match from the file's position for two clients
(a puzzle).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import yaml


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser("scenario", help="run scenario files, or serve one as a puzzle")
    p.add_argument("files", nargs="+", help="scenario files or directories")
    p.add_argument("--serve", action="store_true", help="start a match from the (single) file's position")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8765)
    p.add_argument("-q", "--quiet", action="store_true", help="print failures and the summary only")
    from server.cli.args import add_redis_options

    add_redis_options(p)
    p.set_defaults(func=run)


def expand(paths: list[str]) -> list[Path]:
    out: list[Path] = []
    for p in map(Path, paths):
        out.extend(sorted(p.rglob("*.yaml")) if p.is_dir() else [p])
    return out


def run_files(paths: list[Path], quiet: bool = False) -> int:
    from server.rules import ScenarioError
    from server.rules import run_scenario as run

    failed = 0
    broken = 0
    for path in paths:
        try:
            doc = yaml.safe_load(path.read_text("utf-8"))
            result = run(doc)
        except (OSError, yaml.YAMLError, ScenarioError, KeyError, TypeError) as e:
            print(f"ERROR {path}: {e}")
            broken += 1
            continue
        if result.ok:
            if not quiet:
                print(f"PASS {result.name}")
        else:
            failed += 1
            print(f"FAIL {result.name}")
            print(f"  file: {path}")
            print(f"  {result.failure}")
    total = len(paths)
    print(f"{total - failed - broken} passed, {failed} failed" + (f", {broken} errors" if broken else ""))
    if broken:
        return 2
    return 1 if failed else 0


def run(args: argparse.Namespace) -> int:
    paths = expand(args.files)
    if args.serve:
        if len(paths) != 1:
            print("--serve takes exactly one scenario file", file=sys.stderr)
            return 2
        from server.cli.puzzle import serve_puzzle

        return serve_puzzle(args, paths[0])
    return run_files(paths, args.quiet)
