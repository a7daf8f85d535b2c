"""The ``curious`` bot policy (server/clients/curious.py) on views made by hand: it prefers a card
it has not used, learns from the facts it is shown, gives away what it has used and fetches what
it has not, learns what a cost offers, never concedes; how it sides between games."""

from __future__ import annotations

import random
from typing import Any

from engine.cards import CARDS_BY_NAME
from server.clients.bot import POLICIES
from server.clients.curious import Curiosity, Curious, sided, wants_side
from server.lobby.catalog import by_code

POT = CARDS_BY_NAME["Pot of Greed"].code
STORM = CARDS_BY_NAME["Heavy Storm"].code
META = CARDS_BY_NAME["Metamorphosis"].code
SANGAN = CARDS_BY_NAME["Sangan"].code
AIRKNIGHT = CARDS_BY_NAME["Airknight Parshath"].code
BALTER = CARDS_BY_NAME["Dark Balter the Terrible"].code
TER = CARDS_BY_NAME["Thousand-Eyes Restrict"].code
MOBIUS = CARDS_BY_NAME["Mobius the Frost Monarch"].code
MIRROR = CARDS_BY_NAME["Mirror Force"].code


def card(cid: int, code: int, zone: str = "hand", **kw: Any) -> dict[str, Any]:
    return {"id": cid, "code": code, "zone": zone, "controller": 0, **kw}


def view(hand: list[dict[str, Any]], monsters: list[dict[str, Any] | None] | None = None, **kw: Any) -> dict[str, Any]:
    me = {"hand": hand, "monsters": monsters or [None] * 5, "spells_traps": [None] * 5, "graveyard": []}
    return {"you": 0, "turn_player": 0, "phase": "main1", "chain": [], "players": [me, {"hand": []}], **kw}


def test_it_prefers_a_card_it_has_not_used_and_learns_from_the_facts() -> None:
    bot = Curious()
    bot.observe([{"t": "activated", "seat": 0, "code": POT}])  # before it knows its seat: nothing
    v = view([card(1, POT), card(2, STORM)])
    legal = [{"do": "activate", "card": 1, "effect": 1}, {"do": "activate", "card": 2, "effect": 1}, {"do": "end_turn"}]
    bot(v, legal, random.Random(0))
    bot.observe([{"t": "activated", "seat": 0, "code": POT}, {"t": "activated", "seat": 1, "code": STORM}])
    assert bot.memory.used == {POT: 1}  # its own activation only
    picks = [bot(v, legal, random.Random(seed)).get("card") for seed in range(100)]
    assert picks.count(2) >= 85  # Heavy Storm, not used yet (EAGER)
    bot.observe([{"t": "summoned", "seat": 0, "code": SANGAN, "kind": "set"}])
    assert not bot.memory.used[SANGAN]  # a Set is no summon


def test_it_never_concedes_and_answers_a_lone_action_at_once() -> None:
    bot = Curious()
    for seed in range(50):
        assert bot(view([]), [{"do": "concede"}, {"do": "pass"}], random.Random(seed)) == {"do": "pass"}
    assert POLICIES["curious"]() is not POLICIES["curious"]()  # each bot its own memory


def test_it_gives_away_what_it_has_used_and_fetches_what_it_has_not() -> None:
    bot = Curious(Curiosity())
    bot.memory.used[SANGAN] = 2
    hand = [card(1, SANGAN), card(2, AIRKNIGHT)]
    discard = {"kind": "cards", "cards": [{"id": 1, "code": SANGAN}, {"id": 2, "code": AIRKNIGHT}]}
    legal = [{"do": "choose", "cards": [1]}, {"do": "choose", "cards": [2]}]
    assert bot(view(hand, pending=discard), legal, random.Random(0)) == {"do": "choose", "cards": [1]}
    search = {"kind": "cards", "cards": [{"id": 7, "code": SANGAN}, {"id": 8, "code": AIRKNIGHT}]}  # from its Deck
    legal = [{"do": "choose", "cards": [7]}, {"do": "choose", "cards": [8]}]
    assert bot(view(hand, pending=search), legal, random.Random(0)) == {"do": "choose", "cards": [8]}


def test_it_learns_what_a_cost_offers_and_pays_with_a_promising_monster() -> None:
    """Metamorphosis: paid with a Level-5 monster it offers the Level-5 Fusion Monsters; once Dark
    Balter is the only one and it has been summoned, paying with Airknight again is stale."""
    catalogue = by_code()
    bot = Curious(Curiosity())
    bot.study(catalogue, [META, SANGAN, AIRKNIGHT, BALTER, TER])
    assert bot.promising(AIRKNIGHT) and not bot.promising(SANGAN)  # Level 5 like Dark Balter; Level 3
    field = [card(3, AIRKNIGHT, "monsters", position="attack"), card(4, SANGAN, "monsters", position="attack")]
    v = view([card(1, META)], field + [None] * 3)
    legal = [{"do": "activate", "card": 1, "effect": 1, "cost": [c]} for c in (4, 3)] + [{"do": "end_turn"}]
    assert bot(v, legal, random.Random(0))["cost"] == [3]  # the promising Tribute
    resolving = view([], field, pending={"kind": "cards", "source": 1, "cards": [{"id": 9, "code": BALTER}]})
    resolving["players"][0]["spells_traps"][0] = card(1, META, "spells_traps")
    answer = bot(resolving, [{"do": "choose", "cards": []}, {"do": "choose", "cards": [9]}], random.Random(0))
    assert answer == {"do": "choose", "cards": [9]}  # fetched from its Fusion Deck: the unused one
    assert bot.memory.offers == {(META, 5): {BALTER}}
    bot.memory.used[BALTER] = 1
    bot.memory.used[META] = 1
    assert not bot.promising(AIRKNIGHT)
    picks = {str(bot(v, legal, random.Random(seed)).get("cost")) for seed in range(30)}
    assert "[3]" not in picks  # nothing new behind it: Metamorphosis is kept for another Tribute


def test_siding_swaps_spells_and_traps_used_most_and_keeps_monsters() -> None:
    catalogue = by_code()
    memory = Curiosity()
    memory.used.update({POT: 9, MIRROR: 5, STORM: 1})
    main = [SANGAN] * 3 + [POT, MIRROR, STORM] + [AIRKNIGHT] * 2
    out = sided(main, [MOBIUS, MOBIUS], memory, catalogue)
    assert sorted(out) == sorted([SANGAN] * 3 + [STORM] + [AIRKNIGHT] * 2 + [MOBIUS] * 2)
    assert wants_side(main, [MOBIUS], [BALTER], memory, catalogue)  # Mobius unused
    memory.used[MOBIUS] = 1
    assert not wants_side(main, [MOBIUS], [BALTER], memory, catalogue)  # Level 6: no Fusion Monster of it
    assert wants_side(main, [MOBIUS], [CARDS_BY_NAME["Ryu Senshi"].code], memory, catalogue)  # Level 6
