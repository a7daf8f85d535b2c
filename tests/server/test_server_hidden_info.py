"""No hidden card identity reaches a seat or a spectator.

Plays many random duels over real websockets (seat 0, seat 1 and a
spectator each on their own connection; for half of the duels the two seats
are on two different server processes sharing the Redis), then folds each match's log and
checks every Update frame each of them received against what that receiver
may know at that seq:

* a card's identity (its ``code`` or ``name`` next to its ``id``/``card``)
  may appear only if the card has been public at some point (it showed with
  its code in the spectator view), or if it is the receiver's own card and
  has been outside the deck in the receiver's view;
* nothing may carry the PRNG state, the seed, or the decks' order;
* no rejection reason names a card the receiver may not know (each duel
  probes with actions on the opponent's unseen cards).

Every fourth duel holds its spectator 3 entries behind (a spectator delay):
its frames are checked the same way, at the seq each one is about.

To keep ``make test`` quick most duels end early by a concession at a random
point (still random duels, from random seeds); every eighth is played out.
``DUEL_HIDDEN_INFO_DUELS`` overrides the number of duels (default 200).
"""

from __future__ import annotations

import asyncio
import os
import random
from pathlib import Path
from typing import Any

import redis.asyncio as aioredis
from duel_helpers import choose, run, running_server, start_match, url_of, wait_for_turn

from protocol.codec import decode_server
from protocol.messages import Accepted, CreateMatch, Error, Rejected, Spectate, Spectating, Update
from server import rules
from server.client import DuelClient
from server.store import RedisEventStore

DUELS = int(os.environ.get("DUEL_HIDDEN_INFO_DUELS", "200"))
PARALLEL = 10
FORBIDDEN_KEYS = {"rng", "seed", "decks"}


def identities(obj: Any, out: list[tuple[int, str]], keys_seen: set[str]) -> None:
    """Collect (card id, what identifies it) pairs and every map key."""
    if isinstance(obj, dict):
        keys_seen.update(k for k in obj if isinstance(k, str))
        cid = obj.get("id", obj.get("card"))
        if isinstance(cid, int) and not isinstance(cid, bool):
            for key in ("code", "name"):
                if key in obj:
                    out.append((cid, key))
        for value in obj.values():
            identities(value, out, keys_seen)
    elif isinstance(obj, list):
        for value in obj:
            identities(value, out, keys_seen)


def shown_ids(view: dict[str, Any], *, seat: int | None, owner_ids: set[int] | None) -> set[int]:
    found: list[tuple[int, str]] = []
    cards: list[dict[str, Any]] = []

    def walk(obj: Any) -> None:
        if isinstance(obj, dict):
            if isinstance(obj.get("id"), int) and "code" in obj:
                cards.append(obj)
            for v in obj.values():
                walk(v)
        elif isinstance(obj, list):
            for v in obj:
                walk(v)

    walk(view)
    del found
    out = set()
    for card in cards:
        if seat is None or (owner_ids is not None and card["id"] in owner_ids and card.get("zone") != "deck"):
            out.add(card["id"])
    return out


def check_match(log: list[Any], frames: dict[int | None, list[bytes]]) -> int:
    """Fold the log; check every frame of every receiver.  Returns frames checked."""
    genesis = log[0].facts[0]
    owner_ids = {s: set(genesis["deck_ids"][s]) for s in (0, 1)} if "deck_ids" in genesis else None
    if owner_ids is None:  # derive ownership from the full genesis fact
        owner_ids = {s: {cid for cid, _ in genesis["decks"][s]} for s in (0, 1)}
    public: set[int] = set()
    own: dict[int, set[int]] = {0: set(), 1: set()}
    allowed_at: dict[int, dict[int | None, set[int]]] = {}
    state = None
    for entry in log:
        state = rules.fold(entry.facts, state)
        public |= shown_ids(rules.view(state, None), seat=None, owner_ids=None)
        for s in (0, 1):
            own[s] |= shown_ids(rules.view(state, s), seat=s, owner_ids=owner_ids[s])
        allowed_at[entry.seq] = {None: set(public), 0: public | own[0], 1: public | own[1]}
    codes = {cid: code for s in (0, 1) for cid, code in genesis.get("decks", [[], []])[s]}
    public_names = {rules.card_name(codes[cid]) for cid in public if cid in codes}
    checked = 0
    for receiver, blobs in frames.items():
        known = public if receiver is None else public | own[receiver]
        hidden_names = {rules.card_name(code) for cid, code in codes.items() if cid not in known} - public_names
        for blob in blobs:
            msg = decode_server(blob)
            if isinstance(msg, Rejected | Error):
                leaked = [name for name in hidden_names if name in msg.reason]
                assert not leaked, f"seat {receiver} read hidden card names {leaked} in {msg}"
                checked += 1
                continue
            if not isinstance(msg, Update):
                continue
            found: list[tuple[int, str]] = []
            keys_seen: set[str] = set()
            identities([msg.facts, msg.view, msg.pending, msg.legal], found, keys_seen)
            assert not keys_seen & FORBIDDEN_KEYS, (receiver, msg.seq, keys_seen & FORBIDDEN_KEYS)
            allowed = allowed_at[msg.seq][receiver]
            leaks = [(cid, key) for cid, key in found if cid not in allowed]
            assert not leaks, f"seat {receiver} saw hidden cards {leaks} at seq {msg.seq}"
            checked += 1
    return checked


