"""Worlds made from one seat's view (engine/determinize.py) and deck guesses (engine/deckguess.py):
a world shows its seat what the view showed, the seat's legal actions translate into the world
and are legal there, and its hidden cards come from what the view allows."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

from engine import DuelConfig, Viewpoints, create, decide, decide_state, fold, legal_actions, pending, view
from engine.cards import CARDS
from engine.deckguess import guess_deck, split
from engine.decks import DECKS_BY_NAME
from engine.determinize import Knowledge, World, determinize
from engine.rng import Draws
from engine.state import State

PAIRS = [("battle-step", "end-step"), ("goat-control-flc22", "warrior-flc22")]


def decisions(
    names: tuple[str, str], seed: int, limit: int = 400
) -> Iterator[tuple[State, int, dict[str, Any], list[dict[str, Any]], Knowledge]]:
    """Each decision of a duel of random legal play: the true state, the deciding seat, its view
    and legal actions (its aliases) and what it has learned (the deck it brought, the facts)."""
    decks = [DECKS_BY_NAME[n] for n in names]
    lists = [split(d.codes()) for d in decks]
    fmt = decks[0].format
    config = DuelConfig(
        seed=seed,
        decks=(list(lists[0].main), list(lists[1].main)),
        extra=(list(lists[0].extra), list(lists[1].extra)),
        options={} if fmt == "current" else {"format": fmt},
    )
    facts = create(config)
    s = fold(facts)
    vp = Viewpoints(bytes(32))
    known = [Knowledge(seat=0, deck=tuple(decks[0].codes())), Knowledge(seat=1, deck=tuple(decks[1].codes()))]
    seen = vp.apply(facts)
    rnd = random.Random(seed)
    for _ in range(limit):
        for k in known:
            k.learn(seen[k.seat])
        owed = pending(s)
        if owed is None:
            return
        seat = owed["seat"]
        v = vp.view(s, seat)
        legal = vp.legal(s, seat)
        known[seat].note(v)
        yield s, seat, v, legal, known[seat]
        action = rnd.choice([a for a in legal if a["do"] != "concede"])
        facts, s = decide_state(s, seat, vp.to_engine(seat, action))
        seen = vp.apply(facts)


def shown(v: dict[str, Any], names: dict[int, int] | None = None) -> list[Any]:
    """What a view shows of the table, card ids left out (they differ between a view and its world)."""
    out: list[Any] = [v["turn"], v["turn_player"], v["phase"], v["step"], v["damage_step"]]
    for side in v["players"]:
        out += [side["lp"], side["hand_count"], side["deck_count"], side["extra_count"], side["normal_summoned"]]
        for zone in ("hand", "graveyard", "banished"):
            out.append(sorted(str(card.get("code")) for card in side[zone] if card.get("code") is not None))
        for zone in ("monsters", "spells_traps"):
            out.append(
                [None if c is None else (c.get("code"), c.get("position"), c.get("face_up")) for c in side[zone]]
            )
    out.append([(link["code"], link["controller"]) for link in v["chain"]])
    return out


def known_only(world_view: dict[str, Any], v: dict[str, Any]) -> dict[str, Any]:
    """The world's view of the seat with the cards the seat's view hides hidden again."""
    me = v["you"]
    out = dict(world_view)
    players = []
    for seat, (side, real) in enumerate(zip(world_view["players"], v["players"], strict=True)):
        side = dict(side)
        if seat != me:
            side["hand"] = []
        for zone in ("monsters", "spells_traps"):
            side[zone] = [
                None if c is None else ({**c, "code": None} if r is not None and r.get("hidden") else c)
                for c, r in zip(side[zone], real[zone], strict=True)
            ]
        players.append(side)
    out["players"] = players
    return out


def test_a_world_shows_its_seat_what_the_view_showed() -> None:
    checked = 0
    for names in PAIRS:
        for _, seat, v, _, k in decisions(names, seed=11, limit=300):
            world = determinize(v, k, Draws(checked))
            wv = view(world.state, seat)
            assert shown(known_only(wv, v)) == shown(v)
            checked += 1
    assert checked > 300


def test_the_seats_legal_actions_translate_into_the_world_and_back() -> None:
    """Every legal action of the client (at priority, with its targets and costs) names cards the
    world has and is accepted there, and is one of the world's legal actions once named back."""
    tried = 0
    for names in PAIRS:
        for _, seat, v, legal, k in decisions(names, seed=5, limit=300):
            if v["pending"]["kind"] != "priority":
                continue
            world = determinize(v, k, Draws(tried))
            back = {_canonical(world.to_view(a)) for a in legal_actions(world.state, seat)}
            for action in legal:
                mapped = world.to_world(action)
                assert mapped is not None, action
                decide(world.state, seat, mapped)  # raises IllegalAction if the world refuses it
                assert _canonical(action) in back, action
                tried += 1
    assert tried > 500


