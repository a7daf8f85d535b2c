"""Issue 37: bots play the nine Goat tournament lists to a result over real websockets, and every
card of every list is activated or summoned in those duels.

The bots are ``curious`` (server/clients/curious.py): each prefers an action that uses a card of
its list not used yet, and the bots playing one list share one memory, so that later duels go on
to what earlier ones left unused. Two ``BotPlayer`` s play each match against ``duel serve`` (a
process of its own): one creates it (``create_match`` with ``format: "goat"`` and its deck), the
other joins, as any client would. The server shuffles with seeds of its own; the bots' choices
are seeded (a duel's number).

The duels: every pairing of the nine lists (36, their Main and Fusion Decks); then, while a list
has a card not used yet, mirror matches of it, at most ``MAX_EXTRA_DUELS``: with its Side Deck
swapped in, as a player sides between games, while a Side Deck card is unused or a Side Deck
monster is the only way to an unused Fusion Monster, and every other match anyway
(``curious.wants_side``, ``curious.sided``: its 15 cards in, as many of the Spells and Traps used
most out).

Each match's log is verified (``duel verify``: the rules re-run over its actions give the same
facts and states). What counts, read from the log (the server's record, not the bots' memory): an
``activated`` fact of a card by its owner, or a ``summoned`` fact (not a Set) of a card by its
owner. The cards of a list are the distinct cards of its ``.ydk`` (Main, Fusion and Side Deck;
the table gives each one's copies and how often it was used).

Not in the figure, each with its reason (:func:`beyond`), as the table shows:

- cards no duel can ever use (the test fails if one is used: the reason would be wrong): the
  Fusion Monsters of a list with no card that Special Summons from the Fusion Deck (the Goat pool
  has no Polymerization; only Metamorphosis and Cyber-Stein do), and Metamorphosis in a list
  without a Fusion Deck (nothing to summon: it cannot be activated);
- Fusion Monsters a list reaches only through its opponent's cards: a Level no monster of the
  list has, when Metamorphosis is its only way (it needs an opponent's monster of that Level,
  taken by Snatch Steal or Creature Swap: only Reasoning Gate Turbo has Level-7 monsters, its
  Fusilier Dragon and the Fusion Monsters it makes of it). Counted when they happen.

The coverage table is printed (``pytest -s``); the test fails below 100 %.
"""

from __future__ import annotations

import asyncio
import itertools
import time
from collections import Counter
from dataclasses import dataclass, field
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
from server.history.replay import verify_log
from server.storage.store import RedisEventStore

CONCURRENCY = 8
MAX_EXTRA_DUELS = 200
DUEL_TIMEOUT = 120.0
ALL_TIMEOUT = 900.0
METAMORPHOSIS = CARDS_BY_NAME["Metamorphosis"].code
CYBER_STEIN = CARDS_BY_NAME["Cyber-Stein"].code
SCAPEGOAT = CARDS_BY_NAME["Scapegoat"].code


def cards_of(lst: TournamentList) -> list[int]:
    """Each distinct card of a list, in the order of its file (Main, Fusion, Side Deck)."""
    return list(dict.fromkeys([*lst.cards.main, *lst.cards.extra, *lst.cards.side]))


@dataclass(frozen=True)
class Beyond:
    """Why a card of a list is not in the figure; ``never``: no duel can use it."""

    reason: str
    never: bool


def beyond(lst: TournamentList) -> dict[int, Beyond]:
    """The cards of a list its own play cannot use, with the reason (the module's docstring)."""
    own = [*lst.cards.main, *lst.cards.side]
    levels = {CARDS[c].level for c in own if CARDS[c].level}
    if SCAPEGOAT in own:
        levels.add(1)  # its Sheep Tokens
    out: dict[int, Beyond] = {}
    for f in dict.fromkeys(lst.cards.extra):
        if METAMORPHOSIS not in own and CYBER_STEIN not in own:
            out[f] = Beyond("no Metamorphosis or Cyber-Stein in the list: nothing summons from its Fusion Deck", True)
        elif CYBER_STEIN not in own and CARDS[f].level not in levels:
            out[f] = Beyond(f"Level {CARDS[f].level}: only Metamorphosis of an opponent's monster taken", False)
    if METAMORPHOSIS in own and not lst.cards.extra:
        out[METAMORPHOSIS] = Beyond("no Fusion Deck: Metamorphosis has nothing to summon", True)
    return out


