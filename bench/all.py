"""``make bench``: every benchmark, one after another, printed as it runs, and their output
written into docs/performance.md between the ``bench:start`` / ``bench:end`` markers (with
the date and the machine), so that the figures there are always the last full run.

    .venv/bin/python -m bench.all [--quick]     # --quick: fewer rounds, smaller sizes
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import platform
import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DOC = REPO / "docs" / "performance.md"
START, END = "<!-- bench:start -->", "<!-- bench:end -->"

FULL: list[tuple[str, list[str]]] = [
    ("engine work and log folding vs the engine before issue 12", ["bench.engine_work"]),
    (
        "the server vs the bare pipeline (websockets + msgpack + one Redis append; frames and entries of the "
        "real ones' sizes, the server's Redis client)",
        ["bench.throughput"],
    ),
    # after bench.throughput: its bare pipeline is made the size bench.throughput measured (bare_shape)
    ("the engine against the bare pipeline, round by round (issue 12)", ["bench.engine_share"]),
    ("the server vs boardgame.io (as many long-lived matches on each side)", ["bench.peer"]),
    ("garbage collector: tuned vs CPython's settings", ["bench.gc"]),
    ("Redis memory per finished duel", ["bench.redis_memory"]),
    ("loading long matches, views at any seq", ["bench.replays"]),
    ("the search bot against greedy and random-legal (issue 40)", ["bench.search_strength", "--budget", "0.1"]),
]
QUICK_ARGS = {
    "bench.engine_share": ["--rounds", "3"],
    # every level still in 3 rounds, A/B interleaved, so that each has a range (issue 41)
    "bench.throughput": ["--rounds", "3", "--duels", "200", "--seconds", "8", "--hold", "200,1000,2000"],
    "bench.peer": ["--rounds", "3", "--matches", "200", "--seconds", "8"],
    "bench.gc": ["--rounds", "2", "--duels", "100", "--hold", "300", "--seconds", "8"],
    "bench.redis_memory": ["--duels", "20"],
    "bench.search_strength": ["--duels", "40", "--random-duels", "8"],
}


ENGINE_SHARE_TARGET = 1 / 3
"""Issue 12: engine work per accepted action at most this share of the bare pipeline's server CPU per
action, measured in the same run."""

_ENGINE = re.compile(r"new engine\s+([0-9.]+) us per action")
_BARE = re.compile(r"server CPU per action: real [0-9.]+ ms, bare ([0-9.]+) ms")
_SHAPE = re.compile(r"update frames of (\d+) bytes and appended entries of (\d+) bytes")
_SHARE = re.compile(r"engine share of the bare pipeline's CPU per action: .*")
_METHOD = re.compile(r"  method: (saturation, .*)")


def engine_vs_bare(outputs: dict[str, str]) -> str:
    """The engine's share of the bare pipeline's server CPU per action: first as ``bench.engine_share``
    measured it (both sides in each round, the ratio per round), then as the medians of two
    benchmarks of this run give it (``bench.engine_work``'s engine against ``bench.throughput``'s
    saturation rounds, minutes apart: the host's drift between them moves it)."""
    lines = []
    share = _SHARE.search(outputs.get("bench.engine_share", ""))
    lines.append(share.group(0) if share else "engine share, round by round: not measured (its benchmark failed)")
    engine = _ENGINE.search(outputs.get("bench.engine_work", ""))
    bare = _BARE.search(outputs.get("bench.throughput", ""))
    if engine is None or bare is None:
        lines.append("engine work vs the bare pipeline's CPU per action: not measured (a benchmark above failed)")
        return "\n".join(lines)
    us, bare_us = float(engine.group(1)), float(bare.group(1)) * 1000
    ratio = us / bare_us
    met = "met" if ratio <= ENGINE_SHARE_TARGET else "NOT met"
    lines.append(
        f"engine work per action {us:.1f} us, the bare pipeline's server CPU per action {bare_us:.1f} us "
        f"(two benchmarks' medians, minutes apart) -> {ratio:.2f}x (target <= {ENGINE_SHARE_TARGET:.2f}x: {met})"
    )
    method = _METHOD.search(outputs.get("bench.throughput", ""))
    lines.append(
        "  method: bench.engine_work's median engine work over bench.throughput's median bare server CPU"
        f"{' (' + method.group(1) + ')' if method else ' at saturation'}"
    )
    return "\n".join(lines)


def bare_shape(outputs: dict[str, str]) -> list[str]:
    """``bench.engine_share``'s bare pipeline made like ``bench.throughput``'s in this run: the real
    server's mean update frame and entry sizes it measured (none if it has not run or failed)."""
    shape = _SHAPE.search(outputs.get("bench.throughput", ""))
    return ["--frame-bytes", shape.group(1), "--entry-bytes", shape.group(2)] if shape else []


def machine() -> str:
    model = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    cpus = len(os.sched_getaffinity(0))
    return f"{cpus} CPUs ({model or platform.machine()}), Python {platform.python_version()}, {platform.system()}"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--quick", action="store_true")
    a = p.parse_args(argv)
    started = dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC")
    parts = [f"Last `make bench{' BENCH_ARGS=--quick' if a.quick else ''}`: {started}, {machine()}.\n"]
    status = 0
    outputs: dict[str, str] = {}
    for title, cmd in FULL:
        args = [sys.executable, "-m", *cmd, *(QUICK_ARGS.get(cmd[0], []) if a.quick else [])]
        if cmd[0] == "bench.engine_share":
            args += bare_shape(outputs)
        print(f"\n== {title}: {' '.join(args[2:])}", flush=True)
        done = subprocess.run(args, cwd=REPO, stdout=subprocess.PIPE, text=True)
        print(done.stdout, end="", flush=True)
        outputs[cmd[0]] = done.stdout
        status = status or done.returncode
        parts.append(
            f"### {title}\n\n`python -m {' '.join(args[2:])}` (exit {done.returncode})\n\n"
            f"```\n{done.stdout.strip()}\n```\n"
        )
    ratio = engine_vs_bare(outputs)
    print(f"\n== the engine against the bare pipeline\n{ratio}")
    parts.insert(1, f"### the engine against the bare pipeline (issue 12)\n\n```\n{ratio}\n```\n")
    text = DOC.read_text() if DOC.exists() else "# Performance\n"
    block = f"{START}\n" + "\n".join(parts) + f"{END}"
    if START in text and END in text:
        text = text[: text.index(START)] + block + text[text.index(END) + len(END) :]
    else:
        text = text.rstrip() + "\n\n## The last full run\n\n" + block + "\n"
    DOC.write_text(text)
    print(f"\nwritten into {DOC.relative_to(REPO)}")
    return status


if __name__ == "__main__":
    sys.exit(main())
