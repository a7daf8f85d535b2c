"""Our server against boardgame.io, in the same run (issue 14, "Against boardgame.io").

    .venv/bin/python -m bench.peer                  # 3 rounds, 200 at once, 20 s per saturation round
    .venv/bin/python -m bench.peer --tiny           # everything once at a tiny size (smoke test)
    .venv/bin/python -m bench.peer --rounds 3 --matches 50 --seconds 10

The peer is boardgame.io (pinned below) serving the tic-tac-toe of its tutorial with its own
``Server`` (Koa + socket.io, lobby API, default in-memory storage) as a child process
(bench/peer/server.mjs), driven by bench/peer/load.mjs with boardgame.io's own ``Client`` and
``SocketIO`` transport, two clients per match. Our real server is ``duel serve`` on an embedded
Redis with ``appendfsync always``, driven by server/clients/load.py exactly as bench/throughput.py
drives it. For both, the same two measurements, ``--rounds`` rounds (3 by default) alternating
(ours, boardgame.io's, ours, ...) so that noise hits both, the median and range reported:

- ``--matches`` long-lived matches (duels) at once (200 by default, the same number on both
  sides), each played move after move at full speed, a finished one replaced by a new one:
  accepted moves (actions) per second, p50 / p99 of "move sent -> both clients hold the
  server's new state", and the server's CPU per move;
- one match (duel) back to back: the same figures with one match at a time.

Like with like (issue 41): a boardgame.io match is as long as our duels. Before, a
tic-tac-toe match ended after 7.3 moves on average, so boardgame.io spent much of its time
setting matches up (lobby requests, two socket.io connections) while our duels last ~100
actions or more; that flattered us several times over. Now a match is created with
``setupData {moves: N}`` (bench/peer/game.mjs clears a won or full board and plays on), with N
the mean length of the duels our server played to their end in the rounds before it
(``--match-moves`` sets it; without finished duels, ``FALLBACK_MATCH_MOVES``).

Ours is measured by a Python driver, boardgame.io's by a Node driver with boardgame.io's own
client (which runs every move through its own reducer too): the same load pattern, not the
same load code. Each driver's own CPU per move is measured and printed beside every ratio:
both drivers share the 2 CPUs with the servers they measure, and a costly driver takes CPU
from its server.

boardgame.io is installed with npm into var/bench-peer/ (git-ignored; ~/.cache/duel-bench-peer
if it is not) from a package.json written here with exact versions, once (a stamp file);
nothing is fetched at run time after that. Without node or npm this exits with code 2.
"""

from __future__ import annotations

import argparse
import fcntl
import hashlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from server.clients.load import LoadConfig
from server.process.child import REPO, ServeProcess, cpu_seconds
from server.storage.embedded_redis import EmbeddedRedis

from .throughput import Target, measure, serve_for_load

BGIO_VERSION = "0.50.2"
# the socket.io client boardgame.io 0.50.2 asks for (^4.1.3), pinned
SOCKET_IO_CLIENT_VERSION = "4.8.4"
# koa-compose 4.2 copies the middleware list when Koa builds its request handler; boardgame.io
# 0.50 builds it (through koa-socket-2) before it adds the lobby routes, so with 4.2 every
# lobby request is a 404. 4.1.0 is the version boardgame.io was released against.
OVERRIDES = {"koa-compose": "4.1.0"}
PEER_JS = REPO / "bench" / "peer"

PACKAGE_JSON = (
    json.dumps(
        {
            "name": "duel-bench-peer",
            "private": True,
            "description": "boardgame.io for bench/peer.py (written by it; not part of the repository)",
            "dependencies": {"boardgame.io": BGIO_VERSION, "socket.io-client": SOCKET_IO_CLIENT_VERSION},
            "overrides": OVERRIDES,
        },
        indent=2,
    )
    + "\n"
)


class Missing(Exception):
    """Node.js or npm is missing, or boardgame.io cannot be installed."""


