"""The engine's instructions per repetition of ``bench.engine_work``'s per-action work, counted by
``valgrind --tool=cachegrind``: the measure of an engine change where time is noise (a shared or
busy host). docs/performance.md, "How figures are quoted".

    python -m bench.instructions ROOT [ROOT ...]

Each ROOT is a source tree (a ``git worktree`` of the commit to measure, with its own
``make native`` done for its compiled build); its own ``bench/engine_worker.py`` is run under
cachegrind twice, for one repetition and for three, and the difference over two is one
repetition's instructions, without the start-up and the recording of the duels. The first ROOT
is the baseline the others are quoted against.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

_REFS = re.compile(r"I\s+refs:\s+([\d,]+)")


def instructions(root: Path, rounds: int) -> int:
    """Instructions of ``root``'s engine worker doing ``rounds`` repetitions (and its start)."""
    worker = root / "bench" / "engine_worker.py"
    done = subprocess.run(
        [
            "valgrind",
            "--tool=cachegrind",
            "--cache-sim=no",
            "--cachegrind-out-file=/dev/null",
            sys.executable,
            str(worker),
            str(root),
            "--gc",
            "50000,20,100",
        ],
        input="round\n" * rounds + "quit\n",
        capture_output=True,
        text=True,
        cwd=root,
        check=True,
    )
    found = _REFS.search(done.stderr)
    if found is None:
        raise RuntimeError(f"no instruction count from valgrind:\n{done.stderr[-2000:]}")
    return int(found.group(1).replace(",", ""))


def per_repetition(root: Path) -> int:
    return (instructions(root, 3) - instructions(root, 1)) // 2


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("roots", nargs="+", type=Path)
    args = ap.parse_args(argv)
    base: int | None = None
    for root in args.roots:
        n = per_repetition(root.resolve())
        base = n if base is None else base
        print(f"{root}: {n / 1e6:.1f} M instructions per repetition, {n / base:.3f}x the first", flush=True)


if __name__ == "__main__":
    main()
