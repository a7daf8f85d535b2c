"""Whole duel states made from what one seat knows: the worlds a searching bot plays in.

A client knows its view (``engine.view`` with its card aliases), its legal actions and the facts
it was sent. :func:`determinize` makes a full :class:`~engine.state.State` that agrees with such
a view: every card the view shows is where the view has it, with its passcode, position,
counters and Equip target; each card the view hides (the opponent's hand and face-down cards,
both Decks' order and contents, the Extra Decks) is drawn from what the view allows: the seat's
own deck list less the cards of it seen elsewhere, and for the opponent a guessed deck list
(``engine.deckguess``) less its cards seen. The state's PRNG is drawn too. Nothing here reads
the true state: a determinized world is a function of the view, of :class:`Knowledge` (what the
client learned from facts) and of the given ``Draws`` (engine.rng: a seeded stream).

The turn, phase, step, Damage Step timing, LP, Normal Summon flags, the chain (its links' effects
and choices from the ``activated`` facts seen), the attack and the event a response would answer
(a Summon or an attack declaration seen in the last update) are rebuilt; what no client is told
(once-per-turn keys used, lingering modifiers, delayed effects) is not, so a world is
the duel as far as its seat can tell. :class:`World` maps the view's aliases to the world's card
ids and back, so that legal actions translate both ways.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, TypeGuard, cast

from .apply import TIMING_OF, fold
from .cards import CARDS
from .deckguess import DeckGuess, guess_deck, split
from .events import GameEvent
from .facts import ABSENT, Setup
from .kernel.memo import cards_made, forget
from .rng import Draws
from .state import Attack, Link, State
from .types import WireAction

SCALAR_KEYS: Final[tuple[str, ...]] = ("card", "with")
LIST_KEYS: Final[tuple[str, ...]] = ("target", "cost", "tribute", "cards", "choose")
SIDE_ZONES: Final[tuple[str, ...]] = ("hand", "graveyard", "banished")
FIELD_KEYS: Final[tuple[str, ...]] = ("monsters", "spells_traps")
FILLER: Final = next(iter(sorted(c for c, d in CARDS.items() if d.is_monster and not d.extra_deck)))
"""A card to fill a hidden place with when no card of a deck list is left for it."""


@dataclass(slots=True)
class Knowledge:
    """What a seat has learned besides its current view (from facts it was sent, from the deck it
    brought): all of it things a client is told."""

    seat: int
    fmt: str | None = None  # the duel's format (the ``duel_started`` fact's options), None: unknown
    deck: tuple[int, ...] | None = None  # the deck the seat brought (Main + Extra), None: unknown
    seen: tuple[dict[int, int], dict[int, int]] = field(default_factory=lambda: ({}, {}))
    # per seat: the most copies of each passcode of that seat's cards seen at one time
    since: dict[int, int] = field(default_factory=dict)  # alias -> the turn it was first seen where it is
    links: dict[int, tuple[int, dict[str, Any]]] = field(default_factory=dict)  # chain link -> (effect, data)
    event: dict[str, Any] | None = None  # the last Summon or attack declaration seen (aliases)
    proper: set[int] = field(default_factory=set)  # aliases of monsters seen properly Summoned (Fusion, procedure)

    def note(self, view: Mapping[str, Any]) -> None:
        """Learn from a view: the passcodes seen of each seat's cards, and when each card the view
        names first appeared where it is."""
        turn = int(view.get("turn", 0))
        for seat, side in enumerate(view.get("players") or []):
            counts: Counter[int] = Counter()
            for card in _side_cards(side):
                if isinstance(card.get("code"), int):
                    counts[int(card["code"])] += 1
                ref = card.get("id")
                if isinstance(ref, int) and ref not in self.since:
                    self.since[ref] = turn
            seen = self.seen[seat]
            for code, n in counts.items():
                if n > seen.get(code, 0):
                    seen[code] = n

    def learn(self, facts: Sequence[Mapping[str, Any]]) -> None:
        """Learn from the facts of one update (as this seat received them)."""
        event: dict[str, Any] | None = None
        for f in facts:
            t = f.get("t")
            if t == "duel_started":
                opts = f.get("options") or {}
                self.fmt = str(opts.get("format", "current"))
                self.links.clear()
                self.since.clear()
            elif t == "activated" and isinstance(f.get("link"), int):
                self.links[int(f["link"])] = (int(f.get("effect", 1) or 1), dict(f.get("data") or {}))
            elif t == "summoned" and isinstance(f.get("card"), int) and f.get("kind") != "set":  # a Set opens no window
                event = {"kind": "summoned", "card": f["card"], "seat": f.get("seat"), "how": f.get("kind")}
                code = f.get("code")
                fusion = isinstance(code, int) and code in CARDS and CARDS[code].extra_deck
                if f.get("kind") == "fusion" or f.get("procedure") or (fusion and f.get("kind") == "special"):
                    self.proper.add(int(f["card"]))  # it may be revived (ruling SUM-1): a guess, the key is not sent
            elif t == "chain_resolved" and event is not None and event["kind"] == "summoned":
                event["soft"] = True  # Summoned as a chain resolved: a window the next action closes
            elif t == "attack_declared":
                event = {"kind": "attack_declared", "attacker": f.get("attacker"), "target": f.get("target")}
            if isinstance(f.get("code"), int) and isinstance(f.get("seat"), int) and t in ("activated", "summoned"):
                seen = self.seen[int(f["seat"])]
                seen.setdefault(int(f["code"]), 1)
        if facts:
            self.event = event


def _side_cards(side: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    out: list[Mapping[str, Any]] = [c for z in SIDE_ZONES for c in side.get(z) or []]
    out += [c for z in FIELD_KEYS for c in side.get(z) or [] if c is not None]
    if side.get("field") is not None:
        out.append(side["field"])
    return out


@dataclass(slots=True)
class World:
    """One determinized state and how the view's aliases name its cards."""

    state: State
    ids: dict[int, int]  # alias -> the world's card id
    aliases: dict[int, int]  # the world's card id -> alias
    guess: DeckGuess  # the opponent's deck list it was drawn from

    def to_world(self, action: WireAction) -> WireAction | None:
        """``action`` (in the view's aliases) in the world's ids; None if it names a card the
        world has no counterpart of."""
        out = dict(action)
        for k in SCALAR_KEYS:
            v = out.get(k)
            if _is_ref(v):
                if v not in self.ids:
                    return None
                out[k] = self.ids[v]
        for k in LIST_KEYS:
            v = out.get(k)
            if _is_ref(v):
                if v not in self.ids:
                    return None
                out[k] = self.ids[v]
            elif isinstance(v, list):
                if any(_is_ref(x) and x not in self.ids for x in v):
                    return None
                out[k] = [self.ids[x] if _is_ref(x) else x for x in v]
        return out

    def to_view(self, action: WireAction) -> WireAction:
        """``action`` (in the world's ids) in the view's aliases (a card without one keeps its id)."""
        out = dict(action)
        for k in SCALAR_KEYS:
            v = out.get(k)
            if _is_ref(v):
                out[k] = self.aliases.get(v, v)
        for k in LIST_KEYS:
            v = out.get(k)
            if _is_ref(v):
                out[k] = self.aliases.get(v, v)
            elif isinstance(v, list):
                out[k] = [self.aliases.get(x, x) if _is_ref(x) else x for x in v]
        return out