@dataclass(frozen=True)
class Seat:
    lst: TournamentList
    side: bool  # its Side Deck swapped in


@dataclass
class Run:
    url: str
    catalogue: dict[int, dict[str, Any]]
    store: RedisEventStore
    memory: dict[str, Curiosity] = field(default_factory=lambda: {lst.key: Curiosity() for lst in GOAT_LISTS})
    used: dict[str, Counter[int]] = field(default_factory=lambda: {lst.key: Counter() for lst in GOAT_LISTS})
    results: Counter[str] = field(default_factory=Counter)
    duels: int = 0
    mirrors: int = 0  # mirror matches played (after the pairings)
    actions: int = 0

    def deck(self, seat: Seat) -> list[int]:
        lst = seat.lst
        main = list(lst.cards.main)
        if seat.side:
            main = sided(main, list(lst.cards.side), self.memory[lst.key], self.catalogue)
        return [*main, *lst.cards.extra]

    def bot(self, seat: Seat, n: int) -> BotPlayer:
        deck = self.deck(seat)
        policy = Curious(self.memory[seat.lst.key])
        policy.study(self.catalogue, deck)
        return BotPlayer(self.url, policy, seed=n, name=seat.lst.key[:24], deck=deck)

    async def duel(self, a: Seat, b: Seat) -> None:
        """One match of ``a`` (seat 0) and ``b`` to its end; what each list used is counted."""
        n = self.duels = self.duels + 1
        seated: asyncio.Future[Seated] = asyncio.get_running_loop().create_future()
        host, guest = self.bot(a, 2 * n), self.bot(b, 2 * n + 1)
        host.on_seated = seated.set_result
        hosting = asyncio.create_task(host.create(CreateMatch(format="goat")))
        match_id = (await asyncio.wait_for(asyncio.shield(seated), 30)).match_id
        joining = asyncio.create_task(guest.join(match_id))
        results = await asyncio.wait_for(asyncio.gather(hosting, joining), DUEL_TIMEOUT)
        winners = {r.winner for r in results}
        assert len(winners) == 1 and None not in winners, f"match {match_id} ended without a result: {results}"
        log = await asyncio.wait_for(self.store.read(match_id), 30)
        ended = [f for f in log[-1].facts if isinstance(f, DuelEnded)]
        assert ended, f"match {match_id}: its last entry does not end the duel"
        self.results[ended[0].reason] += 1
        self.actions += len(log) - 1
        divergence, _ = verify_log(log)  # today's rules, re-run over the logged actions, agree
        assert divergence is None, f"match {match_id}: {divergence}"
        start = next(f for f in log[0].facts if isinstance(f, DuelStarted))
        cards = [(seat, cid, code) for seat in (0, 1) for cid, code in [*start.decks[seat], *start.extra[seat]]]
        owner = {cid: seat for seat, cid, _ in cards}
        codes = {cid: code for _, cid, code in cards}
        lists = (a.lst.key, b.lst.key)
        for entry in log[1:]:
            for f in entry.facts:
                if isinstance(f, Activated) or (isinstance(f, Summoned) and f.kind != "set"):
                    if owner.get(f.card) == f.seat:  # its owner's: not a card it took
                        self.used[lists[f.seat]][codes[f.card]] += 1

    def missing(self, lst: TournamentList) -> list[int]:
        skip = beyond(lst)
        return [c for c in cards_of(lst) if c not in skip and not self.used[lst.key][c]]


