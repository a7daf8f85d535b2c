"""Missing the timing (ruling CH-12): an optional "When ...: You can" trigger whose event happened
before another link of the same chain resolved does not activate; one whose event ended the chain
does, and mandatory triggers never miss it. Dark Magician of Chaos's Goat effect ("When this card
is Normal or Special Summoned: You can ...") is the optional "When" trigger used here."""

from __future__ import annotations

from typing import Any

from engine import decide, fold
from engine.cards import CARDS_BY_NAME
from engine.ctx import Ctx
from engine.facts import Activated, Moved
from engine.ops import miss_timing, raise_event
from engine.scenario import start_state
from engine.state import State

DMOC = CARDS_BY_NAME["Dark Magician of Chaos"].code


def _start(on_field: bool = False) -> tuple[State, dict[str, int]]:
    doc: dict[str, Any] = {
        "format": 1,
        "name": "two Dark Magicians of Chaos to revive",
        "source": "CH-12",
        "start": {
            "turn": 3,
            "turn_player": "A",
            "phase": "main1",
            "A": {
                "hand": [{"card": "Monster Reborn", "as": "reborn1"}, {"card": "Monster Reborn", "as": "reborn2"}],
                "graveyard": [
                    {"card": "Dark Magician of Chaos", "as": "dmoc1"},
                    {"card": "Dark Magician of Chaos", "as": "dmoc2"},
                    {"card": "Pot of Greed", "as": "pot"},
                    {"card": "Sangan", "as": "sangan"},
                ],
            },
        },
        "steps": [],
    }
    if on_field:
        doc["start"]["A"]["monsters"] = [{"card": "Dark Magician of Chaos", "as": "dmoc0"}]
    state, labels, _fact = start_state(doc)
    return state, labels


def _act(s: State, seat: int, action: dict[str, Any]) -> State:
    return fold(decide(s, seat, action), s)


def test_a_summon_by_an_earlier_link_misses_the_timing_and_one_by_the_last_link_does_not() -> None:
    s, lb = _start()
    s = _act(s, 0, {"do": "activate", "card": lb["reborn1"], "effect": 1, "target": [lb["dmoc1"]]})
    # a second Monster Reborn as chain link 2 (no card of the pool lets one be chained; the
    # chain is built by its facts, as the engine records any activation)
    r2 = s.cards[lb["reborn2"]]
    s = fold(
        [
            Moved(card=r2.id, to="spells_traps", face_up=True, code=r2.code, from_="hand"),
            Activated(seat=0, card=r2.id, code=r2.code, effect=1, link=2, targets=[lb["dmoc2"]], data={"answers": 1}),
        ],
        s,
    )
    s = _act(s, 1, {"do": "pass"})
    s = _act(s, 0, {"do": "pass"})  # link 2 resolves: Dark Magician of Chaos 2 is Special Summoned
    s = _act(s, 0, {"do": "choose", "option": "attack"})
    assert s.cards[lb["dmoc2"]].zone == "monsters"
    s = _act(s, 0, {"do": "choose", "option": "attack"})  # link 1 resolves: the other one
    assert s.cards[lb["dmoc1"]].zone == "monsters"
    assert not s.chain
    assert [t.card for t in s.triggers] == [lb["dmoc1"]], "only the Summon by the last link keeps its trigger"
    assert s.choice is not None and s.choice.get("card") == lb["dmoc1"]


def test_miss_timing_spares_mandatory_and_held_triggers() -> None:
    s, lb = _start(on_field=True)
    ctx = Ctx(s)
    dmoc = s.cards[lb["dmoc0"]]
    raise_event(ctx, {"kind": "summoned", "card": dmoc.id, "how": "special", "seat": 0})
    sangan = s.cards[lb["sangan"]]
    raise_event(
        ctx,
        {"kind": "sent_to_grave", "card": sangan.id, "from_field": True, "from_zone": "monsters", "controller": 0},
    )
    assert [t.card for t in s.triggers] == [dmoc.id, sangan.id]
    miss_timing(ctx, keep={0})
    assert [t.card for t in s.triggers] == [dmoc.id, sangan.id], "a held trigger waits on purpose"
    miss_timing(ctx)
    assert [t.card for t in s.triggers] == [sangan.id], "Sangan's trigger is mandatory"
    assert dmoc.code == DMOC
