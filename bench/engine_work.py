"""Engine work per accepted action, and folding a stored log: this engine against the engine
of main before issue 12 (commit 6792076), measured in the same run. Ratios with their range
over rounds.

    .venv/bin/python -m bench.engine_work            # 6 recorded duels, 5 rounds (~1 min)
    .venv/bin/python -m bench.engine_work --tiny     # 1 short duel, 2 rounds (a few seconds)

The old engine is extracted at bench time with ``git archive 6792076 engine`` into a
temporary directory. Each engine runs in its own worker process
(``bench/engine_worker.py``, the engine's root first on ``sys.path``), so that the two
``engine`` packages never meet; the workers take their rounds in turn, old then new, so that
both see the same machine load, and each ratio is old/new of the same round.

- engine work per action: for every action of the recorded duels, the new state and its
  facts (old: ``decide`` then ``fold``; new: ``decide_state``), ``state_hash``, the
  per-viewer facts (``Viewpoints.apply``), a view and the pending decision for each seat,
  and the legal actions of the seat that owes the next decision;
- fold: the longest duel's log folded entry by entry from scratch, as replays and ``duel
  verify`` walk it (old: ``fold(entry, state)``; new: ``fold_into``), against merely
  msgpack-decoding the same entries (each the fastest of 7 interleaved timings per round:
  a fold takes 1-2 ms); and the same walk hashing the state after every entry (what
  ``duel verify`` does).

Every worker runs the cyclic collector as the server does (``server.runtime.gctune``'s thresholds,
after a freeze once its duels are recorded), and so does the bare pipeline (``bench.pipeline
--gc tuned``, the default) that ``bench.engine_share`` divides by.

Targets (issue 12): engine work >= 5x faster than the old engine; fold >= 10x faster than
the old and within 3x of msgpack-decoding.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import IO, Any

from server.runtime import gctune

REPO = Path(__file__).resolve().parent.parent
BASELINE = "6792076"
WORKER = Path(__file__).resolve().parent / "engine_worker.py"


def extract_baseline(into: Path, rev: str = BASELINE) -> Path:
    """The engine package of commit ``rev`` (default: the baseline), under ``into``."""
    into.mkdir(parents=True, exist_ok=True)
    archive = subprocess.run(["git", "-C", str(REPO), "archive", rev, "engine"], check=True, capture_output=True)
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, check=True)
    return into


class Worker:
    def __init__(self, root: Path, tiny: bool) -> None:
        # the collector as the server runs it (its default, server.runtime.gctune), for every engine alike
        gc = ["--gc", ",".join(map(str, gctune.THRESHOLDS))]
        args = [sys.executable, str(WORKER), str(root), *gc] + (["--tiny"] if tiny else [])
        self.proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=str(root))
        self._read()  # ready: the duels are recorded

    def _read(self) -> dict[str, Any]:
        out: IO[str] | None = self.proc.stdout
        assert out is not None
        line = out.readline()
        if not line:
            raise RuntimeError(f"the engine worker stopped (exit {self.proc.wait()})")
        got: dict[str, Any] = json.loads(line)
        return got

    def round(self) -> dict[str, Any]:
        assert self.proc.stdin is not None
        self.proc.stdin.write("round\n")
        self.proc.stdin.flush()
        return self._read()

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write("quit\n")
        self.proc.stdin.close()
        self.proc.wait()


def spread(values: list[float]) -> str:
    return f"{statistics.median(values):6.1f}x  (range {min(values):.1f}-{max(values):.1f})"


def us(values: list[float]) -> str:
    return f"{statistics.median(values) * 1e6:8.1f} us"


def ms(values: list[float]) -> str:
    return f"{statistics.median(values) * 1e3:8.2f} ms"


def run(rounds: int, tiny: bool, also: tuple[str, ...] = ()) -> dict[str, list[float]]:
    with tempfile.TemporaryDirectory() as tmp:
        old = Worker(extract_baseline(Path(tmp) / "old"), tiny)
        new = Worker(REPO, tiny)
        between = {rev: Worker(extract_baseline(Path(tmp) / rev, rev), tiny) for rev in also}
        try:
            results: list[tuple[dict[str, Any], dict[str, Any]]] = []
            steps: dict[str, list[float]] = {rev: [] for rev in also}
            for _ in range(rounds):
                o = old.round()
                for rev, worker in between.items():
                    steps[rev].append(o["work_per_action"] / worker.round()["work_per_action"])
                results.append((o, new.round()))
        finally:
            old.close()
            new.close()
            for worker in between.values():
                worker.close()
    o0, n0 = results[0]
    keys = ("work_per_action", "fold_entries", "fold_all", "fold_hash", "decode")
    series: dict[str, list[float]] = {f"old_{k}": [o[k] for o, _ in results] for k in keys}
    series.update({f"new_{k}": [n[k] for _, n in results] for k in keys})
    same = o0["digest"] == n0["digest"]
    print(f"engine work over {n0['actions']} actions of the recorded duels ({rounds} rounds; old = {BASELINE})")
    print(f"  the two engines played {'the same' if same else 'DIFFERENT'} duels (hash of every state hash)")
    print(f"  old engine  {us(series['old_work_per_action'])} per action")
    print(f"  new engine  {us(series['new_work_per_action'])} per action")
    work = [o["work_per_action"] / n["work_per_action"] for o, n in results]
    for rev, ratios in steps.items():
        print(f"  at {rev:9s} {spread(ratios)} faster than old")
    print(f"  new vs old  {spread(work)} faster   (target >= 5x)")
    log = f"{n0['log_entries']} entries ({n0['log_facts']} facts)"
    print(f"fold a stored log of {log}, entry by entry from scratch (fastest of 7 per round)")
    print(f"  msgpack-decoding the entries  {ms(series['new_decode'])}")
    print(f"  old engine (fold per entry)   {ms(series['old_fold_entries'])}")
    print(f"  new engine (fold_into)        {ms(series['new_fold_entries'])}")
    fold = [o["fold_entries"] / n["fold_entries"] for o, n in results]
    vs_decode = [n["fold_entries"] / n["decode"] for _, n in results]
    print(f"  new vs old      {spread(fold)} faster   (target >= 10x)")
    print(f"  new vs decoding {spread(vs_decode)} the time   (target <= 3x)")
    print(f"  (one fold of all facts at once: old {ms(series['old_fold_all'])}, new {ms(series['new_fold_all'])})")
    verify = [o["fold_hash"] / n["fold_hash"] for o, n in results]
    print(
        f"  fold + state_hash after every entry (duel verify): old {ms(series['old_fold_hash'])}, "
        f"new {ms(series['new_fold_hash'])}: {spread(verify)} faster"
    )
    series["work_ratio"] = work
    series["fold_ratio"] = fold
    series["fold_vs_decode"] = vs_decode
    return series


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tiny", action="store_true", help="one short duel and 2 rounds: a smoke run")
    parser.add_argument("--rounds", type=int, default=None)
    parser.add_argument(
        "--also",
        action="append",
        default=[],
        metavar="REV",
        help="also time the engine of this commit against the old one (repeatable)",
    )
    args = parser.parse_args(argv)
    run(args.rounds or (2 if args.tiny else 5), args.tiny, tuple(args.also))


if __name__ == "__main__":
    main()