def install_dir() -> Path:
    """var/bench-peer under the repository when git ignores it, else under ~/.cache."""
    inside = REPO / "var" / "bench-peer"
    try:
        ignored = (
            subprocess.run(["git", "check-ignore", "-q", str(inside)], cwd=REPO, capture_output=True).returncode == 0
        )
    except OSError:
        ignored = False
    return inside if ignored else Path.home() / ".cache" / "duel-bench-peer"


def node_tools() -> tuple[str, str]:
    node, npm = shutil.which("node"), shutil.which("npm")
    if node is None or npm is None:
        missing = " and ".join(n for n, p in (("node", node), ("npm", npm)) if p is None)
        raise Missing(f"the boardgame.io peer benchmark needs Node.js (>= 18) and npm: {missing} not found on PATH")
    out = subprocess.run([node, "--version"], capture_output=True, text=True).stdout.strip()
    try:
        major = int(out.lstrip("v").split(".")[0])
    except ValueError:
        major = 0
    if major < 18:
        raise Missing(f"the boardgame.io peer benchmark needs Node.js >= 18 (global fetch); found {out or 'nothing'}")
    return node, npm


def install(npm: str) -> Path:
    """boardgame.io in install_dir(), installed once for this package.json (a stamp file)."""
    d = install_dir()
    stamp = d / ".installed"
    digest = hashlib.sha256(PACKAGE_JSON.encode()).hexdigest()
    installed = d / "node_modules" / "boardgame.io" / "package.json"

    def current() -> bool:
        return stamp.exists() and stamp.read_text().strip() == digest and installed.exists()

    if current():
        return d
    d.mkdir(parents=True, exist_ok=True)
    with (d / ".lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # two benchmarks starting at once install once
        if current():
            return d
        (d / "package.json").write_text(PACKAGE_JSON)
        stamp.unlink(missing_ok=True)
        print(f"installing boardgame.io {BGIO_VERSION} into {d} (npm install, once) ...", file=sys.stderr, flush=True)
        try:
            done = subprocess.run(
                [npm, "install", "--no-audit", "--no-fund", "--loglevel", "error"],
                cwd=d,
                capture_output=True,
                text=True,
                timeout=900,
            )
        except subprocess.TimeoutExpired as exc:
            raise Missing(f"npm install did not finish in {exc.timeout:.0f} s in {d} (registry unreachable?)") from exc
        if done.returncode != 0:
            raise Missing(f"npm install failed in {d}:\n{(done.stderr or done.stdout)[-2000:]}")
        version = json.loads(installed.read_text()).get("version") if installed.exists() else None
        if version != BGIO_VERSION:
            raise Missing(f"npm install left boardgame.io {version}, not {BGIO_VERSION}, in {d}")
        stamp.write_text(digest + "\n")
    return d


def node_env(modules: Path) -> dict[str, str]:
    # production: as deployed (boardgame.io's INFO logging to the console is on otherwise)
    return {**os.environ, "NODE_ENV": "production", "BENCH_PEER_MODULES": str(modules)}


class BgioServer:
    """bench/peer/server.mjs as a child process on a free port of 127.0.0.1."""

    def __init__(self, node: str, modules: Path, log: Path) -> None:
        self.log = log
        self.proc = subprocess.Popen(
            [node, str(PEER_JS / "server.mjs")],
            cwd=PEER_JS,
            env=node_env(modules),
            stdout=subprocess.PIPE,
            stderr=log.open("w"),
            text=True,
        )
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if "listening on" not in line:
            self.stop()
            raise RuntimeError(f"boardgame.io server did not start: {line!r} {log.read_text()[-2000:]}")
        self.url = line.split()[-1]

    @property
    def pid(self) -> int:
        return self.proc.pid

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if self.proc.stdout is not None:
            self.proc.stdout.close()


FALLBACK_MATCH_MOVES = 120
"""boardgame.io's match length when none of our duels has finished yet (a tiny run): about a
demo duel's length."""


def match_moves(real_rounds: list[dict[str, Any]], fixed: int) -> int:
    """How many moves a boardgame.io match lasts: ``fixed`` if set, else the mean length of the
    duels our server played to their end in ``real_rounds`` (module docstring)."""
    if fixed > 0:
        return fixed
    finished = sum(int(m.get("duels_finished", 0)) for m in real_rounds)
    moves = sum(int(m.get("finished_duel_actions", 0)) for m in real_rounds)
    return max(1, round(moves / finished)) if finished else FALLBACK_MATCH_MOVES


def measure_bgio(
    node: str, modules: Path, server: BgioServer, concurrency: int, seconds: float, moves: int = 0
) -> dict[str, Any]:
    """bench/peer/load.mjs against the boardgame.io server, matches of ``moves`` moves (0: the
    tutorial's game); the same keys as measure()."""
    cpu0 = cpu_seconds(server.pid)
    done = subprocess.run(
        [
            node,
            str(PEER_JS / "load.mjs"),
            "--url",
            server.url,
            "--concurrency",
            str(concurrency),
            "--seconds",
            str(seconds),
            "--match-moves",
            str(moves),
        ],
        cwd=PEER_JS,
        env=node_env(modules),
        capture_output=True,
        text=True,
        timeout=seconds + 120,
    )
    cpu = cpu_seconds(server.pid) - cpu0
    if done.returncode != 0 or not done.stdout.strip():
        raise RuntimeError(f"bench/peer/load.mjs failed ({done.returncode}): {done.stderr[-2000:]}")
    d: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    n = max(1, int(d["moves"]))
    return {
        "actions": d["moves"],
        "actions_per_s": d["moves_per_s"],
        "p50_ms": float("nan") if d["p50_ms"] is None else d["p50_ms"],
        "p99_ms": float("nan") if d["p99_ms"] is None else d["p99_ms"],
        "failed": d["matches_failed"],
        "errors": d["errors"],
        "cpu_ms_per_action": cpu * 1000 / n,
        "driver_cpu_ms_per_action": d["driver_cpu_s"] * 1000 / n,
        "matches": d["matches_started"],
        "actions_per_match": d["moves"] / max(1, d["matches_started"]),
        "match_moves": moves,
    }


def measure_real(target: Target, cfg: LoadConfig, redis_pid: int) -> dict[str, Any]:
    """bench/throughput.py's measure(), plus the driver's (this process's) and Redis's CPU."""
    drv0, rds0 = time.process_time(), cpu_seconds(redis_pid)
    m = measure(target, cfg)
    n = max(1, int(m["actions"]))
    m["driver_cpu_ms_per_action"] = (time.process_time() - drv0) * 1000 / n
    m["redis_cpu_ms_per_action"] = (cpu_seconds(redis_pid) - rds0) * 1000 / n
    return m


def run_peer(a: argparse.Namespace, node: str, modules: Path) -> dict[str, Any]:
    results: dict[str, Any] = {
        "boardgame.io": BGIO_VERSION,
        "rounds": a.rounds,
        "matches": a.matches,
        "seconds": a.seconds,
        "machine_cpus": len(os.sched_getaffinity(0)),
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
    }
    load0 = os.getloadavg()[0]
    sat: dict[str, list[dict[str, Any]]] = {"real": [], "bgio": []}
    one: dict[str, list[dict[str, Any]]] = {"real": [], "bgio": []}
    with tempfile.TemporaryDirectory() as d:
        rds = EmbeddedRedis(Path(d) / "redis", fsync="always").start()
        real_proc: ServeProcess | None = None
        bgio: BgioServer | None = None
        try:
            redis_pid = int((rds.data_dir / "redis.pid").read_text().strip())
            real_proc = serve_for_load(Path(d) / "real", rds.url)
            real = Target("real", real_proc.url, real_proc.proc.pid if real_proc.proc else 0)
            bgio = BgioServer(node, modules, Path(d) / "bgio.log")
            for r in range(a.rounds):
                print(f"round {r + 1}/{a.rounds} ...", file=sys.stderr, flush=True)
                sat["real"].append(
                    measure_real(
                        real, LoadConfig(real.url, duels=10**6, concurrency=a.matches, seconds=a.seconds), redis_pid
                    )
                )
                moves = match_moves(sat["real"] + one["real"], a.match_moves)
                sat["bgio"].append(measure_bgio(node, modules, bgio, a.matches, a.seconds, moves))
                # one duel after another as fast as they go (bench/throughput.py's back to back)
                one["real"].append(
                    measure_real(
                        real, LoadConfig(real.url, duels=10**6, concurrency=1, seconds=a.seconds / 2), redis_pid
                    )
                )
                moves = match_moves(sat["real"] + one["real"], a.match_moves)
                one["bgio"].append(measure_bgio(node, modules, bgio, 1, a.seconds / 2, moves))
                results.setdefault("append_floor_ms", []).append(append_floor(rds.url))
        finally:
            if bgio is not None:
                bgio.stop()
            if real_proc is not None:
                real_proc.stop()
            rds.stop()
    results["saturation"] = sat
    results["back_to_back"] = one
    results["loadavg_1min"] = {"start": load0, "end": os.getloadavg()[0]}
    return results


def append_floor(redis_url: str, appends: int = 500) -> float:
    """p50 ms of one durable append alone, as the server makes it: an XADD of an entry's size
    to the same Redis (``appendfsync always``: the reply leaves after the fsync), one after
    another from Python, nothing else. No action of ours can be answered faster than this."""
    import redis as sync_redis

    client = sync_redis.Redis.from_url(redis_url)
    key = f"bench:floor:{os.getpid()}:{time.monotonic_ns()}"
    times = []
    try:
        for _ in range(appends):
            t0 = time.perf_counter()
            client.xadd(key, {"facts": b"x" * 280})
            times.append(time.perf_counter() - t0)
    finally:
        client.delete(key)
        client.close()
    times.sort()
    return times[len(times) // 2] * 1000


def ratio_line(real: list[float], peer: list[float]) -> tuple[float, str]:
    ratios = [x / y for x, y in zip(real, peer, strict=True) if y and x == x and y == y]
    if not ratios:
        return float("nan"), "ratio real/boardgame.io n/a"
    med = statistics.median(ratios)
    return (
        med,
        f"ratio real/boardgame.io {med:5.2f}x (range {min(ratios):.2f}-{max(ratios):.2f} over {len(ratios)} rounds)",
    )


def _med(xs: list[float]) -> float:
    xs = [x for x in xs if x == x]
    return statistics.median(xs) if xs else float("nan")


def _side(ms: list[dict[str, Any]], key: str, fmt: str = ".2f") -> str:
    """One side's median (range over rounds) of ``key``."""
    xs = [float(m[key]) for m in ms if m[key] == m[key]]
    if not xs:
        return "n/a"
    return f"{statistics.median(xs):{fmt}} ({min(xs):{fmt}}-{max(xs):{fmt}})"


def method(r: dict[str, Any], ms: dict[str, list[dict[str, Any]]], what: str, seconds: float) -> str:
    """The one line beside a group of ratios: what is compared, how, and what each driver cost."""
    real = r["saturation"]["real"] + r["back_to_back"]["real"]
    moves_r = sum(int(m.get("finished_duel_actions", 0)) for m in real)
    duels_r = sum(int(m.get("duels_finished", 0)) for m in real)
    per_duel = f"{moves_r / duels_r:.0f}" if duels_r else "n/a (none finished)"
    bgio_len = "/".join(sorted({str(m.get("match_moves", 0)) for m in ms["bgio"]}))
    return (
        f"  method: {what}; {r['rounds']} rounds A/B interleaved, {seconds:g} s windows, median (range); "
        f"boardgame.io's matches of {bgio_len} moves (our duels' mean so far in the run) vs our duels of {per_duel} "
        f"actions (mean of all finished in the run); "
        f"driver CPU per move: ours (Python) {_med([m['driver_cpu_ms_per_action'] for m in ms['real']]):.3f} ms, "
        f"boardgame.io's (Node, its Client) {_med([m['driver_cpu_ms_per_action'] for m in ms['bgio']]):.3f} ms"
    )


def report(r: dict[str, Any]) -> None:
    med = _med
    sat, one = r["saturation"], r["back_to_back"]
    n = r["matches"]
    print(
        f"our server (full rules, Redis appendfsync always, Python driver server/clients/load.py) vs boardgame.io "
        f"{r['boardgame.io']} (tic-tac-toe played on in long-lived matches, in memory, Node driver with "
        f"boardgame.io's Client): {r['rounds']} rounds, {n} matches at once on each side, {r['seconds']:g} s windows "
        f"({r['seconds'] / 2:g} s for one match back to back), {r['machine_cpus']} CPUs, {r['date']}"
    )
    real_tp = [m["actions_per_s"] for m in sat["real"]]
    peer_tp = [m["actions_per_s"] for m in sat["bgio"]]
    tp_ratio, tp_line = ratio_line(real_tp, peer_tp)
    print(
        f"{n} long-lived matches at once: real {_side(sat['real'], 'actions_per_s', '.0f')} actions/s, "
        f"boardgame.io {_side(sat['bgio'], 'actions_per_s', '.0f')} moves/s -> {tp_line}"
    )
    for q in ("p50_ms", "p99_ms"):
        print(
            f"{n} long-lived matches at once, action -> both clients {q[:3]}: real {_side(sat['real'], q)} ms, "
            f"boardgame.io {_side(sat['bgio'], q)} ms -> "
            f"{ratio_line([m[q] for m in sat['real']], [m[q] for m in sat['bgio']])[1]}"
        )
    cpu_r = [m["cpu_ms_per_action"] for m in sat["real"]]
    cpu_p = [m["cpu_ms_per_action"] for m in sat["bgio"]]
    print(
        f"server CPU per action/move ({n} matches): real {med(cpu_r):.3f} ms (+ Redis "
        f"{med([m['redis_cpu_ms_per_action'] for m in sat['real']]):.3f} ms), boardgame.io {med(cpu_p):.3f} ms -> "
        f"{ratio_line(cpu_r, cpu_p)[1]}"
    )
    busy_r = [m["actions_per_s"] * m["cpu_ms_per_action"] / 10 for m in sat["real"]]
    busy_p = [m["actions_per_s"] * m["cpu_ms_per_action"] / 10 for m in sat["bgio"]]
    print(f"server process busy ({n} matches): real {med(busy_r):.0f} % of a core, boardgame.io {med(busy_p):.0f} %")
    cap_r = [1000 / m["cpu_ms_per_action"] for m in sat["real"] if m["cpu_ms_per_action"]]
    cap_p = [1000 / m["cpu_ms_per_action"] for m in sat["bgio"] if m["cpu_ms_per_action"]]
    print(
        f"server-CPU-bound capacity (1000 / server CPU ms per action, a whole core each, whatever the driver costs): "
        f"real {med(cap_r):.0f}/s, boardgame.io {med(cap_p):.0f}/s -> {ratio_line(cap_r, cap_p)[1]}"
    )
    print(
        f"load driver CPU per action/move ({n} matches): real (Python) "
        f"{_side(sat['real'], 'driver_cpu_ms_per_action', '.3f')} ms, boardgame.io (Node) "
        f"{_side(sat['bgio'], 'driver_cpu_ms_per_action', '.3f')} ms; moves per match started "
        f"boardgame.io {med([m['actions_per_match'] for m in sat['bgio']]):.1f} (match set-up is in both throughputs)"
    )
    print(method(r, sat, f"{n} long-lived matches at once on each side, full speed", r["seconds"]))
    p50_ratio = float("nan")
    for q in ("p50_ms", "p99_ms"):
        rv = [m[q] for m in one["real"]]
        pv = [m[q] for m in one["bgio"]]
        ratio, line = ratio_line(rv, pv)
        if q == "p50_ms":
            p50_ratio = ratio
        print(
            f"one match back to back, action -> both clients {q[:3]}: real {_side(one['real'], q)} ms, boardgame.io "
            f"{_side(one['bgio'], q)} ms -> {line}"
        )
    print(
        f"one match back to back: real {_side(one['real'], 'actions_per_s', '.0f')} actions/s, boardgame.io "
        f"{_side(one['bgio'], 'actions_per_s', '.0f')} moves/s -> "
        f"{ratio_line([m['actions_per_s'] for m in one['real']], [m['actions_per_s'] for m in one['bgio']])[1]}"
    )
    cpu_r1 = [m["cpu_ms_per_action"] for m in one["real"]]
    cpu_p1 = [m["cpu_ms_per_action"] for m in one["bgio"]]
    print(
        f"server CPU per action/move (back to back): real {med(cpu_r1):.3f} ms, boardgame.io {med(cpu_p1):.3f} ms "
        f"-> {ratio_line(cpu_r1, cpu_p1)[1]}"
    )
    print(method(r, one, "one match at a time on each side, back to back", r["seconds"] / 2))
    for i, (sr, sp, br, bp) in enumerate(zip(sat["real"], sat["bgio"], one["real"], one["bgio"], strict=True)):
        print(
            f"  round {i + 1}: {n} matches {sr['actions_per_s']:.0f} / {sp['actions_per_s']:.0f} per s, "
            f"p99 {sr['p99_ms']:.2f} / {sp['p99_ms']:.2f} ms; back to back p50 {br['p50_ms']:.2f} / "
            f"{bp['p50_ms']:.2f} ms, p99 {br['p99_ms']:.2f} / {bp['p99_ms']:.2f} ms (real / boardgame.io)"
        )
    lavg = r["loadavg_1min"]
    print(
        f"machine load average (1 min) {lavg['start']:.1f} at the start, {lavg['end']:.1f} at the end "
        f"(anything else running on the machine is noise in these figures)"
    )
    failed = {k: sum(m["failed"] for m in sat[k] + one[k]) for k in ("real", "bgio")}
    errors = {k: sum((sum(m["errors"].values()) for m in sat[k] + one[k]), 0) for k in ("real", "bgio")}
    print(
        f"failed duels/matches: real {failed['real']}, boardgame.io {failed['bgio']}; "
        f"errors: real {errors['real']}, boardgame.io {errors['bgio']}"
    )

    floor = r.get("append_floor_ms") or []
    if floor:
        bgio_p50 = med([m["p50_ms"] for m in one["bgio"]])
        print(
            f"one durable append alone (XADD of an entry's size, appendfsync always, from Python), p50: "
            f"{med(floor):.2f} ms = {med(floor) / bgio_p50:.2f}x boardgame.io's p50 (range "
            f"{min(floor):.2f}-{max(floor):.2f} ms over {len(floor)} rounds): our p50 cannot go below it; "
            f"half of boardgame.io's p50 is {bgio_p50 / 2:.2f} ms"
        )

    def verdict(ok: bool) -> str:
        return "met" if ok else "NOT met"

    print(
        f"target: our p50 <= 0.5x boardgame.io's p50 (one match back to back): {verdict(p50_ratio <= 0.5)} "
        f"(ratio real/boardgame.io {p50_ratio:.2f}x)"
    )
    print(
        f"target: our throughput per process >= 1.0x boardgame.io's ({n} long-lived matches): "
        f"{verdict(tp_ratio >= 1.0)} (ratio real/boardgame.io {tp_ratio:.2f}x)"
    )


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--tiny", action="store_true", help="each measurement once at a tiny size")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--matches", type=int, default=200, help="matches (duels) at once at full speed")
    p.add_argument("--seconds", type=float, default=20.0, help="per saturation round (back to back: half)")
    p.add_argument(
        "--match-moves", type=int, default=0, help="moves per boardgame.io match (0: our duels' mean in this run)"
    )
    p.add_argument("--json", type=Path, default=None, help="also write the figures here")
    p.add_argument("--install-only", action="store_true", help="install boardgame.io (make does this), then stop")
    a = p.parse_args(argv)
    if a.tiny:
        a.rounds, a.matches, a.seconds = 1, 4, 0.5
    try:
        node, npm = node_tools()
        modules = install(npm)
    except Missing as exc:
        print(f"bench.peer: {exc}", file=sys.stderr)
        return 2
    if a.install_only:
        print(f"boardgame.io installed in {modules}")
        return 0
    results = run_peer(a, node, modules)
    report(results)
    if a.json is not None:
        a.json.write_text(json.dumps(results, indent=1, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
