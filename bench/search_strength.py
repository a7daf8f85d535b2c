"""The search bot's strength and cost (issue 40): ``search`` against ``greedy`` and ``random``
over the demo decks, in one process per worker, over the engine (``server.clients.search.arena``:
each policy gets what a client gets, no server).

    .venv/bin/python -m bench.search_strength                       # 200 duels vs greedy, 0.5 s
    .venv/bin/python -m bench.search_strength --budget 0.1 --workers 2
    .venv/bin/python -m bench.search_strength --tiny                # a few short duels (make test)

Pairings: every public demo deck against itself (mirror) and against every other deck of its
format (mixed), in turn; each pairing is played twice with the same duel seed, the search bot
in seat 0 and then in seat 1 (the deck it plays stays its own), and the seat that goes first
alternates with the pairing. Printed: the win rate against greedy with its Wilson 95 %
interval, per deck of the search bot and per pairing (both orders together), the win rate
against random-legal, searched decisions per second and simulated actions per second per core
(one worker is one core), and the decision time's p50/p99/max against the budget.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import statistics
import time
from collections import Counter, defaultdict
from dataclasses import dataclass
from typing import Any

from engine.decks import DEMO_DECKS
from server.clients.bot import Policy, greedy, random_legal
from server.clients.search.arena import play
from server.clients.search.monte_carlo import SearchConfig
from server.clients.search.policy import SearchPolicy

OPPONENTS: dict[str, Policy] = {"greedy": greedy, "random": random_legal}


@dataclass(frozen=True)
class Job:
    opponent: str
    mine: str  # the search bot's deck
    theirs: str
    seat: int  # the search bot's seat
    seed: int
    first: int
    budget: float | None
    worlds: int | None


@dataclass
class Outcome:
    job: Job
    won: bool
    draw: bool
    turns: int
    thought: list[tuple[float, int, int, float]]  # per searched decision: seconds, simulated actions, worlds, CPU
    decisions: int


def pairings() -> list[tuple[str, str]]:
    """(search bot's deck, opponent's deck): mirrors first, then mixed pairings within a format."""
    decks = [d for d in DEMO_DECKS if d.public]
    mirrors = [(d.name, d.name) for d in decks]
    mixed = [(a.name, b.name) for a in decks for b in decks if a.format == b.format and a.name != b.name]
    return mirrors + mixed


def jobs(opponent: str, duels: int, budget: float | None, worlds: int | None, seed: int) -> list[Job]:
    out: list[Job] = []
    pairs = pairings()
    k = 0
    while len(out) < duels:
        mine, theirs = pairs[k % len(pairs)]
        for seat in (0, 1):
            out.append(Job(opponent, mine, theirs, seat, seed + k, k % 2, budget, worlds))
        k += 1
    return out[:duels]


def run_job(job: Job) -> Outcome:
    policy = SearchPolicy(SearchConfig(budget_s=job.budget, worlds=job.worlds))
    other = OPPONENTS[job.opponent]
    policies = (policy, other) if job.seat == 0 else (other, policy)
    names = (job.mine, job.theirs) if job.seat == 0 else (job.theirs, job.mine)
    record = play(names, policies, job.seed, job.first)
    return Outcome(
        job,
        record.winner == job.seat,
        record.winner == "draw",
        record.turns,
        list(policy.thought),
        policy.decisions,
    )


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95 % by default)."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def rate(wins: int, n: int) -> str:
    lo, hi = wilson(wins, n)
    return f"{wins}/{n} = {100 * wins / max(n, 1):5.1f} % (95 % CI {100 * lo:.1f}-{100 * hi:.1f} %)"


def played(all_jobs: list[Job], workers: int, label: str) -> list[Outcome]:
    began = time.perf_counter()
    out: list[Outcome] = []
    if workers <= 1:
        for job in all_jobs:
            out.append(run_job(job))
            _progress(label, out, len(all_jobs), began)
    else:
        ctx = multiprocessing.get_context("spawn")
        with ctx.Pool(workers) as pool:
            for outcome in pool.imap_unordered(run_job, all_jobs):
                out.append(outcome)
                _progress(label, out, len(all_jobs), began)
    return out


def _progress(label: str, out: list[Outcome], total: int, began: float) -> None:
    if len(out) % 20 == 0 or len(out) == total:
        wins = sum(o.won for o in out)
        print(f"  {label}: {len(out)}/{total} duels, {wins} won, {time.perf_counter() - began:.0f} s", flush=True)


def report(outcomes: list[Outcome], opponent: str, budget: float | None) -> dict[str, Any]:
    n = len(outcomes)
    wins = sum(o.won for o in outcomes)
    draws = sum(o.draw for o in outcomes)
    print(f"search vs {opponent}: {rate(wins, n)}; draws {draws}")
    lo, hi = wilson(wins, n)
    figures: dict[str, Any] = {"duels": n, "wins": wins, "rate": wins / max(n, 1), "ci": (lo, hi)}
    if opponent != "greedy":
        return figures
    by_seat = Counter(o.job.seat for o in outcomes if o.won)
    print(
        f"  by seat: seat 0 {by_seat[0]}/{sum(o.job.seat == 0 for o in outcomes)}, "
        f"seat 1 {by_seat[1]}/{sum(o.job.seat == 1 for o in outcomes)}"
    )
    per_deck: dict[str, list[bool]] = defaultdict(list)
    per_pair: dict[tuple[str, str], list[bool]] = defaultdict(list)
    for o in outcomes:
        per_deck[o.job.mine].append(o.won)
        pair = (o.job.mine, o.job.theirs) if o.job.mine <= o.job.theirs else (o.job.theirs, o.job.mine)
        per_pair[pair].append(o.won)
    print("  per deck of the search bot:")
    for deck, won in sorted(per_deck.items()):
        print(f"    {deck:36s} {rate(sum(won), len(won))}")
    print("  per pairing (both orders, both seats):")
    for (a, b), won in sorted(per_pair.items()):
        kind = "mirror" if a == b else "mixed "
        print(f"    {kind} {a} vs {b}: {sum(won)}/{len(won)}")
    thought = [t for o in outcomes for t in o.thought if t[2] > 0]
    if thought:
        secs = sorted(t[0] for t in thought)
        cpu = sorted(t[3] for t in thought)
        total = sum(cpu)
        steps = sum(t[1] for t in thought)
        p99 = secs[min(len(secs) - 1, int(0.99 * len(secs)))]
        cpu99 = cpu[min(len(cpu) - 1, int(0.99 * len(cpu)))]
        decisions = sum(o.decisions for o in outcomes)
        print(
            f"  decisions: {decisions} in all, {len(secs)} searched "
            f"({len(secs) / max(sum(o.turns for o in outcomes), 1):.1f} per turn); the others had one sensible action "
            "or were answered by rule"
        )
        print(
            f"  cost per core (CPU time): {len(secs) / total:.1f} searched decisions/s, "
            f"{steps / total:.0f} simulated actions/s, {statistics.mean(t[2] for t in thought):.1f} worlds per decision"
        )
        budget_text = "no time budget" if budget is None else f"budget {budget:.3f} s"
        print(
            f"  decision time (wall clock): p50 {statistics.median(secs):.3f} s, p99 {p99:.3f} s, max {secs[-1]:.3f} s "
            f"({budget_text}); its CPU: p50 {statistics.median(cpu):.3f} s, p99 {cpu99:.3f} s, max {cpu[-1]:.3f} s"
        )
        figures.update(p99=p99, actions_per_s=steps / total, decisions_per_s=len(secs) / total)
    return figures


def main(argv: list[str] | None = None) -> dict[str, Any]:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--duels", type=int, default=200, help="duels against greedy (default 200)")
    p.add_argument("--random-duels", type=int, default=24, help="duels against random-legal (default 24)")
    p.add_argument("--budget", type=float, default=0.5, help="seconds of search per decision (default 0.5)")
    p.add_argument("--workers", type=int, default=1, help="worker processes, one duel each at a time (default 1)")
    p.add_argument("--seed", type=int, default=40_000)
    p.add_argument("--tiny", action="store_true", help="a few duels, one world per decision (no clock)")
    a = p.parse_args(argv)
    budget: float | None = a.budget
    worlds = None
    if a.tiny:
        a.duels, a.random_duels, budget, worlds = 2, 1, None, 1
    print(
        f"search bot: {'one world per decision' if worlds else f'{budget} s per decision'}, "
        f"{a.workers} worker(s); {len(pairings())} pairings of the public demo decks"
    )
    out = {
        "greedy": report(played(jobs("greedy", a.duels, budget, worlds, a.seed), a.workers, "greedy"), "greedy", budget)
    }
    if a.random_duels:
        vs_random = played(jobs("random", a.random_duels, budget, worlds, a.seed + 7), a.workers, "random")
        out["random"] = report(vs_random, "random", budget)
    return out


if __name__ == "__main__":
    main()
