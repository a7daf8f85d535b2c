"""Issue 37: bots play the nine Goat tournament lists to a result over real websockets, and every
card of every list is activated or summoned in those duels.

The bots are ``curious`` (server/clients/curious.py): each prefers an action that uses a card of
its list not used yet, and the bots playing one list share one memory, so later duels go on to
what earlier ones left unused. Two ``BotPlayer`` s play each match (``create_match`` with
``format: "goat"``, then ``join``), as any client would.

The duels: every pairing of the nine lists (36, Main and Fusion Deck); each list with a Side Deck
once more against four others with its Side Deck swapped in, as a player sides between games
(``curious.sided``: its 15 cards in, the 15 Main Deck cards used most out); then, while a list
still has a card unused, mirror matches of it (its Side Deck swapped in when a Side Deck card is
among the unused, and every other time), at most ``MAX_EXTRA_DUELS`` in all.

What counts, read from each match's log (the server's own record, not the bots' memory): an
``activated`` fact of a card by its owner, or a ``summoned`` fact (not a Set) of a card by its
owner; a card of a list is each distinct card of its ``.ydk`` (Main, Fusion and Side Deck).

Cards that no duel can ever use are named, with the reason, by :func:`unusable`, and left out of
the figure (the test fails if one is used: the reason would be wrong):

- the Fusion Monsters of a list with no card that Special Summons from the Fusion Deck (the Goat
  pool has no Polymerization: only Metamorphosis and Cyber-Stein do);
- Metamorphosis in a list without a Fusion Deck (nothing to summon: it cannot be activated);
- a Fusion Monster whose Level no monster of its list has, when the list's only way to it is
  Metamorphosis: it needs the opponent's monster of that Level taken by control change (only
  Reasoning Gate Turbo's Fusilier Dragon offers Level 7), which is not the list's own play.

The coverage table is printed (``pytest -s``, or on failure); the test fails below 100 %.
"""

from __future__ import annotations

import asyncio
import itertools
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import redis.asyncio as aioredis
from duel_helpers import run
from proc_helpers import ServeProcess

from engine.cards import CARDS, CARDS_BY_NAME
from engine.facts import Activated, DuelEnded, DuelStarted, Summoned
from engine.format_data import GOAT_LISTS, TournamentList
from protocol.messages import Cards, CreateMatch, GetCards, Seated
from server.clients.bot_player import BotPlayer
from server.clients.client import DuelClient
from server.clients.curious import Curiosity, Curious, sided, wants_side
from server.clients.load import LOAD_TEST_LIMITS
from server.storage.store import RedisEventStore

CONCURRENCY = 8
MAX_EXTRA_DUELS = 200
DUEL_TIMEOUT = 120.0
METAMORPHOSIS = CARDS_BY_NAME["Metamorphosis"].code
CYBER_STEIN = CARDS_BY_NAME["Cyber-Stein"].code
SCAPEGOAT = CARDS_BY_NAME["Scapegoat"].code


def cards_of(lst: TournamentList) -> list[int]:
    """Each distinct card of a list, in the order of its file (Main, Fusion, Side Deck)."""
    return list(dict.fromkeys([*lst.cards.main, *lst.cards.extra, *lst.cards.side]))


def unusable(lst: TournamentList) -> dict[int, str]:
    """The cards of a list no duel of it can use, with the reason (see the module's docstring)."""
    own = [*lst.cards.main, *lst.cards.side]
    levels = {CARDS[c].level for c in own if CARDS[c].level and not CARDS[c].extra_deck}
    if SCAPEGOAT in own:
        levels.add(1)  # its Sheep Tokens
    out: dict[int, str] = {}
    for f in dict.fromkeys(lst.cards.extra):
        if METAMORPHOSIS not in own and CYBER_STEIN not in own:
            out[f] = "no Metamorphosis or Cyber-Stein in the list: nothing summons from its Fusion Deck"
        elif CYBER_STEIN not in own and CARDS[f].level not in levels:
            out[f] = (
                f"Level {CARDS[f].level}: no monster of the list has it, so Metamorphosis needs an opponent's "
                "(taken by control change)"
            )
    if METAMORPHOSIS in own and not lst.cards.extra:
        out[METAMORPHOSIS] = "the list has no Fusion Deck: Metamorphosis has nothing to summon"
    return out


