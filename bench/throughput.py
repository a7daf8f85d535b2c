"""Server throughput and latency against the physical limit (issue 14), same run, same load code.

    .venv/bin/python -m bench.throughput            # the figures of docs/performance.md (a few minutes)
    .venv/bin/python -m bench.throughput --tiny     # every measurement once, at a tiny size (make test)

Each measurement runs the real server (``duel serve`` as a child process, greedy-free bot
duels of the demo decks) and the bare pipeline (bench/pipeline.py: websockets + msgpack + one
Redis stream append + two sends, no rules) against the same embedded Redis
(``appendfsync always``), both driven by ``server/clients/load.py``; rounds alternate so that noise
hits both (real, bare, real, bare, ...: ``--rounds`` of every measurement, 3 by default, each
level of ``--hold`` too). Figures are printed as real / bare, the median with the range over
rounds, and a ``method:`` line beside every group of ratios (issue 41).

The bare pipeline is made like the real server where the architecture, not the rules, sets the
cost (issue 41): its update frames are padded to the mean update frame the real server's
clients received in the first real round (~1.7 KB; bench/pipeline.py packs a tree of card
dicts of that size for every seat), its appends are entries of the real ones' nine fields and
mean size (read back from Redis), sent through the client the real server appends with (the
lean ``server.storage.resp.Pipe`` on a ``unix://`` or ``redis://`` URL, as server/process/app.py
chooses; ``--bare-client redis-py`` for redis.asyncio), with the collector tuned as
``duel serve`` tunes it.

- saturation: accepted actions/s with ``--duels`` duels at once at full speed, and Redis's own
  time per append (``INFO commandstats``: the script's or ``XADD``'s time inside Redis, not the fsync);
- one duel back to back, and with 50 ms think time: p50 / p99 of "action -> both clients";
- a human pace (each seat acts every 2 s): p99 with N duels held at once, for N in ``--hold``;
- server RSS per active duel (the human-pace run, on a server process started for it: RSS with
  N duels minus RSS idle, over N);
- two server processes on the machine: saturation throughput with the duels spread over both
  (each duel on one process, as a load balancer places them) and with each duel's seats on
  different processes (every action crosses the fan-out), against one process in the same round;
- Redis round trips per accepted action: the requests Redis receives from clients (MONITOR,
  bench/roundtrips.py: commands a script runs inside Redis are not round trips), counted over a
  separate short run of the saturation load, since MONITOR slows Redis down.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import redis

from server.clients.load import LOAD_TEST_LIMITS, LoadConfig, rss_kib, run
from server.process.child import REPO, ServeProcess, cpu_seconds
from server.storage.embedded_redis import EmbeddedRedis
from server.storage.store import APPEND_LUA

from .pipeline import entry_size
from .roundtrips import Monitor

SECRET = "bench-secret-0123456789abcdef"


@dataclass
class Target:
    name: str
    url: str
    pid: int
    redis_pid: int = 0  # the Redis it appends to: its CPU per action is measured too (0: not)


def serve_for_load(workdir: Path, redis_url: str, *extra: str) -> ServeProcess:
    """``duel serve`` on ``redis_url`` as the benchmarks run it (quiet logs, no limits), started."""
    args = ("--redis-url", redis_url, "--log-level", "warning", *LOAD_TEST_LIMITS, *extra)
    return ServeProcess(workdir, *args, secret=SECRET).start()


@dataclass(frozen=True)
class BareShape:
    """What the bare pipeline sends, made like the real server's (bench/pipeline.py): update
    frames and appended entries of the real ones' mean sizes (0: its own tiny ones), through
    the Redis client the server appends with, the collector set as the server sets it."""

    frame_bytes: int = 0
    entry_bytes: int = 0
    client: str = "lean"
    gc: str = "tuned"

    def args(self) -> list[str]:
        return [
            "--frame-bytes",
            str(self.frame_bytes),
            "--entry-bytes",
            str(self.entry_bytes),
            "--redis-client",
            self.client,
            "--gc",
            self.gc,
        ]

    def method(self) -> str:
        client = (
            "the lean pipelined connection the server appends with (server.storage.resp.Pipe)"
            if self.client == "lean"
            else "redis-py (redis.asyncio)"
        )
        sizes = (
            f"update frames of {self.frame_bytes} bytes and appended entries of {self.entry_bytes} bytes (the real "
            f"server's means, measured in this run)"
            if self.frame_bytes
            else "its own tiny frames and entries"
        )
        return f"the bare pipeline sends {sizes}, appends through {client}, collector {self.gc} as the server's"

    def short(self) -> str:
        """The method in a few words: the bare pipeline's frames, entries, Redis client, collector."""
        sizes = f"{self.frame_bytes} B frames, {self.entry_bytes} B entries" if self.frame_bytes else "tiny frames"
        return f"bare: {sizes} (the real ones' means), {self.client} Redis client, gc {self.gc}"


