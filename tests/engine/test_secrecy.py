"""Playing as the cheater (issue 8): no frame lets a viewer track or name a hidden card.

Random duels with decks drawn from the whole card pool (shuffles, returns to
the hand and Deck, Sets, triggers from the hand, searches) are played through
``engine.Viewpoints``, exactly what the server sends each seat and a
spectator. For every viewer, a cheater records every frame (facts of each
entry, then the view, the pending decision and the legal actions) and the
checks use the ground truth of the state folded fact by fact:

* **unlinkable ids**: an id the viewer sees again names the same card, and
  that card stayed where the viewer could watch it in between (a field zone,
  a Graveyard, banishment; its own hand). So no id follows a card through a
  Deck, the opponent's hand or Extra Deck, and a card seen with its identity
  can never be recognised later behind a fresh id;
* **no identity leaks**: a frame names a card's ``code``/``name`` only when
  the viewer knew the card at that moment (before or after the fact), and it
  is the card's real code;
* views show an id only on cards the viewer can watch, never on the
  opponent's hand or any Deck; no frame carries Deck orders, the PRNG, flags
  or once-per keys; a trigger of a card hidden from the viewer reaches it
  neither as a fact nor as the kind of the pending decision;
* the legal actions, turned back into engine ids, are exactly the engine's.

The entries go through ``engine.redaction.present`` fact by fact, as
``Viewpoints.apply`` does, so that the cheater can note each alias as it is
given (a card leaving for a hidden place is named by the alias it had).

``DUEL_CHEATER_EXAMPLES`` sets the number of random duels (default 12 in
``make test``; ``make secrecy`` runs 300).
"""

from __future__ import annotations

import os
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import DuelConfig, State, Viewpoints, create, decide, legal_actions, pending
from engine.apply import apply
from engine.kernel.cow import clone
from engine.redaction import present
from engine.state import Card
from tests.engine.test_pool_duels import random_deck

EXAMPLES = int(os.environ.get("DUEL_CHEATER_EXAMPLES", "12"))
VIEWERS: tuple[int | None, ...] = (0, 1, None)
FORBIDDEN_KEYS = {"rng", "seed", "decks", "order", "deck_ids", "once", "key", "event", "flags"}
PUBLIC_PILES = ("graveyard", "banished", "xyz_material")
FIELD = ("monsters", "spells_traps", "field")


def trackable(c: Card, v: int | None) -> bool:
    return c.zone in FIELD or c.zone in PUBLIC_PILES or (v is not None and v == c.owner and c.zone in ("hand", "extra"))


def known(c: Card, v: int | None) -> bool:
    if c.zone in PUBLIC_PILES:
        return True
    if c.zone in FIELD:
        return c.face_up or (v is not None and v == c.controller)
    return v is not None and v == c.owner and c.zone in ("hand", "extra")


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


class Cheater:
    """What one viewer could piece together from its frames."""

    def __init__(self, viewer: int | None) -> None:
        self.v = viewer
        self.last: dict[int, tuple[int, int]] = {}  # alias -> (engine id, entry where last seen)
        self.dark: dict[int, set[int]] = {}  # engine id -> entries during which it was untrackable
        self.belief: dict[int, int] = {}  # alias -> code seen with it
        self.ever: dict[int, int] = {}  # every stable alias the viewer was ever given -> engine id
        # the cards the viewer knew at some moment of the current entry (a card drawn, then put
        # back into the Deck by the same entry's chain, was known in between)
        self.known_in_entry: set[int] = set()

    def resolve(self, vp: Viewpoints, alias: int) -> int | None:
        cid = self.ever.get(alias)
        return cid if cid is not None else vp.book.card_of(self.v, alias)

    def saw(self, alias: int, cid: int, entry: int) -> None:
        prev = self.last.get(alias)
        if prev is not None:
            prev_cid, prev_entry = prev
            assert prev_cid == cid, f"viewer {self.v}: id {alias} named card {prev_cid}, now {cid}"
            gone = {k for k in self.dark.get(cid, set()) if prev_entry < k < entry}
            assert not gone, (
                f"viewer {self.v}: id {alias} followed card {cid} through a hidden place (entries {sorted(gone)})"
            )
        self.last[alias] = (cid, entry)


def collect_ids(frame: Any) -> list[int]:
    """Every card id in a frame (the keys that hold card ids)."""
    out: list[int] = []
    for d in walk(frame):
        for key in ("id", "card", "attacker", "target", "with", "by", "source", "to", "equipped_to"):
            value = d.get(key)
            if isinstance(value, int) and not isinstance(value, bool) and (key != "card" or value >= 0):
                out.append(value)
        for key in ("targets", "destroyed", "cost", "tribute", "cards", "choose", "materials", "target"):
            value = d.get(key)
            if isinstance(value, list):
                out.extend(x for x in value if isinstance(x, int) and not isinstance(x, bool))
    return out