def _is_ref(x: object) -> TypeGuard[int]:
    return isinstance(x, int) and not isinstance(x, bool)


class _Builder:
    """The cards of one world as ``Setup`` entries, with fresh ids."""

    def __init__(self, turn: int) -> None:
        self.cards: list[dict[str, Any]] = []
        self.ids: dict[int, int] = {}
        self.turn = turn
        self.next_id = 1

    def add(self, code: int, owner: int, zone: str, ref: object = None, **more: Any) -> int:
        cid = self.next_id
        self.next_id += 1
        entry: dict[str, Any] = {"id": cid, "code": code, "owner": owner, "controller": owner, "zone": zone}
        entry.update(more)
        self.cards.append(entry)
        if _is_ref(ref):
            self.ids[ref] = cid
        return cid


def _own_pool(knowledge: Knowledge, rnd: Draws) -> DeckGuess:
    if knowledge.deck is not None:
        return split(knowledge.deck)
    return guess_deck(knowledge.seen[knowledge.seat], knowledge.fmt, rnd)


def _left(pool: Sequence[int], used: Counter[int]) -> list[int]:
    """The cards of ``pool`` not accounted for by ``used`` (which is consumed)."""
    out: list[int] = []
    for code in pool:
        if used.get(code, 0) > 0:
            used[code] -= 1
        else:
            out.append(code)
    return out