class Bare:
    """bench/pipeline.py as a child process."""

    def __init__(self, redis_url: str, port: int, gc: str = "tuned", shape: BareShape | None = None) -> None:
        shape = shape or BareShape(gc=gc)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "bench.pipeline", "--port", str(port), "--redis-url", redis_url, *shape.args()],
            cwd=REPO,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert self.proc.stdout is not None
        self.banner = self.proc.stdout.readline().strip()
        self.url = f"ws://127.0.0.1:{port}"

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(10)


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def roundtrips(target: Target, redis_url: str, duels: int, seconds: float) -> dict[str, Any]:
    """Requests Redis receives per accepted action under the saturation load (with the
    commands by name, and what scripts ran inside Redis, per action)."""
    with Monitor(redis_url, {"append": APPEND_LUA}) as mon:
        stats = asyncio.run(run(LoadConfig(target.url, duels=10**6, concurrency=duels, seconds=seconds)))
    n = max(1, stats.actions)
    # the bare pipeline appends with a plain XADD
    appends = mon.counts["append"] + (mon.counts["XADD"] if target.name == "bare" else 0)
    return {
        "actions": stats.actions,
        "duels_started": stats.started,
        "per_action": mon.total / n,
        "appends_per_action": appends / n,
        "other_per_duel": (mon.total - appends) / max(1, stats.started),
        "by_command": {k: round(v / n, 3) for k, v in mon.counts.most_common()},
        "in_scripts": {k: round(v / n, 3) for k, v in mon.scripted.most_common()},
    }


def measure(target: Target, cfg: LoadConfig) -> dict[str, Any]:
    """One load against ``target``: throughput, latency, and the CPU each part of the machine
    spent per accepted action (the server; the load driver, which is this process; Redis)."""
    t0 = time.perf_counter()
    cpu0 = cpu_seconds(target.pid)
    redis0 = cpu_seconds(target.redis_pid) if target.redis_pid else 0.0
    driver0 = time.process_time()
    stats = asyncio.run(run(cfg))
    wall = time.perf_counter() - t0
    n = max(1, stats.actions)
    return {
        "actions": stats.actions,
        "actions_per_s": stats.actions / wall if wall else 0.0,
        "p50_ms": stats.percentile(0.5) * 1000,
        "p99_ms": stats.percentile(0.99) * 1000,
        "failed": stats.failed,
        "errors": dict(stats.errors),
        "cpu_ms_per_action": (cpu_seconds(target.pid) - cpu0) * 1000 / n,
        "driver_ms_per_action": (time.process_time() - driver0) * 1000 / n,
        "redis_ms_per_action": (cpu_seconds(target.redis_pid) - redis0) * 1000 / n if target.redis_pid else 0.0,
        "duels_started": stats.started,
        "duels_finished": stats.finished,
        "finished_duel_actions": stats.finished_actions,
        "update_bytes": stats.mean_update_bytes(),
    }