@dataclass(frozen=True)
class Seat:
    lst: TournamentList
    side: bool  # its Side Deck swapped in


@dataclass
class Run:
    url: str
    catalogue: dict[int, dict[str, Any]]
    memory: dict[str, Curiosity]
    store: RedisEventStore
    used: dict[str, Counter[int]]
    duels: int = 0
    extra: int = 0  # mirror matches played (after the pairings)
    actions: int = 0
    results: Counter[str] | None = None

    def deck(self, seat: Seat) -> list[int]:
        lst = seat.lst
        if not seat.side:
            return [*lst.cards.main, *lst.cards.extra]
        return [
            *sided(list(lst.cards.main), list(lst.cards.side), self.memory[lst.key], self.catalogue),
            *lst.cards.extra,
        ]

    def bot(self, seat: Seat, deck: list[int], n: int, name: str) -> BotPlayer:
        policy = Curious(self.memory[seat.lst.key])
        policy.study(self.catalogue, deck)
        return BotPlayer(self.url, policy, seed=n, name=name, deck=deck)

    async def duel(self, a: Seat, b: Seat) -> None:
        """One match of ``a`` (seat 0) and ``b`` to its end; what each list used is counted."""
        n = self.duels = self.duels + 1
        seated: asyncio.Future[Seated] = asyncio.get_running_loop().create_future()
        host = self.bot(a, self.deck(a), 2 * n, f"{a.lst.key[:20]}")
        host.on_seated = seated.set_result
        guest = self.bot(b, self.deck(b), 2 * n + 1, f"{b.lst.key[:20]}")
        hosting = asyncio.create_task(host.create(CreateMatch(format="goat")))
        match_id = (await asyncio.wait_for(asyncio.shield(seated), 30)).match_id
        joining = asyncio.create_task(guest.join(match_id))
        results = await asyncio.wait_for(asyncio.gather(hosting, joining), DUEL_TIMEOUT)
        winners = {r.winner for r in results}
        assert len(winners) == 1 and None not in winners, f"match {match_id} ended without a result: {results}"
        log = await self.store.read(match_id)
        assert self.results is not None
        ended = [f for f in log[-1].facts if isinstance(f, DuelEnded)]
        assert ended, f"match {match_id}: its last entry does not end the duel"
        self.results[ended[0].reason] += 1
        self.actions += len(log) - 1
        start = next(f for f in log[0].facts if isinstance(f, DuelStarted))
        cards = [(seat, cid, code) for seat in (0, 1) for cid, code in [*start.decks[seat], *start.extra[seat]]]
        owner = {cid: seat for seat, cid, _ in cards}
        codes = {cid: code for _, cid, code in cards}
        lists = (a.lst.key, b.lst.key)
        for entry in log[1:]:
            for f in entry.facts:
                used = isinstance(f, Activated) or (isinstance(f, Summoned) and f.kind != "set")
                if used and owner.get(f.card) == f.seat:  # type: ignore[attr-defined]
                    self.used[lists[f.seat]][codes[f.card]] += 1  # type: ignore[attr-defined]

    def missing(self, lst: TournamentList) -> list[int]:
        skip = unusable(lst)
        return [c for c in cards_of(lst) if c not in skip and not self.used[lst.key][c]]


