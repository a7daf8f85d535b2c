"""Determinized Monte Carlo search over the pure engine: what the ``search`` bot thinks with.

One decision: the client's view, its legal actions (its aliases) and what it learned
(:class:`engine.determinize.Knowledge`). The search draws worlds consistent with the view
(``engine.determinize``: the hidden cards from what the view allows, never from the true state)
and, in each world, plays every candidate action still in the running and then the duel on with
the greedy playout player (``rollout.playout``) until the turn after next begins, scoring the
position reached (``rollout.evaluate``). All candidates of one world share its playout seed
(common random numbers: a difference between two actions is the actions', not the dice's).
After each world, candidates far below the best are dropped (a margin that narrows as worlds
add up), so the time goes to the actions that might be best. It stops at its time budget, or
after ``worlds`` worlds when that is set (then it is a pure function of its request and seed:
the tests use it), and plays the candidate with the best mean among those that ran longest.

An action the world has no counterpart for, or that is illegal there (the world lacks what
no client is told: once-per-turn keys used, lingering effects), is skipped in that world; one
never tried anywhere is played only when nothing was.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field
from typing import Any, Final

from engine import CARDS, IllegalAction, decide_state
from engine.determinize import Knowledge, determinize
from engine.rng import Draws
from server.clients.bot import cards_by_id, greedy
from server.clients.search.rollout import playout

MARGIN: Final = 0.6
"""Candidates whose mean is this far below the best after one world are dropped (divided by
the square root of the worlds played)."""
PRIOR: Final = 0.05
"""What the greedy policy's own choice is credited with on top of its mean: a few noisy playouts
do not talk the search out of the obvious move, a clear difference does."""
SLACK: Final = 0.85
"""The share of its budget a search plays out (the rest is its margin)."""
KEEP: Final = 3
"""Never fewer candidates than this are kept in the running."""


@dataclass(frozen=True, slots=True)
class SearchConfig:
    """How long a decision may take: ``budget_s`` seconds (None: no limit), ``worlds`` worlds at
    most (None: no limit; set it for a result that does not depend on the clock). Playouts stop
    ``horizon`` turns on (the turn after next: the opponent's answer is seen) or after
    ``max_steps`` actions."""

    budget_s: float | None = 0.5
    worlds: int | None = None
    horizon: int = 2
    max_steps: int = 160


@dataclass(slots=True)
class SearchRequest:
    """What one decision is given: no more than a client has."""

    view: dict[str, Any]
    legal: list[dict[str, Any]]
    knowledge: Knowledge
    seed: int
    config: SearchConfig = field(default_factory=SearchConfig)


@dataclass(slots=True)
class SearchResult:
    index: int  # the chosen action's index in the request's legal actions
    worlds: int = 0
    playouts: int = 0
    steps: int = 0  # actions simulated (the candidates' and the playouts')
    elapsed: float = 0.0  # seconds, wall clock
    cpu: float = 0.0  # seconds of this process's CPU
    means: dict[int, tuple[int, float]] = field(default_factory=dict)  # index -> (playouts, mean score)


def search(req: SearchRequest) -> SearchResult:
    """The action to play (its index in ``req.legal``), found by determinized Monte Carlo."""
    start = time.perf_counter()
    cpu = time.process_time()
    cfg = req.config
    rnd = random.Random(req.seed)
    me = req.knowledge.seat
    legal = req.legal
    running = candidates(legal, req.view, _hunch(req))
    total = dict.fromkeys(running, 0.0)
    visits = dict.fromkeys(running, 0)
    out = SearchResult(index=running[0] if running else 0)
    if len(running) <= 1:
        out.elapsed = time.perf_counter() - start
        out.cpu = time.process_time() - cpu
        return out  # nothing to weigh
    turn = int(req.view.get("turn", 0))
    until = turn + (cfg.horizon if req.view.get("turn_player") == me else max(1, cfg.horizon - 1))

    # the search stops a little before its budget: what is left is for the last playout's
    # remaining steps, choosing and answering
    deadline = None if cfg.budget_s is None else start + SLACK * cfg.budget_s

    def out_of_time() -> bool:
        return deadline is not None and time.perf_counter() > deadline

    while not (cfg.worlds is not None and out.worlds >= cfg.worlds):
        if out.worlds > 0 and out_of_time():
            break
        world = determinize(req.view, req.knowledge, Draws(rnd.getrandbits(64)))
        out.worlds += 1
        seed = rnd.getrandbits(64)
        order = list(running)
        rnd.shuffle(order)
        for i in order:
            if out.playouts > 0 and out_of_time():
                break
            action = world.to_world(legal[i])
            if action is None:
                continue
            try:
                _, after = decide_state(world.state, me, action)
            except IllegalAction:
                continue
            except Exception:  # a world is a guess: a card's script may find it lacks what it kept
                continue
            score, steps = playout(after, me, random.Random(seed), until, cfg.max_steps, deadline)
            total[i] += score
            visits[i] += 1
            out.playouts += 1
            out.steps += steps + 1
        running = _survivors(running, total, visits, out.worlds)
    tried = [i for i in total if visits[i] > 0]
    out.means = {i: (visits[i], total[i] / visits[i]) for i in tried}
    if tried:
        # the best mean among the candidates that ran about as long as any (a candidate dropped
        # early had few playouts: its mean is the less sure)
        most = max(visits[i] for i in tried)
        sure = [i for i in tried if 2 * visits[i] >= most]
        hunch = _hunch(req)
        out.index = max(sure, key=lambda i: (total[i] / visits[i] + (PRIOR if i == hunch else 0.0), -i))
    out.elapsed = time.perf_counter() - start
    out.cpu = time.process_time() - cpu
    return out


ONWARD: Final = ("enter_battle_phase", "end_battle_phase", "pass", "next_phase", "end_turn")
"""The actions that move the duel on without doing anything, in the order the one kept is
chosen (``greedy``'s): which of them is taken changes little (a Battle Phase entered need not
see an attack), and a playout is too short to tell them apart from its noise."""
SKIPPED: Final = frozenset({"concede", "finish_turn"})
"""Never candidates: conceding, and passing every window of the rest of the turn at once."""


VARIANTS: Final = 3
"""At most this many activations of one card's effect are candidates (their targets and costs
differ): Spell Reproduction's nine pairs of costs would each take a playout of every world."""


