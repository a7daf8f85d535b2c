"""``make test``'s test run: the suite in two pytest processes side by side, then their reports.

Most of the suite's time is spent waiting (on a page, a server, a Redis, a clock), so on a
2-core machine two pytest processes finish well before one. Each process starts its own Redis
(``tests/conftest.py``) and the tests give every match fresh random ids, so the two share
nothing. The shards are split by the time each part takes (``SHARDS``): the browser, engine,
protocol and top-level tests and two fault tests in one; the scenarios, golden logs, server and
other fault tests in the other, which ends with the second pass over the Python source
(``pure_engine`` tests).

The second shard's output is shown as it runs; the first one's report follows it. The exit
status is non-zero when any pytest run failed.

    python deploy/run_suite.py [--serial] [-- extra pytest arguments]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYTEST = [str(ROOT / ".venv" / "bin" / "pytest"), "-p", "no:cacheprovider"]


@dataclass(frozen=True)
class Run:
    """One pytest invocation: its engine build and its arguments."""

    engine: str
    args: tuple[str, ...]


@dataclass(frozen=True)
class Shard:
    """Runs that follow each other in one process slot."""

    name: str
    runs: tuple[Run, ...]


def _top_level_tests() -> list[str]:
    return sorted(str(p.relative_to(ROOT)) for p in (ROOT / "tests").glob("test_*.py"))


MOVED = ("tests/faults/test_fault_redis_kill.py", "tests/faults/test_fault_cluster_failover.py")
"""Fault tests run in the first shard (about 35 s of them), which balances the two."""

SHARDS = (
    Shard(
        "browser+engine",
        (Run("native", ("tests/browser", "tests/engine", "tests/protocol", *_top_level_tests(), *MOVED)),),
    ),
    Shard(
        "server+faults",
        (
            Run(
                "native",
                ("tests/scenarios", "tests/golden", "tests/server", "tests/faults", *(f"--ignore={m}" for m in MOVED)),
            ),
            Run("pure", ("-m", "pure_engine")),
        ),
    ),
)
"""On an idle 2-core machine, side by side: 347 s and 411 s before ``MOVED`` went across."""


def _run_shard(shard: Shard, extra: list[str], out: int | None) -> subprocess.Popen[bytes]:
    """Start the shard's runs one after the other in a shell of their own."""
    steps = []
    for run in shard.runs:
        cmd = [*PYTEST, *run.args, *extra]
        steps.append(f"DUEL_ENGINE={run.engine} " + " ".join(_quote(c) for c in cmd))
    # every run goes on after a failure (the report shows them all); the status is the worst one
    script = "status=0; " + "; ".join(f"{s} || status=1" for s in steps) + "; exit $status"
    return subprocess.Popen(["sh", "-c", script], cwd=ROOT, stdout=out, stderr=subprocess.STDOUT)


def _quote(arg: str) -> str:
    return "'" + arg.replace("'", "'\\''") + "'"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--serial", action="store_true", help="one shard after the other (for a 1-core machine)")
    parser.add_argument("extra", nargs="*", help="more pytest arguments (after --)")
    args = parser.parse_args(argv)
    started = time.monotonic()
    if args.serial:
        status = 0
        for shard in SHARDS:
            status |= _run_shard(shard, args.extra, None).wait()
        return 1 if status else 0
    background, foreground = SHARDS
    with tempfile.TemporaryFile() as report:
        behind = _run_shard(background, args.extra, report.fileno())
        print(f"--- {foreground.name} (shown as it runs; {background.name} runs beside it)", flush=True)
        shown = _run_shard(foreground, args.extra, None).wait()
        hidden = behind.wait()
        report.seek(0)
        print(f"--- {background.name} (ran beside {foreground.name}):", flush=True)
        sys.stdout.buffer.write(report.read())
        sys.stdout.flush()
    took = time.monotonic() - started
    failed = [s.name for s, code in ((foreground, shown), (background, hidden)) if code]
    print(f"--- the suite in {took:.0f} s: " + (f"FAILED in {', '.join(failed)}" if failed else "every shard passed"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