async def _workers(r: Run) -> None:
    """Play every pairing, then, while a list has a card unused, mirror matches of it: at most
    ``CONCURRENCY`` matches at a time, each next one chosen when a match ends."""
    pairings = [(Seat(a, False), Seat(b, False)) for a, b in itertools.combinations(GOAT_LISTS, 2)]
    running: Counter[str] = Counter()

    def next_duel() -> tuple[Seat, Seat] | None:
        if pairings:
            return pairings.pop(0)
        short = [lst for lst in GOAT_LISTS if r.missing(lst)]
        if not short or r.extra >= MAX_EXTRA_DUELS:
            return None
        lst = min(short, key=lambda x: running[x.key])  # the list with the fewest matches going on
        r.extra += 1
        memory = r.memory[lst.key]
        side = bool(lst.cards.side) and (
            wants_side(list(lst.cards.main), list(lst.cards.side), list(lst.cards.extra), memory, r.catalogue)
            or r.extra % 2 == 0
        )
        return Seat(lst, side), Seat(lst, side)

    async def worker() -> None:
        while (duel := next_duel()) is not None:
            keys = {duel[0].lst.key, duel[1].lst.key}
            running.update(keys)
            try:
                await r.duel(*duel)
            finally:
                running.subtract(keys)

    await asyncio.gather(*(worker() for _ in range(CONCURRENCY)))


def table(r: Run) -> tuple[list[str], int, int]:
    lines, covered, total = [], 0, 0
    for lst in GOAT_LISTS:
        skip = unusable(lst)
        cards = cards_of(lst)
        counted = [c for c in cards if c not in skip]
        done = [c for c in counted if r.used[lst.key][c]]
        covered, total = covered + len(done), total + len(counted)
        lines.append(f"{lst.title}: {len(done)}/{len(counted)} cards used ({len(skip)} unusable)")
        for c in cards:
            parts = "/".join(
                f"{p} x{n}"
                for p, n in (
                    ("main", lst.cards.main.count(c)),
                    ("fusion", lst.cards.extra.count(c)),
                    ("side", lst.cards.side.count(c)),
                )
                if n
            )
            mark = f"unusable: {skip[c]}" if c in skip else ("" if r.used[lst.key][c] else "NEVER USED")
            lines.append(f"  {r.used[lst.key][c]:5d}  {CARDS[c].name:<48} {parts:<18} {mark}")
    return lines, covered, total


def test_bots_play_every_goat_pairing_and_use_every_card(redis_url: str, tmp_path: Path) -> None:
    began = time.monotonic()
    # ``duel serve`` in a process of its own: the server on one core, the bots on the other
    with ServeProcess(tmp_path, "--redis-url", redis_url, *LOAD_TEST_LIMITS) as server:
        r = run(_play_all(server.url, redis_url))
    lines, covered, total = table(r)
    assert r.results is not None
    print(
        f"\nGoat bot duels: {r.duels} duels, {r.actions} actions, results {dict(r.results)}, "
        f"{time.monotonic() - began:.1f} s; cards used: {covered}/{total} ({100 * covered / total:.1f} %)"
    )
    print("\n".join(lines))
    for lst in GOAT_LISTS:
        wrong = [CARDS[c].name for c in unusable(lst) if r.used[lst.key][c]]
        assert not wrong, f"{lst.title}: cards said to be unusable were used: {wrong}"
    assert covered == total, "cards never used:\n" + "\n".join(x for x in lines if "NEVER USED" in x or ":" in x)


async def _play_all(url: str, redis_url: str) -> Run:
    if True:
        client = await DuelClient.connect(url, "catalogue")
        await client.send(GetCards())
        catalogue = {int(c["code"]): c for c in (await client.expect(Cards)).cards}
        await client.close()
        store = RedisEventStore(aioredis.Redis.from_url(redis_url))
        r = Run(url, catalogue, {lst.key: Curiosity() for lst in GOAT_LISTS}, store, {}, results=Counter())
        r.used = {lst.key: Counter() for lst in GOAT_LISTS}
        try:
            await _workers(r)
        finally:
            await store.redis.aclose()
        return r