async def _workers(r: Run) -> None:
    """Play every pairing, then, while a list has a card unused, mirror matches of it: at most
    ``CONCURRENCY`` matches at a time, each next one chosen when one ends."""
    pairings = [(Seat(a, False), Seat(b, False)) for a, b in itertools.combinations(GOAT_LISTS, 2)]
    running: Counter[str] = Counter()

    def next_duel() -> tuple[Seat, Seat] | None:
        if pairings:
            return pairings.pop(0)
        short = [lst for lst in GOAT_LISTS if r.missing(lst)]
        if not short or r.mirrors >= MAX_EXTRA_DUELS:
            return None
        lst = min(short, key=lambda x: running[x.key])  # the list with the fewest matches going on
        r.mirrors += 1
        cards = lst.cards
        side = bool(cards.side) and (
            r.mirrors % 2 == 0
            or wants_side(list(cards.main), list(cards.side), list(cards.extra), r.memory[lst.key], r.catalogue)
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


async def _play_all(url: str, redis_url: str) -> Run:
    client = await DuelClient.connect(url, "catalogue")
    await client.send(GetCards())
    catalogue = {int(c["code"]): c for c in (await client.expect(Cards)).cards}
    await client.close()
    r = Run(url, catalogue, RedisEventStore(aioredis.Redis.from_url(redis_url)))
    try:
        await asyncio.wait_for(_workers(r), ALL_TIMEOUT)
    finally:
        await r.store.redis.aclose()
    return r


def table(r: Run) -> tuple[list[str], int, int]:
    """The coverage table: per list, each card with its copies and the times it was used."""
    lines, covered, total = [], 0, 0
    for lst in GOAT_LISTS:
        skip, cards, used = beyond(lst), cards_of(lst), r.used[lst.key]
        counted = [c for c in cards if c not in skip]
        done = [c for c in counted if used[c]]
        covered, total = covered + len(done), total + len(counted)
        lines.append(f"{lst.title}: {len(done)}/{len(counted)} cards used ({len(skip)} beyond its own play)")
        for c in cards:
            copies = (("main", lst.cards.main), ("fusion", lst.cards.extra), ("side", lst.cards.side))
            parts = "/".join(f"{p} x{part.count(c)}" for p, part in copies if c in part)
            note = ("NEVER: " if skip[c].never else "opponent's: ") + skip[c].reason if c in skip else ""
            lines.append(f"  {used[c]:5d}  {CARDS[c].name:<46} {parts:<18} {note or ('' if used[c] else 'UNUSED')}")
    return lines, covered, total


def test_bots_play_every_goat_pairing_and_use_every_card(redis_url: str, tmp_path: Path) -> None:
    began, cpu = time.monotonic(), time.process_time()
    # ``duel serve`` in a process of its own: the server on one core, the bots on the other
    with ServeProcess(tmp_path, "--redis-url", redis_url, *LOAD_TEST_LIMITS) as server:
        r = run(_play_all(server.url, redis_url))
        server_cpu = server.cpu()
    lines, covered, total = table(r)
    print(
        f"\nGoat bot duels: {r.duels} duels ({r.mirrors} mirror matches), {r.actions} actions, results "
        f"{dict(r.results)}; {time.monotonic() - began:.1f} s (CPU: bots {time.process_time() - cpu:.1f} s, "
        f"server {server_cpu:.1f} s); cards used: {covered}/{total} ({100 * covered / total:.1f} %)"
    )
    print("\n".join(lines))
    assert sum(r.results.values()) == r.duels and set(r.results) <= {"lp", "deck_out", "last_turn"}, r.results
    for lst in GOAT_LISTS:
        wrong = [CARDS[c].name for c, why in beyond(lst).items() if why.never and r.used[lst.key][c]]
        assert not wrong, f"{lst.title}: cards said to be beyond any duel were used: {wrong}"
    assert covered == total, "cards unused:\n" + "\n".join(x for x in lines if "UNUSED" in x or x[0] != " ")