def real_entry_bytes(client: redis.Redis, logs: int = 50) -> int:
    """The mean size of the entries the real server appended for actions (every entry of up to
    ``logs`` match logs but each log's first, the duel's creation), field names and values as
    Redis holds them; 0 with none."""
    sizes: list[int] = []
    for key in client.scan_iter(match="match:*:log", count=1000):
        entries: list[tuple[bytes, dict[bytes, bytes]]] = client.xrange(key, min="2-0", max="+", count=500)  # type: ignore[assignment]
        sizes.extend(entry_size(fields) for _id, fields in entries)
        logs -= 1
        if logs <= 0:
            break
    return round(statistics.mean(sizes)) if sizes else 0


def redis_append_us(client: redis.Redis) -> float:
    """Microseconds inside Redis per append call since its stats were reset (``INFO
    commandstats``: a command's own time, not the fsync after it). The real server appends with
    a script (``EVALSHA``; its lobby's few scripts per duel are in the same figure, ~7 % of the
    calls), the bare pipeline with a plain ``XADD``. A script's own commands are counted again
    under their names, so the stats are not summed."""
    stats: dict[str, Any] = client.info("commandstats")
    script = stats.get("cmdstat_evalsha") or stats.get("cmdstat_eval")
    row = script if script else stats.get("cmdstat_xadd")
    return float(row["usec_per_call"]) if row else 0.0


def machine_cpu() -> tuple[float, float]:
    """(busy, all) CPU seconds of the whole machine so far, every CPU (/proc/stat)."""
    try:
        ticks = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    except (OSError, ValueError):
        return 0.0, 0.0
    idle = ticks[3] + ticks[4]  # idle + iowait
    hz = os.sysconf("SC_CLK_TCK")
    return (sum(ticks) - idle) / hz, sum(ticks) / hz


def measure_many(pids: list[int], cfgs: list[LoadConfig]) -> dict[str, Any]:
    """Several loads at once (one event loop): accepted actions/s in all, CPU of ``pids``, and
    how busy the whole machine was (every process: servers, Redis, the load driver)."""

    async def together() -> list[Any]:
        return list(await asyncio.gather(*(run(c) for c in cfgs)))

    t0 = time.perf_counter()
    cpu0 = sum(cpu_seconds(p) for p in pids)
    busy0, all0 = machine_cpu()
    stats = asyncio.run(together())
    wall = time.perf_counter() - t0
    busy1, all1 = machine_cpu()
    actions = sum(st.actions for st in stats)
    return {
        "actions": actions,
        "actions_per_s": actions / wall if wall else 0.0,
        "failed": sum(st.failed for st in stats),
        "cpu_ms_per_action": (sum(cpu_seconds(p) for p in pids) - cpu0) * 1000 / max(1, actions),
        "machine_busy": (busy1 - busy0) / (all1 - all0) if all1 > all0 else 0.0,
    }