def _canonical(a: dict[str, Any]) -> tuple[Any, ...]:
    return tuple(sorted((k, tuple(sorted(map(str, v))) if isinstance(v, list) else str(v)) for k, v in a.items()))


def test_hidden_cards_come_from_what_the_view_allows() -> None:
    """The opponent's hidden cards are drawn from its guessed list less its cards in sight, the
    seat's own Deck from its own list less its cards in sight: never from the true state."""
    for _, seat, v, _, k in decisions(PAIRS[0], seed=3, limit=120):
        world = determinize(v, k, Draws(1))
        s = world.state
        own = s.players[seat]
        mine = Counter(s.cards[c].code for c in own.deck)
        seen = Counter(
            int(c["code"])
            for zone in ("hand", "graveyard", "banished", "monsters", "spells_traps")
            for c in v["players"][seat][zone]
            if c is not None and c.get("code") is not None
        )
        assert mine == Counter(split(DECKS_BY_NAME[PAIRS[0][seat]].codes()).main) - seen
        theirs = s.players[1 - seat]
        hidden = Counter(s.cards[c].code for c in [*theirs.deck, *theirs.hand])
        assert hidden <= Counter(world.guess.main)
        for cid in theirs.monsters:
            if cid is not None and not s.cards[cid].face_up:
                assert CARDS[s.cards[cid].code].is_monster


def test_worlds_differ_with_the_seed_and_repeat_with_it() -> None:
    _, seat, v, _, k = next(d for d in decisions(PAIRS[0], seed=9) if d[2]["phase"] == "main1")
    worlds = [determinize(v, k, Draws(n)) for n in (1, 1, 2)]

    def hidden(w: World) -> list[int]:
        p = w.state.players[1 - seat]
        return [w.state.cards[c].code for c in [*p.hand, *p.deck]]

    assert hidden(worlds[0]) == hidden(worlds[1]) and hidden(worlds[0]) != hidden(worlds[2])
    assert worlds[0].state.rng == worlds[1].state.rng != worlds[2].state.rng


def test_the_deck_guess_is_the_demo_deck_that_holds_the_cards_seen() -> None:
    deck = DECKS_BY_NAME["warrior-flc22"]
    seen = Counter(deck.main_codes()[:6])
    guess = guess_deck(seen, "goat", Draws(0))
    assert guess.name == "warrior-flc22" and Counter(guess.main) == Counter(deck.main_codes())
    # a card seen that no list has joins the guess, which keeps its size
    odd = next(c for c, d in CARDS.items() if d.is_monster and not d.extra_deck and c not in guess.cards())
    bigger = guess_deck(seen + Counter({odd: 1}), "goat", Draws(0))
    assert odd in bigger.main and len(bigger.main) == len(guess.main)
    # with nothing seen, a deck of the format
    assert DECKS_BY_NAME[guess_deck({}, "current", Draws(4)).name].format == "current"