async def one_duel(urls: tuple[str, str], store: RedisEventStore, seed: int) -> int:
    rnd = random.Random(seed)
    url_a, url_b = urls if seed % 2 else (urls[0], urls[0])  # odd seeds: seats on two servers
    delay = 3 if seed % 4 == 1 else 0
    a, b, match_id, _ = await start_match(url_a, url_b, CreateMatch(spectator_delay=delay))
    spectator = await DuelClient.connect(urls[seed % 3 % 2], "S")
    await spectator.send(Spectate(match_id=match_id))
    await spectator.expect(Spectating)
    play_out = seed % 8 == 0
    concede_after = rnd.randint(5, 80)
    for n in range(3000):
        actor = await wait_for_turn([a, b])
        if actor is None:
            break
        if n in (3, 4):  # probe: refer to a card the actor cannot see
            theirs = range(1001, 1041) if actor is a else range(1, 41)
            probe = {"do": rnd.choice(["activate", "summon", "set", "flip_summon"]), "card": rnd.choice(theirs)}
            reply = await actor.act(probe)
            assert isinstance(reply, Rejected), reply
            continue
        if not play_out and n >= concede_after:
            action = {"do": "concede"}
        else:
            action = choose(actor.legal, rnd)
        reply = await actor.act(action)
        assert isinstance(reply, Accepted), reply
    else:
        raise AssertionError("the duel did not finish")
    while spectator.seq < a.seq:
        await spectator.expect(Update)
    log = await store.read(match_id)
    frames = {0: a.frames, 1: b.frames, None: spectator.frames}
    for c in (a, b, spectator):
        await c.close()
    return check_match(log, frames)


def test_no_view_or_fact_leaks_hidden_cards(redis_url: str, tmp_path: Path) -> None:
    async def body() -> int:
        client = aioredis.Redis.from_url(redis_url)
        store = RedisEventStore(client)
        checked = 0
        async with running_server(redis_url, tmp_path, out_queue=4096) as s1, \
                running_server(redis_url, tmp_path, out_queue=4096) as s2:
            urls = (url_of(s1), url_of(s2))
            for start in range(0, DUELS, PARALLEL):
                results = await asyncio.gather(
                    *(one_duel(urls, store, seed) for seed in range(start, min(DUELS, start + PARALLEL)))
                )
                checked += sum(results)
        await client.aclose()
        return checked

    checked = run(body())
    assert checked > DUELS * 10


def test_the_checker_catches_a_leak() -> None:
    """The check above is not vacuous: an opponent's hand card with its code fails it."""
    import pytest

    from protocol.codec import encode
    from protocol.entry import LogEntry

    facts = rules.genesis(11, (rules.demo_deck(0), rules.demo_deck(1)))
    state = rules.fold(facts, None)
    log = [LogEntry(seq=1, seat=None, action={"do": "start"}, facts=facts, state_hash=rules.state_hash(state))]
    own_hand = rules.view(state, 0)["players"][0]["hand"]
    honest = Update("m", 1, None, rules.redact(facts, 1), log[0].state_hash, rules.view(state, 1))
    assert check_match(log, {1: [encode(honest)]}) == 1
    leaky = Update("m", 1, None, [{"t": "peek", "card": own_hand[0]["id"], "code": own_hand[0]["code"]}], "x")
    with pytest.raises(AssertionError, match="hidden cards"):
        check_match(log, {1: [encode(leaky)]})
    seedy = Update("m", 1, None, [{"t": "duel_started", "rng": 1}], "x")
    with pytest.raises(AssertionError):
        check_match(log, {None: [encode(seedy)]})