def _take(rest: list[int], rnd: Draws, wanted: str | None, backup: Sequence[int]) -> int:
    """Draw a card from ``rest`` (removed from it): of kind ``wanted`` ("monster" / "spelltrap")
    when one is left, else any; with ``rest`` empty, one of ``backup`` (or :data:`FILLER`)."""
    fits = [i for i, c in enumerate(rest) if _kind_fits(c, wanted)] if wanted else list(range(len(rest)))
    if fits:
        return rest.pop(fits[rnd.below(len(fits))])
    pool = [c for c in backup if _kind_fits(c, wanted)] or list(backup)
    if pool:
        return pool[rnd.below(len(pool))]
    return FILLER


def _kind_fits(code: int, wanted: str | None) -> bool:
    d = CARDS.get(code)
    if d is None:
        return False
    if wanted == "monster":
        return d.is_monster and not d.extra_deck
    if wanted == "spelltrap":
        return not d.is_monster
    return True


def determinize(view: Mapping[str, Any], knowledge: Knowledge, rnd: Draws) -> World:
    """A whole state that agrees with ``view`` (what seat ``knowledge.seat`` sees), its hidden
    cards drawn with ``rnd`` from what the view and ``knowledge`` allow (never from the truth)."""
    me = knowledge.seat
    turn = int(view.get("turn", 1))
    players = view["players"]
    guesses = [_own_pool(knowledge, rnd) if seat == me else None for seat in (0, 1)]
    opp = 1 - me
    guesses[opp] = guess_deck(knowledge.seen[opp], knowledge.fmt, rnd)
    b = _Builder(turn)
    for seat in (0, 1):
        side = players[seat]
        guess = guesses[seat]
        assert guess is not None
        visible: Counter[int] = Counter(int(c["code"]) for c in _side_cards(side) if isinstance(c.get("code"), int))
        main_rest = _left(guess.main, Counter(visible))
        extra_rest = _left(guess.extra, Counter(visible))
        rnd.shuffle(main_rest)
        _place_side(b, view, side, seat, me, main_rest, guess, knowledge, rnd)
        for _ in range(int(side.get("extra_count", 0))):
            code = _take(extra_rest, rnd, None, guess.extra)
            b.add(code, seat, "extra")
        for _ in range(int(side.get("deck_count", 0))):
            code = _take(main_rest, rnd, None, guess.main)
            b.add(code, seat, "deck")
    _equips(b, players)
    setup = Setup(
        cards=b.cards,
        lp=[int(players[0]["lp"]), int(players[1]["lp"])],
        turn=turn,
        turn_player=int(view["turn_player"]),
        phase=str(view["phase"]),
        step=view.get("step"),
        rng=rnd.seed(),
        options={} if knowledge.fmt in (None, "current") else {"format": knowledge.fmt},
        battle_phases=int(view.get("battle_phases", 0)),
        normal_summoned=[bool(players[0].get("normal_summoned")), bool(players[1].get("normal_summoned"))],
        used={f"proper_summon:{cid}": turn for ref, cid in b.ids.items() if ref in knowledge.proper} or ABSENT,
    )
    s = fold([setup])
    _moment(s, view, knowledge, b.ids)
    aliases = {cid: ref for ref, cid in b.ids.items()}
    guess_opp = guesses[opp]
    assert guess_opp is not None
    return World(s, dict(b.ids), aliases, guess_opp)


