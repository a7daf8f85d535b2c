"""Our server against boardgame.io, in the same run (issue 14, "Against boardgame.io").

    .venv/bin/python -m bench.peer                  # 3 rounds, 200 at once, 20 s per saturation round
    .venv/bin/python -m bench.peer --tiny           # everything once at a tiny size (smoke test)
    .venv/bin/python -m bench.peer --rounds 3 --matches 50 --seconds 10

The peer is boardgame.io (pinned below) serving the classic tic-tac-toe of its tutorial with
its own ``Server`` (Koa + socket.io, lobby API, default in-memory storage) as a child process
(bench/peer/server.mjs), driven by bench/peer/load.mjs with boardgame.io's own ``Client`` and
``SocketIO`` transport, two clients per match. Our real server is ``duel serve`` on an embedded
Redis with ``appendfsync always``, driven by server/clients/load.py exactly as bench/throughput.py
drives it. For both, the same two measurements, rounds alternating so that noise hits both:

- saturation: accepted moves (actions) per second with ``--matches`` matches (duels) at once
  at full speed, a finished one replaced by a new one (match set-up included: creating,
  joining, connecting), and the server's CPU per move (action);
- one match (duel) back to back: p50 / p99 of "move sent -> both clients hold the server's
  new state".

Ours is measured by a Python driver, boardgame.io's by a Node driver with boardgame.io's own
client: the same measurement, not the same load code (see bench/peer/load.mjs).

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


def measure_bgio(node: str, modules: Path, server: BgioServer, concurrency: int, seconds: float) -> dict[str, Any]:
    """bench/peer/load.mjs against the boardgame.io server; the same keys as measure()."""
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
        "actions_per_match": d["moves"] / max(1, d["matches_finished"]),
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
                sat["bgio"].append(measure_bgio(node, modules, bgio, a.matches, a.seconds))
                # one duel after another as fast as they go (bench/throughput.py's back to back)
                one["real"].append(
                    measure_real(
                        real, LoadConfig(real.url, duels=10**6, concurrency=1, seconds=a.seconds / 2), redis_pid
                    )
                )
                one["bgio"].append(measure_bgio(node, modules, bgio, 1, a.seconds / 2))
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


def report(r: dict[str, Any]) -> None:
    def med(xs: list[float]) -> float:
        return statistics.median(xs) if xs else float("nan")

    sat, one = r["saturation"], r["back_to_back"]
    print(
        f"our server (full rules, Redis appendfsync always, Python driver server/clients/load.py) vs boardgame.io "
        f"{r['boardgame.io']} (tic-tac-toe, in memory, Node driver with boardgame.io's Client): "
        f"{r['rounds']} rounds, {r['matches']} at once, {r['seconds']:g} s per saturation round, "
        f"{r['machine_cpus']} CPUs, {r['date']}"
    )
    real_tp = [m["actions_per_s"] for m in sat["real"]]
    peer_tp = [m["actions_per_s"] for m in sat["bgio"]]
    tp_ratio, tp_line = ratio_line(real_tp, peer_tp)
    print(
        f"saturation, {r['matches']} at once: real {med(real_tp):7.0f} actions/s, boardgame.io {med(peer_tp):7.0f} "
        f"moves/s -> {tp_line}"
    )
    cpu_r = [m["cpu_ms_per_action"] for m in sat["real"]]
    cpu_p = [m["cpu_ms_per_action"] for m in sat["bgio"]]
    print(
        f"server CPU per action/move (saturation): real {med(cpu_r):.3f} ms (+ Redis "
        f"{med([m['redis_cpu_ms_per_action'] for m in sat['real']]):.3f} ms), boardgame.io {med(cpu_p):.3f} ms -> "
        f"{ratio_line(cpu_r, cpu_p)[1]}"
    )
    busy_r = [m["actions_per_s"] * m["cpu_ms_per_action"] / 10 for m in sat["real"]]
    busy_p = [m["actions_per_s"] * m["cpu_ms_per_action"] / 10 for m in sat["bgio"]]
    print(
        f"server process busy during saturation: real {med(busy_r):.0f} % of a core, boardgame.io {med(busy_p):.0f} %"
    )
    cap_r = [1000 / m["cpu_ms_per_action"] for m in sat["real"] if m["cpu_ms_per_action"]]
    cap_p = [1000 / m["cpu_ms_per_action"] for m in sat["bgio"] if m["cpu_ms_per_action"]]
    print(
        f"server-CPU-bound capacity (1000 / server CPU ms per action, a whole core each, whatever the driver costs): "
        f"real {med(cap_r):.0f}/s, boardgame.io {med(cap_p):.0f}/s -> {ratio_line(cap_r, cap_p)[1]}"
    )
    print(
        f"load driver CPU per action/move (saturation): real (Python) "
        f"{med([m['driver_cpu_ms_per_action'] for m in sat['real']]):.3f} ms, boardgame.io (Node) "
        f"{med([m['driver_cpu_ms_per_action'] for m in sat['bgio']]):.3f} ms; boardgame.io moves per match "
        f"{med([m['actions_per_match'] for m in sat['bgio']]):.1f} (match set-up is in both throughputs)"
    )
    p50_ratio = float("nan")
    for q in ("p50_ms", "p99_ms"):
        rv = [m[q] for m in one["real"]]
        pv = [m[q] for m in one["bgio"]]
        ratio, line = ratio_line(rv, pv)
        if q == "p50_ms":
            p50_ratio = ratio
        print(
            f"one match back to back, action -> both clients {q[:3]}: real {med(rv):7.2f} ms, boardgame.io "
            f"{med(pv):7.2f} ms -> {line}"
        )
    cpu_r1 = [m["cpu_ms_per_action"] for m in one["real"]]
    cpu_p1 = [m["cpu_ms_per_action"] for m in one["bgio"]]
    print(
        f"server CPU per action/move (back to back): real {med(cpu_r1):.3f} ms, boardgame.io {med(cpu_p1):.3f} ms "
        f"-> {ratio_line(cpu_r1, cpu_p1)[1]}"
    )
    for i, (sr, sp, br, bp) in enumerate(zip(sat["real"], sat["bgio"], one["real"], one["bgio"], strict=True)):
        print(
            f"  round {i + 1}: saturation {sr['actions_per_s']:.0f} / {sp['actions_per_s']:.0f} per s, "
            f"back to back p50 {br['p50_ms']:.2f} / {bp['p50_ms']:.2f} ms, p99 {br['p99_ms']:.2f} / "
            f"{bp['p99_ms']:.2f} ms (real / boardgame.io)"
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
        f"target: our p50 <= 0.5x boardgame.io's p50: {verdict(p50_ratio <= 0.5)} "
        f"(ratio real/boardgame.io {p50_ratio:.2f}x)"
    )
    print(
        f"target: our throughput per process >= 1.0x boardgame.io's: {verdict(tp_ratio >= 1.0)} "
        f"(ratio real/boardgame.io {tp_ratio:.2f}x)"
    )


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--tiny", action="store_true", help="each measurement once at a tiny size")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--matches", type=int, default=200, help="matches (duels) at once at full speed")
    p.add_argument("--seconds", type=float, default=20.0, help="per saturation round (back to back: half)")
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