def check_frame(
    vp: Viewpoints, state_before: State, state_after: State, frame: Any, cheater: Cheater, entry: int
) -> None:
    """Ids resolve to cards the viewer may name; codes only on cards it knows."""
    v = cheater.v
    shown_pending = frame.get("pending") if isinstance(frame, dict) else None
    candidates = (shown_pending or {}).get("cards", []) if isinstance(shown_pending, dict) else []
    for d in walk(frame):
        assert not (FORBIDDEN_KEYS & set(d)), f"viewer {v} got a forbidden key: {d}"
        for key, code_key in (("id", "code"), ("card", "code"), ("attacker", "code"), ("target", "target_code")):
            alias = d.get(key)
            if not isinstance(alias, int) or isinstance(alias, bool) or code_key not in d:
                continue
            if key == "card" and "attacker" in d:
                continue
            cid = cheater.resolve(vp, alias)
            assert cid is not None, f"viewer {v}: id {alias} in {d} names no card"
            before, after = state_before.cards.get(cid), state_after.cards[cid]
            assert d[code_key] == after.code, f"viewer {v}: wrong code for {cid}: {d}"
            # a card on the chain was revealed by its activation; an excavated card is shown to both;
            # a seat choosing from its own Deck sees what it chooses from
            own_deck_choice = d in candidates and after.zone == "deck" and after.owner == v
            # a choice among cards an effect revealed to the deciding seat (ops.reveal) names them
            revealed_choice = d in candidates and bool((shown_pending or {}).get("revealed"))
            if "link" not in d and d.get("t") != "note" and not own_deck_choice and not revealed_choice:
                assert known(after, v) or (before is not None and known(before, v)) or cid in cheater.known_in_entry, (
                    f"viewer {v} learns hidden {cid}: {d}"
                )
            cheater.belief[alias] = after.code
    for d in walk(frame):
        if d.get("t") == "revealed" and "codes" in d:
            # shown only to the player the text shows them to, their owner, or everyone (shown_to: nil)
            to = d["shown_to"]
            assert to in (None, v) or d["seat"] == v, f"viewer {v} sees a reveal meant for {to}: {d}"
            for alias, code in zip(d["cards"], d["codes"], strict=True):
                cid = cheater.resolve(vp, alias)
                assert cid is not None and state_after.cards[cid].code == code, f"viewer {v}: wrong reveal {d}"
    for alias in collect_ids(frame):
        cid = cheater.resolve(vp, alias)
        assert cid is not None, f"viewer {v}: unknown id {alias} in {frame}"
        cheater.saw(alias, cid, entry)


def check_view(view: dict[str, Any], state: State, v: int | None) -> None:
    for seat, p in enumerate(view["players"]):
        for zone in ("hand", "graveyard", "banished", "monsters", "spells_traps"):
            for c in p[zone]:
                if c is None:
                    continue
                if zone == "hand" and seat != v:
                    assert "id" not in c and "code" not in c and c.get("hidden"), f"viewer {v} sees into a hand: {c}"
                if c.get("hidden"):
                    assert "code" not in c and "name" not in c


@settings(
    max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]
)
@given(seed=st.integers(min_value=0, max_value=2**32), aggression=st.sampled_from([0.4, 0.8]))
def test_a_cheating_viewer_cannot_track_or_name_hidden_cards(seed: int, aggression: float) -> None:
    rnd = random.Random(seed)
    (d0, e0), (d1, e1) = random_deck(rnd), random_deck(rnd)
    genesis = create(DuelConfig(seed=seed, decks=(d0, d1), extra=(e0, e1)))
    vp = Viewpoints(rnd.randbytes(32))
    cheaters = [Cheater(v) for v in VIEWERS]
    state = State()
    entries = [genesis]
    for entry_no in range(600):
        facts = entries[-1]
        before_entry = clone(state)
        # ground truth, fact by fact: which cards went out of each viewer's sight during the entry
        vp.book.entries += 1
        seen: list[list[dict[str, Any]]] = [[], [], []]
        for cheater in cheaters:
            cheater.known_in_entry = {cid for cid, c in state.cards.items() if known(c, cheater.v)}
        for fact in facts:
            for i, f in enumerate(present(vp.book, fact)):
                if f is not None:
                    seen[i].append(f)
            apply(state, fact)
            for cheater in cheaters:
                cheater.ever.update(vp.book.current(cheater.v))
                cheater.known_in_entry.update(cid for cid, c in state.cards.items() if known(c, cheater.v))
                for cid, c in state.cards.items():
                    if not trackable(c, cheater.v):
                        cheater.dark.setdefault(cid, set()).add(entry_no)
        for i, cheater in enumerate(cheaters):
            v = cheater.v
            for fact in seen[i]:
                check_frame(vp, before_entry, state, fact, cheater, entry_no)
            view = vp.view(state, v)
            check_view(view, state, v)
            check_frame(vp, state, state, view, cheater, entry_no)
            owed = pending(state)
            shown = vp.pending(state, v)
            if shown is not None:  # who acts is the deciding seat, whatever kind of decision it is
                assert view["priority"] == shown["seat"] == owed["seat"]  # type: ignore[index]
            if owed is not None and shown is not None and owed["seat"] != v and state.choice is not None:
                trig = state.choice.get("card")
                if owed["kind"] == "trigger" and isinstance(trig, int) and not known(state.cards[trig], v):
                    assert shown["kind"] == "priority", shown
                    assert not any(f["t"] == "triggered" and f.get("code") == state.cards[trig].code for f in seen[i])
        owed = pending(state)
        if owed is None:
            break
        seat = int(owed["seat"])
        legal = vp.legal(state, seat)
        check_frame(vp, state, state, legal, cheaters[seat], entry_no)
        assert [vp.to_engine(seat, a) for a in legal] == legal_actions(state, seat)
        keen = [a for a in legal if a["do"] in ("attack", "summon", "activate", "retarget", "choose", "set")]
        action = rnd.choice(keen) if keen and rnd.random() < aggression else rnd.choice(legal)
        entries.append(decide(state, seat, vp.to_engine(seat, action)))
