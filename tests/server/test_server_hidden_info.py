"""What each client receives over websockets is exactly the engine's
per-viewer presentation, and no frame names a card hidden from its receiver.

Plays many random duels over real websockets (seat 0, seat 1 and a
spectator each on their own connection; for half of the duels the two seats
are on two different server processes sharing the Redis), then follows each
match's log with ``engine.Viewpoints`` (the alias key the servers derive
from their secret) and checks every Update frame each receiver got:

* its facts and its view are exactly what ``Viewpoints`` gives that viewer
  at that seq: the per-viewer redaction and card aliases that
  tests/engine/test_secrecy.py plays the cheater against (ids that never
  follow a card through a hidden place, identities only where known);
* every card id in it names a card the receiver may name at that seq, and a
  ``code``/``name`` next to an id only a card the receiver knows;
* nothing carries the PRNG state, the seed, or the decks' order;
* no rejection reason names a card the receiver may not know (each duel
  probes with actions naming ids the actor was never given).

Every fourth duel holds its spectator 3 entries behind (a spectator delay):
its frames are checked the same way, at the seq each one is about.

To keep ``make test`` quick most duels end early by a concession at a random
point (still random duels, from random seeds); every eighth is played out.
``DUEL_HIDDEN_INFO_DUELS`` overrides the number of duels (default 60; ``make secrecy`` plays 300).
"""

from __future__ import annotations

import asyncio
import os
import random
from pathlib import Path
from typing import Any

import redis.asyncio as aioredis
from duel_helpers import SECRET, choose, run, running_server, start_match, url_of, wait_for_turn

from engine import Viewpoints
from protocol.codec import decode_server
from protocol.messages import Accepted, CreateMatch, Error, Rejected, Spectate, Spectating, Update
from server import rules
from server.clients.client import DuelClient
from server.lobby.tokens import SeatTokens
from server.storage.store import RedisEventStore

DUELS = int(os.environ.get("DUEL_HIDDEN_INFO_DUELS", "60"))
PARALLEL = 10
FORBIDDEN_KEYS = {"rng", "seed", "decks", "order", "deck_ids", "once", "flags"}
VIEWERS: tuple[int | None, ...] = (0, 1, None)


def walk(obj: Any) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    if isinstance(obj, dict):
        out.append(obj)
        for value in obj.values():
            out.extend(walk(value))
    elif isinstance(obj, list):
        for value in obj:
            out.extend(walk(value))
    return out


def knows(state: Any, cid: int, viewer: int | None) -> bool:
    c = state.cards[cid]
    if c.zone in ("graveyard", "banished", "xyz_material"):
        return True
    if c.zone in ("monsters", "spells_traps", "field"):
        return bool(c.face_up) or c.controller == viewer
    return viewer is not None and c.owner == viewer and c.zone in ("hand", "extra")


def check_match(log: list[Any], frames: dict[int | None, list[bytes]], alias_key: bytes) -> int:
    """Follow the log; check every frame of every receiver.  Returns frames checked."""
    vp = Viewpoints(alias_key)
    expected: dict[int, dict[int | None, tuple[list[Any], dict[str, Any]]]] = {}
    states: dict[int, Any] = {}
    names_by_seq: dict[int, dict[int | None, set[str]]] = {}
    state = None
    for entry in log:
        seen = vp.apply(entry.facts)
        state = rules.fold(entry.facts, state)
        states[entry.seq] = state
        expected[entry.seq] = {v: (seen[2 if v is None else v], vp.view(state, v)) for v in VIEWERS}
        names_by_seq[entry.seq] = {
            v: {c.data.name for c in state.cards.values() if not knows(state, c.id, v)} for v in VIEWERS
        }
        for v in VIEWERS:  # every id in a frame of this seq names a card the viewer may name now
            for d in walk(expected[entry.seq][v]):
                alias = d.get("id", d.get("card"))
                if isinstance(alias, int) and alias >= 0 and ("code" in d or "name" in d) and "link" not in d:
                    cid = vp.book.card_of(v, alias)
                    assert cid is not None
                    if d.get("t") not in ("moved", "note", "drew"):
                        assert knows(state, cid, v), f"viewer {v} would learn card {cid}: {d}"
    checked = 0
    for receiver, blobs in frames.items():
        last_seq = 1
        for blob in blobs:
            msg = decode_server(blob)
            if isinstance(msg, Rejected | Error):
                hidden = names_by_seq[last_seq][receiver]
                leaked = [name for name in hidden if f'"{name}"' in msg.reason or f" {name} " in f" {msg.reason} "]
                assert not leaked, f"seat {receiver} read hidden card names {leaked} in {msg}"
                checked += 1
                continue
            if not isinstance(msg, Update):
                continue
            last_seq = msg.seq
            keys_seen = {k for d in walk([msg.facts, msg.view, msg.pending, msg.legal]) for k in d}
            assert not keys_seen & FORBIDDEN_KEYS, (receiver, msg.seq, keys_seen & FORBIDDEN_KEYS)
            facts, view = expected[msg.seq][receiver]
            if not msg.snapshot:
                assert msg.facts == facts, f"viewer {receiver} at seq {msg.seq}: {msg.facts} != {facts}"
            if msg.view is not None:
                assert msg.view == view, f"viewer {receiver} at seq {msg.seq}: view differs"
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
        if n in (3, 4):  # probe: refer to cards by ids the actor was never given
            probe = {
                "do": rnd.choice(["activate", "summon", "set", "flip_summon"]),
                "card": rnd.choice([rnd.randrange(1, 2**48), rnd.randrange(1, 2100)]),
            }
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
    return check_match(log, frames, SeatTokens(SECRET).alias_key(match_id))


def test_no_view_or_fact_leaks_hidden_cards(redis_url: str, tmp_path: Path) -> None:
    async def body() -> int:
        client = aioredis.Redis.from_url(redis_url)
        store = RedisEventStore(client)
        checked = 0
        async with (
            running_server(redis_url, tmp_path, out_queue=4096) as s1,
            running_server(redis_url, tmp_path, out_queue=4096) as s2,
        ):
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
    """The check above is not vacuous: a frame that differs from the engine's presentation, an
    opponent's hand card shown with its code, or the PRNG state fail it."""
    import pytest

    from protocol.codec import encode
    from server.storage.entry import LogEntry

    key = SeatTokens(SECRET).alias_key("m")
    facts = rules.genesis(11, (rules.demo_deck(0), rules.demo_deck(1)))
    state = rules.fold(facts, None)
    log = [LogEntry(seq=1, seat=None, action={"do": "start"}, facts=facts, state_hash=rules.state_hash(state))]
    vp = Viewpoints(key)
    seen = vp.apply(facts)
    honest = Update("m", 1, None, seen[1], log[0].state_hash, vp.view(state, 1))
    assert check_match(log, {1: [encode(honest)]}, key) == 1
    own_hand = vp.view(state, 0)["players"][0]["hand"]
    leaky = Update("m", 1, None, [*seen[1], {"t": "peek", "card": own_hand[0]["id"], "code": own_hand[0]["code"]}], "x")
    with pytest.raises(AssertionError):
        check_match(log, {1: [encode(leaky)]}, key)
    peeking = vp.view(state, 0)  # seat 0's view, sent to seat 1
    with pytest.raises(AssertionError, match="view differs"):
        check_match(log, {1: [encode(Update("m", 1, None, seen[1], "x", peeking))]}, key)
    seedy = Update("m", 1, None, [{"t": "duel_started", "rng": 1}], "x")
    with pytest.raises(AssertionError):
        check_match(log, {None: [encode(seedy)]}, key)
