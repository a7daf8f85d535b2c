"""Duels held at once share their card ids and passcodes as single int objects
(``engine.kernel.interning``): the compiled engine would otherwise box a new object wherever it
stores one (docs/adr/0008), ~11 KiB per held duel. Run compiled by ``make test``."""

from __future__ import annotations

import msgpack

from engine import DuelConfig, Viewpoints, create, demo_deck, fold
from engine.facts import facts_of, wire_facts
from engine.state import State


def _duel(seed: int) -> tuple[State, Viewpoints]:
    # through the wire, as the server reads a log: every int in the facts a new object
    wire = msgpack.unpackb(msgpack.packb(wire_facts(create(DuelConfig(seed=seed, decks=(demo_deck(0), demo_deck(1)))))))
    facts = facts_of(wire)
    vp = Viewpoints(b"interning-test-key-0123456789abc")
    vp.apply(facts)
    return fold(facts), vp


def test_two_duels_key_their_cards_by_the_same_int_objects() -> None:
    (a, _), (b, _) = _duel(1), _duel(2)
    keys_b = {k: k for k in b.cards}
    shared = [k for k in a.cards if keys_b.get(k) is k]
    assert len(a.cards) == 80 and len(shared) == len(a.cards)
    # (a compiled Card keeps its code unboxed in its own struct: nothing to share there)


def test_renderings_kept_on_cards_hold_shared_ints() -> None:
    (a, vpa), (b, vpb) = _duel(3), _duel(4)
    hands = []
    for st, vp in ((a, vpa), (b, vpb)):
        v = vp.view(st, 0)
        hands.append(v["players"][0]["hand"])
    assert hands[0] and hands[1]
    codes = {c["code"]: c["code"] for c in hands[1]}
    same = [c["code"] for c in hands[0] if c["code"] in codes]
    assert all(codes[x] is x for x in same)
    atks = [c["atk"] for h in hands for c in h if "atk" in c and c["atk"] > 256]
    assert len({id(x) for x in atks}) == len(set(atks)), "one object per printed ATK value"