def _place_side(
    b: _Builder,
    view: Mapping[str, Any],
    side: Mapping[str, Any],
    seat: int,
    me: int,
    rest: list[int],
    guess: DeckGuess,
    knowledge: Knowledge,
    rnd: Draws,
) -> None:
    """The cards of one side of the table: its hand, Graveyard, banished cards and field."""
    turn = b.turn
    hand = side.get("hand") or []
    for card in hand:
        code = card.get("code")
        if not isinstance(code, int):
            code = _take(rest, rnd, None, guess.main)
        b.add(int(code), seat, "hand", card.get("id"))
    for _ in range(int(side.get("hand_count", len(hand))) - len(hand)):
        b.add(_take(rest, rnd, None, guess.main), seat, "hand")
    for zone in ("graveyard", "banished"):
        for card in side.get(zone) or []:
            code = card.get("code")
            b.add(int(code) if isinstance(code, int) else FILLER, seat, zone, card.get("id"), face_up=True)
    for zone in (*FIELD_KEYS, "field"):
        cards = side.get(zone)
        if zone == "field":
            cards = [cards] if cards is not None else []
        for slot, card in enumerate(cards or []):
            if card is None:
                continue
            code = card.get("code")
            if not isinstance(code, int):
                code = _take(rest, rnd, "monster" if zone == "monsters" else "spelltrap", guess.main)
            since = knowledge.since.get(card.get("id"), turn - 1) if _is_ref(card.get("id")) else turn - 1
            position = card.get("position", "attack")
            more: dict[str, Any] = {
                "slot": int(card.get("slot", slot)),
                "face_up": bool(card.get("face_up", True)),
                "position": "defense" if position in ("set", "defense") else "attack",
                "set_turn": since,
                "summoned_turn": since,
                "position_turn": since,
            }
            if card.get("counters"):
                more["counters"] = dict(card["counters"])
            controller = int(card.get("controller", seat))
            cid = b.add(int(code), controller, zone, card.get("id"), **more)
            b.cards[-1]["controller"] = controller
            if card.get("equipped_to") is not None:
                b.cards[-1]["_equips"] = card["equipped_to"]
            _ = cid


def _equips(b: _Builder, players: Sequence[Mapping[str, Any]]) -> None:
    """Equip Cards name what they equip by alias: in the world's ids."""
    for entry in b.cards:
        ref = entry.pop("_equips", None)
        if ref is not None and ref in b.ids:
            entry["equipped_to"] = b.ids[ref]


def _mapped(ids: Mapping[int, int], ref: object) -> int | None:
    return ids.get(ref) if _is_ref(ref) else None


def _moment(s: State, view: Mapping[str, Any], knowledge: Knowledge, ids: Mapping[int, int]) -> None:
    """The moment of the turn the view is at: who decides, the Damage Step, the attack, the
    chain and the event a response answers (set on the fresh state the world owns alone)."""
    s.priority = int(view.get("priority", s.turn_player))
    timing = view.get("damage_step")
    s.damage_step = TIMING_OF[timing] if timing else None
    attack = view.get("attack")
    if attack:
        attacker = _mapped(ids, attack.get("attacker"))
        if attacker is not None:
            target = _mapped(ids, attack.get("target"))
            other = 1 - s.cards[attacker].controller
            s.attack = Attack(
                attacker=attacker,
                target=target,
                snapshot=[c for c in s.players[other].monsters if c is not None],
                responded=timing is not None,
                replay=bool(attack.get("replay")),
                calculated=bool(attack.get("calculated")),
            )
    chain: list[Link] = []
    for link in view.get("chain") or []:
        cid = _mapped(ids, link.get("card"))
        if cid is None:
            continue
        effect, data = knowledge.links.get(int(link.get("link", 0)), (1, {}))
        chain.append(
            Link(
                card=cid,
                effect=effect,
                controller=int(link.get("controller", 0)),
                targets=[t for t in (_mapped(ids, r) for r in link.get("targets") or []) if t is not None],
                negated=bool(link.get("negated")),
                data=_mapped_data(data, ids),
            )
        )
    s.chain = chain
    s.event = cast("GameEvent | None", _event(knowledge.event, ids, s))
    forget(s)  # what the fold worked out before the moment was set
    cards_made(s)


def _mapped_data(data: Mapping[str, Any], ids: Mapping[int, int]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in data.items():
        if isinstance(v, list):
            out[k] = [ids.get(x, x) if _is_ref(x) else x for x in v]
        elif _is_ref(v) and k in ("card", "target"):
            out[k] = ids.get(v, v)
        else:
            out[k] = v
    return out


def _event(event: Mapping[str, Any] | None, ids: Mapping[int, int], s: State) -> dict[str, Any] | None:
    """The event a response may answer, from the last update's Summon or attack declaration."""
    if event is None or s.chain:
        return None
    if event.get("kind") == "summoned":
        cid = _mapped(ids, event.get("card"))
        if cid is None or not s.cards[cid].on_field:
            return None
        out: dict[str, Any] = {"kind": "summoned", "card": cid}
        if event.get("how") == "special":  # as engine.main_phase and engine.chain open the window
            out["how"] = "special"
        if event.get("soft"):
            out["soft"] = True
        return out
    if event.get("kind") == "attack_declared" and s.attack is not None and s.damage_step is None:
        return {"kind": "attack_declared", "attacker": s.attack.attacker, "target": s.attack.target}
    return None


__all__ = ["Knowledge", "World", "determinize"]
