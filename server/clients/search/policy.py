"""The ``search`` bot policy: it searches the pure engine for its move, seeing only what a client sees.

:class:`SearchPolicy` is a :data:`server.clients.bot.Policy` with ``observe`` and ``study``: it is
given its view and legal actions (its card aliases), the facts of each update its seat receives
and the deck it brought, and keeps what it learns in :class:`engine.determinize.Knowledge`.
A decision with one legal action (a concession aside) is answered at once. A decision at
priority (summon, Set, activate with its targets and costs, attack, respond to a chain or an
attack, move on) or a replay is searched (``monte_carlo.search``); the questions asked while an
effect resolves (cards to choose, an option, the order of triggers, a discard: the world a
client could rebuild stops short of the effect waiting for the answer) are answered by rule:
take the best cards offered from elsewhere, give away the least, activate a trigger.

Called directly it searches in the calling thread (tests, benchmarks' worker processes);
:meth:`SearchPolicy.think` runs the search in a worker process of ``server.clients.search.pool``,
so a server's event loop never waits on it.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine import CARDS
from engine.determinize import Knowledge
from protocol.actions import ActionKind, WireAction
from server.clients.bot import View, cards_by_id, greedy
from server.clients.search.monte_carlo import SearchConfig, SearchRequest, SearchResult, candidates, search

SEARCHED = frozenset({"priority", "replay"})
"""The decision kinds searched; the others are answered by rule."""
GIVING_ZONES = frozenset({"hand", "monsters", "spells_traps", "field"})


@dataclass
class SearchPolicy:
    """A searching bot's policy (call it as any :data:`server.clients.bot.Policy`)."""

    config: SearchConfig = field(default_factory=SearchConfig)
    deck: tuple[int, ...] | None = None  # the deck it brought (Main + Extra), when known
    knowledge: Knowledge | None = None
    last: SearchResult | None = None  # the last search's figures
    decisions: int = 0  # decisions made (searched or not)
    searched: int = 0
    # per search: seconds (wall clock), simulated actions, worlds, seconds of CPU
    thought: list[tuple[float, int, int, float]] = field(default_factory=list)
    _updates: list[list[dict[str, Any]]] = field(default_factory=list)

    def study(self, catalogue: Mapping[int, Any], deck: Sequence[int] | None) -> None:
        """The deck it brought (the catalogue it does not need: the engine's card data is the same)."""
        self.deck = tuple(deck) if deck else None
        if self.knowledge is not None:
            self.knowledge.deck = self.deck

    def observe(self, facts: list[dict[str, Any]]) -> None:
        """The facts of one update, as its seat received them."""
        self._updates.append(list(facts))

    def _know(self, view: View) -> Knowledge:
        seat = int(view.get("you", 0) or 0)
        k = self.knowledge
        if k is None or k.seat != seat:
            k = self.knowledge = Knowledge(seat=seat, deck=self.deck)
        for facts in self._updates:
            if any(f.get("t") == "duel_started" for f in facts):
                k = self.knowledge = Knowledge(seat=seat, deck=self.deck)  # a new duel of the match
            k.learn(facts)
        self._updates.clear()
        k.note(view)
        return k

    def request(self, view: View, legal: list[WireAction], rnd: random.Random) -> SearchRequest | WireAction:
        """The search to make for this decision, or the action itself when none is needed."""
        self.decisions += 1
        knowledge = self._know(view)
        playable = [a for a in legal if a.get("do") != ActionKind.CONCEDE] or legal
        if len(playable) == 1:
            return playable[0]
        pending = view.get("pending") or {}
        if str(pending.get("kind", "priority")) not in SEARCHED:
            return answer(view, pending, playable, knowledge.seat, rnd)
        onward = candidates(legal, view)
        if len(onward) == 1:
            return legal[onward[0]]  # one action does something, or all just move on
        self.searched += 1
        return SearchRequest(dict(view), list(legal), _copy(knowledge), rnd.getrandbits(63), self.config)

    def chosen(self, req: SearchRequest, result: SearchResult) -> WireAction:
        self.last = result
        self.thought.append((result.elapsed, result.steps, result.worlds, result.cpu))
        return req.legal[result.index]

    def __call__(self, view: View, legal: list[WireAction], rnd: random.Random) -> WireAction:
        req = self.request(view, legal, rnd)
        if not isinstance(req, SearchRequest):
            return req
        return self.chosen(req, search(req))

    async def think(self, view: View, legal: list[WireAction], rnd: random.Random) -> WireAction:
        """As a call, with the search run in the shared worker pool (``pool.run``)."""
        from server.clients.search.pool import run

        req = self.request(view, legal, rnd)
        if not isinstance(req, SearchRequest):
            return req
        return self.chosen(req, await run(req))


def _copy(k: Knowledge) -> Knowledge:
    return Knowledge(
        seat=k.seat,
        fmt=k.fmt,
        deck=k.deck,
        seen=(dict(k.seen[0]), dict(k.seen[1])),
        since=dict(k.since),
        links=dict(k.links),
        event=None if k.event is None else dict(k.event),
        proper=set(k.proper),
    )


def worth(code: object) -> int:
    """How much a card is worth keeping or getting, by its printed facts (public)."""
    d = CARDS.get(code) if isinstance(code, int) else None
    if d is None:
        return 1000
    if d.is_monster:
        return max(d.atk, d.def_) + (500 if d.extra_deck else 0)
    return 1200


def answer(
    view: View, pending: Mapping[str, Any], legal: list[WireAction], seat: int, rnd: random.Random
) -> WireAction:
    """A question asked while an effect resolves (or a trigger, or a discard), answered by rule."""
    kind = str(pending.get("kind", ""))
    activations = [a for a in legal if a.get("do") == ActionKind.ACTIVATE]
    if activations and kind in ("trigger", "ahead"):
        return activations[0]  # a trigger is its card's point; in the order offered
    picks = [a for a in legal if a.get("do") == ActionKind.CHOOSE and isinstance(a.get("cards"), list)]
    if not picks:
        return greedy(view, legal, rnd)
    cards = cards_by_id(view)
    offered = {c.get("id"): c.get("code") for c in pending.get("cards") or [] if isinstance(c, dict)}

    def code_of(ref: object) -> object:
        return offered.get(ref) or (cards.get(ref) or {}).get("code")

    def giving(a: WireAction) -> bool:
        return any(
            (cards.get(r) or {}).get("zone") in GIVING_ZONES and (cards.get(r) or {}).get("controller") == seat
            for r in a.get("cards") or []
        )

    def score(a: WireAction) -> tuple[int, int, float]:
        picked = a.get("cards") or []
        value = sum(worth(code_of(r)) for r in picked)
        if kind == "discard" or giving(a):
            return (-value, -len(picked), rnd.random())
        return (value, len(picked), rnd.random())

    return max(picks, key=score)