def scale_out(
    one: Target, two: Target, bare: tuple[Target, Target], duels: int, seconds: float, rounds: int
) -> dict[str, list[dict[str, Any]]]:
    """Saturation with one server process, with the duels spread over two, and with each
    duel's seats on two different processes; and the bare pipeline with one process and with
    the duels spread over two (what two processes can gain on this machine at all, with the
    load driver and Redis on the same CPUs). Rounds interleave them."""
    out: dict[str, list[dict[str, Any]]] = {"one": [], "spread": [], "split": [], "bare_one": [], "bare_spread": []}
    half = max(1, duels // 2)

    def spread_over(a: Target, b: Target) -> list[LoadConfig]:
        return [
            LoadConfig(t.url, duels=10**6, concurrency=half, seconds=seconds, seed=i + 1) for i, t in enumerate((a, b))
        ]

    for _ in range(rounds):
        out["one"].append(
            measure_many([one.pid], [LoadConfig(one.url, duels=10**6, concurrency=duels, seconds=seconds)])
        )
        out["spread"].append(measure_many([one.pid, two.pid], spread_over(one, two)))
        split = LoadConfig(f"{one.url},{two.url}", duels=10**6, concurrency=duels, seconds=seconds)
        out["split"].append(measure_many([one.pid, two.pid], [split]))
        b1, b2 = bare
        cfg = LoadConfig(b1.url, duels=10**6, concurrency=duels, seconds=seconds)
        out["bare_one"].append(measure_many([b1.pid], [cfg]))
        out["bare_spread"].append(measure_many([b1.pid, b2.pid], spread_over(b1, b2)))
    return out


TARGET_SATURATION = 0.75
"""Issue 14: 200-duel saturation throughput at least this much of the bare pipeline's."""


def saturation_budget(sat: dict[str, list[dict[str, Any]]], cpus: int) -> str:
    """What the rest of the machine takes per action at saturation, and so what CPU per action
    the saturation target leaves the server on this machine.

    The load driver and Redis run on the same CPUs as the server. At the target rate (a share
    of the bare pipeline's rate in the same round) the machine has at most ``cpus / rate`` of
    CPU per action, every CPU busy all the time (the most generous bound: the bare pipeline's
    own rounds leave 10-15 % idle); what the driver and Redis take per action of a real duel
    (more than per bare action: larger frames, the append's script) is not the server's to
    spend. Per round, then the median."""
    budgets, drivers, redis, drivers_b, redis_b = [], [], [], [], []
    for real, bare in zip(sat["real"], sat["bare"], strict=True):
        if not bare["actions_per_s"] or "driver_ms_per_action" not in real:
            continue
        rate = TARGET_SATURATION * bare["actions_per_s"]
        machine_ms = cpus * 1000 / rate
        budgets.append(machine_ms - real["driver_ms_per_action"] - real["redis_ms_per_action"])
        drivers.append(real["driver_ms_per_action"])
        redis.append(real["redis_ms_per_action"])
        drivers_b.append(bare["driver_ms_per_action"])
        redis_b.append(bare["redis_ms_per_action"])
    if not budgets:
        return "the rest of the machine per action: not measured"
    med = statistics.median
    cpu_b = med(m["cpu_ms_per_action"] for m in sat["bare"])
    return (
        f"the rest of the machine per action: load driver real {med(drivers):.3f} ms, bare {med(drivers_b):.3f}; "
        f"Redis real {med(redis):.3f} ms, bare {med(redis_b):.3f}. At {TARGET_SATURATION}x the bare pipeline's rate "
        f"the {cpus} CPUs, all busy all the time, leave the real server {med(budgets):.3f} ms of CPU per action "
        f"(range {min(budgets):.3f}-{max(budgets):.3f}): {med(budgets) / cpu_b:.2f}x the bare pipeline's server"
    )


def fmt_range(real: list[float], bare: list[float], higher_is_better: bool) -> str:
    ratios = [r / b for r, b in zip(real, bare, strict=True) if b]
    med = statistics.median(ratios) if ratios else float("nan")
    word = "x" if higher_is_better else "x the bare pipeline's"
    return (
        f"{med:5.2f}{word} (range {min(ratios):.2f}-{max(ratios):.2f} over {len(ratios)} rounds)" if ratios else "n/a"
    )


def spread(xs: list[float], fmt: str = ".2f") -> str:
    """The median and the range of one side's figures over rounds."""
    if not xs:
        return "n/a"
    med = statistics.median(xs)
    return f"{med:{fmt}} ({min(xs):{fmt}}-{max(xs):{fmt}})"


def method_line(r: dict[str, Any], what: str) -> str:
    """One line stating how a group of ratios was measured (issue 41)."""
    sat = r["saturation"]
    drv_r = statistics.median(m["driver_ms_per_action"] for m in sat["real"])
    drv_b = statistics.median(m["driver_ms_per_action"] for m in sat["bare"])
    return (
        f"  method: {what}; {r['rounds']} rounds A/B interleaved, median (range); one Python driver for both "
        f"(CPU/action real {drv_r:.3f} ms, bare {drv_b:.3f} ms); {r.get('bare_short', 'bare as built')}"
    )


def main(argv: list[str] | None = None) -> dict[str, Any]:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--tiny", action="store_true", help="each measurement once at a tiny size")
    p.add_argument("--rounds", type=int, default=3, help="rounds of every measurement, real and bare interleaved")
    p.add_argument("--duels", type=int, default=200, help="duels at once at full speed")
    p.add_argument("--seconds", type=float, default=20.0, help="per saturation round")
    p.add_argument("--hold", default="100,500,1000,2000", help="duels held at a human pace")
    p.add_argument(
        "--bare-client",
        choices=("lean", "redis-py"),
        default="lean",
        help="the bare pipeline's Redis client (lean: the one the server appends with)",
    )
    p.add_argument("--json", type=Path, default=None, help="also write the figures here")
    a = p.parse_args(argv)
    if a.tiny:
        a.rounds, a.duels, a.seconds, a.hold = 1, 4, 0.5, "4"
    holds = [int(x) for x in a.hold.split(",")]
    hold_s = max(a.seconds, 10.0 if not a.tiny else 1.0)
    results: dict[str, Any] = {
        "rounds": a.rounds,
        "machine_cpus": len(os.sched_getaffinity(0)),
        "duels": a.duels,
        "seconds": a.seconds,
        "hold_seconds": hold_s,
    }
    with tempfile.TemporaryDirectory() as d:
        rds = EmbeddedRedis(Path(d) / "redis", fsync="always").start()
        real_proc = serve_for_load(Path(d) / "real", rds.url)
        second_proc = serve_for_load(Path(d) / "real2", rds.url)
        bare: Bare | None = None
        redis_pid = rds.pid
        real = Target("real", real_proc.url, real_proc.proc.pid if real_proc.proc else 0, redis_pid)
        second = Target("real2", second_proc.url, second_proc.proc.pid if second_proc.proc else 0, redis_pid)
        try:
            sat: dict[str, list[dict[str, Any]]] = {"real": [], "bare": []}
            stats_client = redis.Redis.from_url(rds.url)
            shape = BareShape(client=a.bare_client)
            bare_t = Target("bare", "", 0, redis_pid)
            for _ in range(a.rounds):
                for name in ("real", "bare"):
                    if name == "bare" and bare is None:
                        # made like the real server's, as measured in its first round
                        shape = BareShape(
                            frame_bytes=round(sat["real"][0]["update_bytes"]),
                            entry_bytes=real_entry_bytes(stats_client),
                            client=a.bare_client,
                        )
                        bare = Bare(rds.url, free_port(), shape=shape)
                        bare_t = Target("bare", bare.url, bare.proc.pid, redis_pid)
                    t = real if name == "real" else bare_t
                    stats_client.config_resetstat()
                    m = measure(t, LoadConfig(t.url, duels=10**6, concurrency=a.duels, seconds=a.seconds))
                    m["redis_us_per_append"] = redis_append_us(stats_client)
                    sat[t.name].append(m)
            stats_client.close()
            results["saturation"] = sat
            results["bare_shape"] = {"frame_bytes": shape.frame_bytes, "entry_bytes": shape.entry_bytes}
            results["bare_method"] = shape.method()
            results["bare_short"] = shape.short()
            bare2 = Bare(rds.url, free_port(), shape=shape)
            try:
                bare_pair = (bare_t, Target("bare2", bare2.url, bare2.proc.pid))
                results["two_processes"] = scale_out(real, second, bare_pair, a.duels, a.seconds, a.rounds)
            finally:
                bare2.stop()
            results["redis_roundtrips"] = {
                t.name: roundtrips(t, rds.url, a.duels, min(a.seconds, 5.0)) for t in (real, bare_t)
            }
            lat: dict[str, dict[str, list[dict[str, Any]]]] = {}
            for label, think in (("back_to_back", 0.0), ("think_50ms", 0.05)):
                lat[label] = {"real": [], "bare": []}
                for _ in range(a.rounds):
                    for t in (real, bare_t):
                        # back to back: one duel after another as fast as they go; with think time:
                        # one duel held (a human pace of 50 ms)
                        cfg = LoadConfig(
                            t.url,
                            duels=1 if think else 10**6,
                            concurrency=1,
                            think_s=think,
                            seconds=a.seconds if think else a.seconds / 2,
                        )
                        lat[label][t.name].append(measure(t, cfg))
            results["one_duel"] = lat
            held: dict[int, dict[str, list[dict[str, Any]]]] = {}
            for n in holds:
                held[n] = {"real": [], "bare": []}
                for r in range(a.rounds):
                    for name in ("real", "bare"):
                        # each round on a process of its own, started for it: a process that has run
                        # other loads keeps freed memory that the held duels then reuse, which made RSS
                        # per duel look a third smaller than what a duel takes (59.6 against ~88 KiB)
                        m = held_round(name, Path(d) / f"held{n}-{r}", rds.url, shape, n, hold_s)
                        held[n][name].append(m)
            results["human_pace"] = held
        finally:
            if bare is not None:
                bare.stop()
            second_proc.stop()
            real_proc.stop()
            rds.stop()
    report(results)
    if a.json is not None:
        a.json.write_text(json.dumps(results, indent=1, default=str))
    return results


def held_round(name: str, workdir: Path, redis_url: str, shape: BareShape, n: int, seconds: float) -> dict[str, Any]:
    """``n`` duels held at a human pace (each seat acts every 2 s) on a fresh real server or bare
    pipeline: latency, and RSS with the duels minus RSS idle, over ``n``."""
    stop: Callable[[], object]
    if name == "real":
        proc = serve_for_load(workdir, redis_url)
        t, stop = Target("real", proc.url, proc.proc.pid if proc.proc else 0), proc.stop
    else:
        bare = Bare(redis_url, free_port(), shape=shape)
        t, stop = Target("bare", bare.url, bare.proc.pid), bare.stop
    try:
        idle = rss_kib(t.pid) or 0
        m = measure(t, LoadConfig(t.url, duels=n, think_s=2.0, seconds=seconds))
        m["rss_kib"] = rss_kib(t.pid) or 0
        m["rss_kib_per_duel"] = (m["rss_kib"] - idle) / n
        return m
    finally:
        stop()


def _real_and_bare(sat: dict[str, list[dict[str, Any]]], key: str) -> tuple[list[float], list[float]]:
    """One figure of every saturation round, for the real server and for the bare pipeline."""
    return [m[key] for m in sat["real"]], [m[key] for m in sat["bare"]]


def report(r: dict[str, Any]) -> None:
    sat = r["saturation"]
    print(
        f"method: the real server (duel serve, full rules) against the bare pipeline (bench/pipeline.py: websockets "
        f"+ msgpack + one Redis append + two sends), one embedded Redis (appendfsync always); {r['rounds']} rounds "
        f"of every measurement, real and bare interleaved; saturation {r.get('duels', '?')} duels at once, "
        f"{r.get('seconds', '?')} s windows; human pace {r.get('hold_seconds', '?')} s windows, a fresh process "
        f"per round; {r.get('bare_method', '')}"
    )
    real, bare = _real_and_bare(sat, "actions_per_s")
    print(
        f"saturation: real {statistics.median(real):8.0f} actions/s, bare {statistics.median(bare):8.0f} -> "
        f"{fmt_range(real, bare, True)}"
    )
    cpu, cpu_b = _real_and_bare(sat, "cpu_ms_per_action")
    print(
        f"server CPU per action: real {statistics.median(cpu):.3f} ms, bare {statistics.median(cpu_b):.3f} ms -> "
        f"{fmt_range(cpu, cpu_b, False)}"
    )
    if all(m.get("redis_us_per_append") for m in sat["real"] + sat["bare"]):
        rus, bus = _real_and_bare(sat, "redis_us_per_append")
        print(
            f"Redis's own time per append (commandstats, not the fsync): real (the append script) "
            f"{statistics.median(rus):.1f} us, bare (XADD) {statistics.median(bus):.1f} us -> "
            f"{fmt_range(rus, bus, False)}"
        )
    print(method_line(r, f"saturation, {r.get('duels', '?')} duels at once, {r.get('seconds', '?')} s windows"))
    print(saturation_budget(sat, r["machine_cpus"]))
    two = r["two_processes"]
    one = [m["actions_per_s"] for m in two["one"]]

    def busy(key: str) -> str:
        return f"machine {100 * statistics.median(m.get('machine_busy', 0.0) for m in two[key]):.0f} % busy"

    for key, what in (("spread", "duels spread over two processes"), ("split", "each duel's seats on two processes")):
        v = [m["actions_per_s"] for m in two[key]]
        print(
            f"{what}: {statistics.median(v):8.0f} actions/s, one process {statistics.median(one):8.0f} -> "
            f"{fmt_range(v, one, True)} (CPU {statistics.median(m['cpu_ms_per_action'] for m in two[key]):.3f} ms "
            f"per action, both processes; {busy(key)}, one process: {busy('one')})"
        )
    if two.get("bare_one"):
        b1 = [m["actions_per_s"] for m in two["bare_one"]]
        b2 = [m["actions_per_s"] for m in two["bare_spread"]]
        print(
            f"  the bare pipeline, duels spread over two processes: {statistics.median(b2):8.0f} actions/s, one "
            f"process {statistics.median(b1):8.0f} -> {fmt_range(b2, b1, True)} ({busy('bare_spread')}, one "
            f"process: {busy('bare_one')}): what a second process can add on this machine, where the load driver "
            f"and Redis share the {r['machine_cpus']} CPUs"
        )
    print(method_line(r, f"saturation on one or two processes, {r.get('duels', '?')} duels"))
    for label, d in r["one_duel"].items():
        for q in ("p50_ms", "p99_ms"):
            rv = [m[q] for m in d["real"]]
            bv = [m[q] for m in d["bare"]]
            print(
                f"one duel {label:13} {q[:3]}: real {statistics.median(rv):7.2f} ms, bare "
                f"{statistics.median(bv):7.2f} ms -> "
                f"{fmt_range(rv, bv, False)}"
            )
    print(
        method_line(r, f"one duel, back to back ({r.get('seconds', 0) / 2:g} s) or 50 ms think ({r.get('seconds')} s)")
    )
    for n, d in r["human_pace"].items():
        p99_r = [m["p99_ms"] for m in d["real"]]
        p99_b = [m["p99_ms"] for m in d["bare"]]
        p50_r = [m["p50_ms"] for m in d["real"]]
        print(
            f"{n:5} duels at a human pace: p99 real {spread(p99_r, '.1f')} ms, bare {spread(p99_b, '.1f')} ms -> "
            f"{fmt_range(p99_r, p99_b, False)}; p50 real {spread(p50_r)} ms; "
            f"failed {sum(m['failed'] for m in d['real'])}/{sum(m['failed'] for m in d['bare'])}; RSS per duel real "
            f"{spread([m['rss_kib_per_duel'] for m in d['real']], '.1f')} KiB, "
            f"bare {spread([m['rss_kib_per_duel'] for m in d['bare']], '.1f')} KiB"
        )
    print(
        method_line(
            r,
            f"N duels held, a seat acts every 2 s, {r.get('hold_seconds', '?')} s windows, fresh processes per round",
        )
    )
    c = r["redis_roundtrips"]
    for name in ("real", "bare"):
        print(
            f"Redis round trips ({name}): {c[name]['per_action']:.3f} per accepted action in all, "
            f"{c[name]['appends_per_action']:.3f} appends per action + {c[name]['other_per_duel']:.1f} "
            f"other requests per duel (lobby, loading); {c[name]['by_command']}"
        )


if __name__ == "__main__":
    main()