def candidates(legal: list[dict[str, Any]], view: dict[str, Any] | None = None, keep: int | None = None) -> list[int]:
    """The indices of the legal actions worth a playout: the actions that do something, and one
    action that moves the duel on (the first of :data:`ONWARD` on offer). Left out: Setting a
    Spell that is not Quick-Play (it waits there for nothing), and activations of one effect
    beyond :data:`VARIANTS` (evenly spread over its targets and costs). ``keep``: an index kept
    whatever (the greedy policy's choice)."""
    known = cards_by_id(view) if view is not None else {}
    groups: dict[tuple[Any, ...], list[int]] = {}
    doing: list[int] = []
    for i, a in enumerate(legal):
        do = a.get("do")
        if do in SKIPPED or do in ONWARD or (do == "set" and _idle_spell(known.get(a.get("card")))):
            continue
        if do == "activate":
            groups.setdefault((a.get("card"), a.get("effect")), []).append(i)
        else:
            doing.append(i)
    for group in groups.values():
        if len(group) <= VARIANTS:
            doing += group
        else:
            step = (len(group) - 1) / (VARIANTS - 1)
            doing += sorted({group[round(k * step)] for k in range(VARIANTS)})
    if keep is not None and keep not in doing and legal[keep].get("do") == "activate":
        doing.append(keep)  # an activation the spread left out
    for kind in ONWARD:
        onward = next((i for i, a in enumerate(legal) if a.get("do") == kind), None)
        if onward is not None:
            return sorted([*doing, onward])
    return sorted(doing) or [i for i, a in enumerate(legal) if a.get("do") != "concede"] or [0]


def _idle_spell(card: dict[str, Any] | None) -> bool:
    """A Spell Card that Setting does nothing for (not a Quick-Play Spell), as far as the view says."""
    code = (card or {}).get("code")
    d = CARDS.get(code) if isinstance(code, int) else None
    return d is not None and d.is_spell and d.prop != "quick-play"


def _hunch(req: SearchRequest) -> int | None:
    """The index of the action the greedy policy would take on the view (a client-level policy:
    ``server.clients.bot.greedy``), or None."""
    action = greedy(req.view, req.legal, random.Random(req.seed ^ 0x5EED))
    return next((i for i, a in enumerate(req.legal) if a == action), None)


def _survivors(running: list[int], total: dict[int, float], visits: dict[int, int], worlds: int) -> list[int]:
    """The candidates still worth playouts after ``worlds`` worlds."""
    tried = [i for i in running if visits[i] > 0]
    if len(tried) <= KEEP:
        return running
    mean = {i: total[i] / visits[i] for i in tried}
    best = max(mean.values())
    margin = MARGIN / math.sqrt(worlds)
    kept = [i for i in tried if mean[i] >= best - margin]
    if len(kept) < KEEP:
        kept = sorted(tried, key=lambda i: -mean[i])[:KEEP]
    return sorted(kept)
