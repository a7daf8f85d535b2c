"""The ``curious`` bot policy: it plays its deck's cards willingly.

A curious bot prefers, among its legal actions, one that uses a card it has not used yet:
activating a card it has not activated or summoned before, summoning a monster it has not
summoned, Setting a Trap or Quick-Play Spell it has not activated (to activate it later), Flip
Summoning a monster it has not summoned. Cards it has used it still plays, less eagerly, and
otherwise it attacks, answers prompts and moves the duel on like ``greedy``
(``server/clients/bot.py``), so that every duel reaches a result; it never concedes.

It knows what any client knows: its view and its legal actions, the facts of each update it
receives (:meth:`Curious.observe`: from them it learns which of its cards were activated or
summoned), and, when it is given them (:meth:`Curious.study`), the public card catalogue
(``get_cards``) and the deck it brought. Its memory (:class:`Curiosity`) can outlive a duel: bots
that play one deck list in several duels and share one memory go on to the cards the earlier
duels left unused (tests/server/test_goat_bot_duels.py plays every Goat list that way).

- Choosing cards for a prompt, it tells fetching from giving away by where the offered cards
  are: cards from its hand or field (a discard, a cost, a monster handed over) are picked among
  those it has used, cards from elsewhere (its Deck, Graveyard or Fusion Deck: a search, a
  revival, a Special Summon) among those it has not, first a Fusion Monster that no Level of its
  Main Deck leads to.
- A cost paid with one card (Metamorphosis' Tribute) is learned: which cards paying with a
  monster of that Level offered afterwards. It pays a cost that offered unused cards, or one not
  tried yet, and keeps the card while its cost can offer nothing new.
- Knowing its Fusion Deck, it finds a monster promising when an unused Fusion Monster there
  shares its Level: it summons one, takes the opponent's (targets it) while it holds a card that
  pays with monsters, and does not Tribute one away for a monster that is neither.
- It does not Set a Spell that is not Quick-Play, ends its turn from the Main Phase without a
  monster in Attack Position (no Battle Phase windows), and answers a lone legal action at once.

:func:`sided` and :func:`wants_side` are how a curious player sides between games.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from protocol.actions import ActionKind, WireAction
from server.clients.bot import View, cards_by_id, greedy

Cards = dict[Any, dict[str, Any]]

EAGER = 0.9
"""How likely the bot takes an action that uses an unused card when it has one."""
KEEN = 0.5
"""How likely it activates a card it has used already (when nothing new is on offer)."""
GIVING_ZONES = frozenset({"hand", "monsters", "spells_traps", "field"})
"""Where a card of its own offered for a prompt is given away (discarded, Tributed, paid)."""
USING = (ActionKind.ACTIVATE, ActionKind.SUMMON, ActionKind.FLIP_SUMMON)


@dataclass
class Curiosity:
    """What bots playing one deck list have used of its cards: times each passcode was
    activated or summoned by them (``used``), and which cards each cost offered afterwards
    (``offers``, by the paying card's passcode and the Level of the monster paid, else its
    passcode: Metamorphosis paid with a Level-5 monster offers the Level-5 Fusion Monsters)."""

    used: Counter[int] = field(default_factory=Counter)
    offers: dict[tuple[int, int], set[int]] = field(default_factory=dict)

    def fresh(self, code: object) -> bool:
        return isinstance(code, int) and self.used[code] == 0


@dataclass
class Curious:
    """A curious bot's policy (call it as any :data:`server.clients.bot.Policy`); ``memory`` may
    be shared by several bots that play the same deck list."""

    memory: Curiosity = field(default_factory=Curiosity)
    catalogue: dict[int, dict[str, Any]] = field(default_factory=dict)  # public card facts by passcode
    fusion_deck: list[int] = field(default_factory=list)  # the Fusion Deck it brought
    main_levels: set[int] = field(default_factory=set)  # the Levels of its Main Deck's monsters
    seat: int | None = None
    _paid: tuple[int, int] | None = field(default=None, init=False, repr=False)  # the last one-card cost paid

    def study(self, catalogue: dict[int, dict[str, Any]], deck: list[int] | None) -> None:
        """Take the card catalogue (``get_cards``' cards by passcode) and the deck it brought. An
        empty catalogue keeps the one it has (``BotPlayer`` tells every policy its deck, with no
        catalogue)."""
        if catalogue:
            self.catalogue = catalogue
        catalogue = self.catalogue
        self.fusion_deck = [c for c in deck or [] if "fusion" in (catalogue.get(c) or {}).get("monster_kinds", [])]
        self.main_levels = {self._level(c) for c in deck or [] if c not in self.fusion_deck} - {0}

    # ------------------------------------------------------------------ learning

    def observe(self, facts: list[dict[str, Any]]) -> None:
        """Learn from the facts of an update (as this seat received them) which of its cards it
        activated or summoned."""
        for f in facts:
            if self.seat is None or f.get("seat") != self.seat or not isinstance(f.get("code"), int):
                continue
            if f.get("t") == "activated" or (f.get("t") == "summoned" and f.get("kind") != "set"):
                self.memory.used[int(f["code"])] += 1

    def _level(self, code: int | None) -> int:
        entry = self.catalogue.get(code) if code is not None else None
        return int(entry.get("level") or 0) if entry else 0

    def _key(self, source: int | None, paid: int | None) -> tuple[int, int]:
        return (source or 0, self._level(paid) or paid or 0)

    def promising(self, code: int | None) -> bool:
        """A monster worth having: an unused Fusion Monster of its Fusion Deck shares its Level,
        or paying with it offered an unused card before."""
        if code is None:
            return False
        level = self._level(code)
        if level and any(self._level(f) == level and self.memory.fresh(f) for f in self.fusion_deck):
            return True
        key = self._key(0, code)[1]
        return any(k[1] == key and any(map(self.memory.fresh, v)) for k, v in self.memory.offers.items())

    # ------------------------------------------------------------------ deciding

    def __call__(self, view: View, legal: list[WireAction], rnd: random.Random) -> WireAction:
        if self.seat is None and isinstance(view.get("you"), int):
            self.seat = int(view["you"])
        playable = [a for a in legal if a.get("do") != ActionKind.CONCEDE] or legal
        if len(playable) == 1:
            return playable[0]  # nothing to weigh (a window with nothing to activate)
        cards = cards_by_id(view)
        pending = view.get("pending") or {}
        action = self._answer(view, pending, playable, cards, rnd) or self._decide(view, playable, cards, pending, rnd)
        cost = action.get("cost") or []
        if action.get("do") == ActionKind.ACTIVATE and len(cost) == 1:
            self._paid = self._key(self._code(cards, action.get("card")), self._code(cards, cost[0]))
        return action

    def _decide(
        self, view: View, playable: list[WireAction], cards: Cards, pending: dict[str, Any], rnd: random.Random
    ) -> WireAction:
        fresh = [a for a in playable if self._uses_fresh(a, cards)]
        if fresh and rnd.random() < EAGER:
            # a summon or an activation first; Setting a Spell or Trap to activate later, after
            return self._pick([a for a in fresh if a.get("do") != ActionKind.SET] or fresh, cards, rnd)
        paying = [a for a in playable if self._pay_score(a, cards) >= 2]
        if paying and rnd.random() < EAGER:
            return self._pick(paying, cards, rnd)  # a cost that offers something new
        taking = [a for a in playable if self._takes(a, cards)] if self._holds_source(view) else []
        if taking and rnd.random() < EAGER:
            return self._pick(taking, cards, rnd)  # an opponent's monster to pay with
        summons = [a for a in playable if a.get("do") == ActionKind.SUMMON and not self._wastes(a, cards)]
        promising = [a for a in summons if self.promising(self._code(cards, a.get("card")))]
        if promising and rnd.random() < EAGER:
            return rnd.choice(promising)
        activations = [a for a in playable if a.get("do") == ActionKind.ACTIVATE and not self._stale(a, cards)]
        if activations and (pending.get("kind") == "trigger" or rnd.random() < KEEN):
            return self._pick(activations, cards, rnd)
        kept = [
            a
            for a in playable
            if not self._stale(a, cards) and not self._spell_set(a, cards) and not self._wastes(a, cards)
        ]
        return greedy(view, self._onward(kept or playable, view), rnd)

    def _takes(self, a: WireAction, cards: Cards) -> bool:
        """An activation that targets a promising monster of the opponent (to take it, maybe)."""
        return a.get("do") == ActionKind.ACTIVATE and self._wanted_targets(a, cards) > 0

    def _wanted_targets(self, a: WireAction, cards: Cards) -> int:
        """How many of an action's targets are promising monsters of the opponent."""
        theirs = [t for t in a.get("target") or [] if (cards.get(t) or {}).get("controller") not in (None, self.seat)]
        return sum(1 for t in theirs if self.promising(self._code(cards, t)))

    def _holds_source(self, view: View) -> bool:
        """Does it hold (in its hand or Set) a card whose cost offered cards before?"""
        sources = {s for s, _ in self.memory.offers}
        me = (view.get("players") or [{}, {}])[self.seat or 0]
        held = [*(me.get("hand") or []), *(me.get("spells_traps") or [])]
        return any(c is not None and c.get("code") in sources for c in held)

    def _wastes(self, a: WireAction, cards: Cards) -> bool:
        """A Summon or Set that Tributes a promising monster for one that is neither new nor
        promising."""
        if a.get("do") not in (ActionKind.SUMMON, ActionKind.SET) or not a.get("tribute"):
            return False
        code = self._code(cards, a.get("card"))
        if self.memory.fresh(code) or self.promising(code):
            return False
        return any(self.promising(self._code(cards, t)) for t in a.get("tribute") or [])

    def _spell_set(self, a: WireAction, cards: Cards) -> bool:
        """Setting a Spell that is not Quick-Play (it would only wait there to be activated)."""
        entry = self.catalogue.get(self._code(cards, a.get("card")) or 0) or {}
        return a.get("do") == ActionKind.SET and entry.get("kind") == "spell" and entry.get("prop") != "quick-play"

    def _onward(self, options: list[WireAction], view: View) -> list[WireAction]:
        """Without a monster in Attack Position, a Main Phase ends the turn (no Battle Phase to
        pass through: fewer windows for both players)."""
        if not any(a.get("do") == ActionKind.END_TURN for a in options) or view.get("phase") not in ("main1", "main2"):
            return options
        me = (view.get("players") or [{}, {}])[self.seat or 0]
        if any(m is not None and m.get("position") == "attack" for m in me.get("monsters") or []):
            return options
        skipped = (ActionKind.ENTER_BATTLE_PHASE, ActionKind.PASS, ActionKind.NEXT_PHASE)
        return [a for a in options if a.get("do") not in skipped]

    def _code(self, cards: Cards, ref: object) -> int | None:
        code = (cards.get(ref) or {}).get("code")
        return code if isinstance(code, int) else None

    def _uses_fresh(self, a: WireAction, cards: Cards) -> bool:
        code = self._code(cards, a.get("card"))
        if a.get("do") in USING:
            return self.memory.fresh(code)
        if a.get("do") == ActionKind.SET:  # a Trap or Quick-Play Spell is activated from the field
            return self.memory.fresh(code) and "atk" not in (cards.get(a.get("card")) or {})
        return False

    def _stale(self, a: WireAction, cards: Cards) -> bool:
        """Does this activation pay a cost known to offer only cards it has used?"""
        return self._pay_score(a, cards) == 0

    def _pick(self, options: list[WireAction], cards: Cards, rnd: random.Random) -> WireAction:
        """One of ``options``, preferring a one-card cost that offered unused cards before (or
        one never tried, or a promising monster) and a target it would like to have."""

        def score(a: WireAction) -> tuple[int, int, float]:
            return (self._pay_score(a, cards), self._wanted_targets(a, cards), rnd.random())

        return max(options, key=score)

    def _pay_score(self, a: WireAction, cards: Cards) -> int:
        """How worth paying an activation's one-card cost is: 3 it offers unused cards (it did
        before, or its card offers the Fusion Monsters of the paid monster's Level and one of them
        is unused), 2 never tried with a promising monster, 1 never tried (or no such cost), 0
        nothing new."""
        cost = a.get("cost") or []
        if a.get("do") != ActionKind.ACTIVATE or len(cost) != 1:
            return 1
        if cost[0] == a.get("card"):  # a monster paying with itself (Thunder Dragon): not a promising one
            return 0 if self.promising(self._code(cards, cost[0])) else 1
        source, paid = self._code(cards, a.get("card")), self._code(cards, cost[0])
        offers = self.memory.offers.get(self._key(source, paid))
        if offers is None and self._fusions_by_level(source):
            level = self._level(paid)
            offers = {f for f in self.fusion_deck if self._level(f) == level}
        if offers is None:
            return 2 if self.promising(paid) else 1
        return 3 if any(map(self.memory.fresh, offers)) else 0

    def _fusions_by_level(self, source: int | None) -> bool:
        """Has paying for ``source`` offered, each time, the Fusion Monsters of its Fusion Deck of
        the paid monster's Level (Metamorphosis)?"""
        seen = [(level, v) for (s, level), v in self.memory.offers.items() if s == source and s]
        return bool(seen) and all(v == {f for f in self.fusion_deck if self._level(f) == level} for level, v in seen)

    def _answer(
        self, view: View, pending: dict[str, Any], legal: list[WireAction], cards: Cards, rnd: random.Random
    ) -> WireAction | None:
        """An answer to a prompt that offers cards or options (None: not such a prompt)."""
        chooses = [a for a in legal if a.get("do") == ActionKind.CHOOSE]
        picks = [a for a in chooses if isinstance(a.get("cards"), list)]
        if not picks:
            return rnd.choice(chooses) if chooses else None
        offered = {c.get("id"): c.get("code") for c in pending.get("cards") or [] if isinstance(c, dict)}
        self._learn(cards, pending, offered)

        def worth(ref: object) -> int:
            code = offered.get(ref, self._code(cards, ref))
            if self.memory.fresh(code):  # a Fusion Monster no monster of its Main Deck leads to first
                return 3 if code in self.fusion_deck and self._level(code) not in self.main_levels else 2
            return 1 if self.promising(code) else 0

        def score(a: WireAction) -> tuple[int, int, float]:
            picked = a.get("cards") or []
            gain = sum(worth(ref) for ref in picked)
            mine = any((cards.get(r) or {}).get("zone") in GIVING_ZONES for r in picked if self._owned(cards, r))
            return (-gain if mine else gain, len(picked), rnd.random())  # give away what it has used

        return max(picks, key=score)

    def _owned(self, cards: Cards, ref: object) -> bool:
        return (cards.get(ref) or {}).get("controller") == self.seat

    def _learn(self, cards: Cards, pending: dict[str, Any], offered: dict[Any, Any]) -> None:
        """Remember which cards the card whose prompt this is offered after the cost it paid."""
        source = self._code(cards, pending.get("source"))
        if source is None or self._paid is None or self._paid[0] != source:
            return
        self.memory.offers.setdefault(self._paid, set()).update(c for c in offered.values() if isinstance(c, int))


def sided(main: list[int], side: list[int], memory: Curiosity, catalogue: dict[int, dict[str, Any]]) -> list[int]:
    """A Main Deck with the Side Deck swapped in, as a curious player sides between games: as
    many of its Spells and Traps go out, those it has used most (the last copies first), but
    not a card whose cost still offers unused cards (Metamorphosis, while a Fusion Monster of
    the paid Level is unused); its monsters stay (its Summons and Tributes are made of them).
    ``catalogue``: the card catalogue (``get_cards``' cards by passcode)."""
    sources = {s for (s, _), cards in memory.offers.items() if any(map(memory.fresh, cards))}
    out = list(main)

    def keep(code: int) -> bool:
        return (catalogue.get(code) or {}).get("kind") == "monster" or code in sources

    for _ in side:
        candidates = [i for i in range(len(out)) if not keep(out[i])] or list(range(len(out)))
        worn = max(candidates, key=lambda i: (memory.used[out[i]], i))
        del out[worn]
    return out + list(side)


def wants_side(
    main: list[int], side: list[int], extra: list[int], memory: Curiosity, catalogue: dict[int, dict[str, Any]]
) -> bool:
    """Would a curious player side in for the next game: is a Side Deck card unused, or a Side
    Deck monster the only one of its deck with the Level of an unused Fusion Monster of its
    Fusion Deck?"""
    if any(memory.fresh(c) for c in side if c not in main):
        return True

    def level(code: int) -> int:
        return int((catalogue.get(code) or {}).get("level") or 0)

    wanted = {level(f) for f in extra if memory.fresh(f)}
    return bool(wanted & ({level(c) for c in side} - {level(c) for c in main}))
