"""Bot players: how a bot picks among the legal actions it is offered.

A policy sees exactly what a client sees (its view and its legal actions, with
its own card aliases) and returns one of the legal actions; it never concedes.

* :func:`random_legal` picks any legal action (a fuzzer with manners);
* :func:`greedy` plays like a keen beginner: it uses its cards (activates
  whatever it can, Sets its Traps), summons its strongest monster, attacks
  only where it wins or deals damage, and otherwise moves the duel on;
* ``curious`` (:class:`server.clients.curious.Curious`) plays its deck's cards
  willingly: it prefers an action that uses a card it has not activated or
  summoned yet, and remembers what it used (a memory several duels may share);
* ``search`` (:class:`server.clients.search.policy.SearchPolicy`, docs/search.md) searches the
  engine for its move in worlds drawn from what its view allows (``search-quick``: 0.1 s per
  decision, ``search``: 0.5 s, ``search-strong``: 1.5 s); its ``think`` runs the search in a
  worker process.

``POLICIES`` names them; each entry makes a fresh policy (a curious bot's memory is its own).
A policy may also have ``observe(facts)``, which is given the facts of each update its seat
receives, and ``study(catalogue, deck)``, given the card catalogue (``get_cards``' cards by
passcode) and the deck it brought, when known. :class:`BotPlayer`
(``server/clients/bot_player.py``) runs a policy over the protocol.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from protocol.actions import ActionKind, WireAction

Action = WireAction
View = dict[str, Any]
Policy = Callable[[View, list[Action], random.Random], Action]

UNKNOWN_DEF = 1500
"""What a face-down monster's DEF is guessed to be."""


def _playable(legal: list[Action]) -> list[Action]:
    return [a for a in legal if a.get("do") != ActionKind.CONCEDE] or legal


def random_legal(view: View, legal: list[Action], rnd: random.Random) -> Action:
    """Any legal action but a concession."""
    return rnd.choice(_playable(legal))


def cards_by_id(view: View) -> dict[Any, dict[str, Any]]:
    """Every card of the view that has an id, by id."""
    out: dict[Any, dict[str, Any]] = {}
    for p in view.get("players", []):
        for zone in ("hand", "graveyard", "banished", "monsters", "spells_traps"):
            for c in p.get(zone) or []:
                if c is not None and isinstance(c.get("id"), int):
                    out[int(c["id"])] = c
        field = p.get("field")
        if field is not None and isinstance(field.get("id"), int):
            out[int(field["id"])] = field
    return out


def _atk(card: dict[str, Any] | None) -> int:
    return int(card.get("atk", 0) or 0) if card else 0


def _attack_margin(cards: dict[Any, dict[str, Any]], attacker: Any, target: Any) -> int:
    """How much better the attacker is than what it attacks (direct: its whole ATK)."""
    atk = _atk(cards.get(attacker))
    if target is None:
        return atk
    t = cards.get(target)
    if t is None or t.get("hidden"):
        return atk - UNKNOWN_DEF
    if t.get("position") == "attack":
        return atk - _atk(t)
    return atk - int(t.get("def", 0) or 0)


def _best_attack(view: View, options: list[Action]) -> Action | None:
    cards = cards_by_id(view)
    scored = []
    for a in options:
        target = None if a.get("direct") else a.get("target")
        margin = _attack_margin(cards, a.get("with", (view.get("attack") or {}).get("attacker")), target)
        scored.append((margin, a))
    good = [(m, a) for m, a in scored if m > 0]
    if not good:
        return None
    return max(good, key=lambda ma: ma[0])[1]


def _strongest(view: View, options: list[Action]) -> Action:
    cards = cards_by_id(view)

    def score(a: Action) -> tuple[int, int]:
        tribute_cost = sum(_atk(cards.get(t)) for t in a.get("tribute", []) or [])
        return (_atk(cards.get(a.get("card"))) - tribute_cost, -len(a.get("tribute", []) or []))

    return max(options, key=score)


def greedy(view: View, legal: list[Action], rnd: random.Random) -> Action:
    """Use cards, summon the strongest monster, attack where it wins, otherwise move on."""
    legal = _playable(legal)
    by_kind: dict[str, list[Action]] = {}
    for a in legal:
        by_kind.setdefault(str(a.get("do")), []).append(a)
    if ActionKind.CHOOSE in by_kind:
        return rnd.choice(by_kind[ActionKind.CHOOSE])
    if ActionKind.ACTIVATE in by_kind and rnd.random() < 0.85:
        return rnd.choice(by_kind[ActionKind.ACTIVATE])
    if ActionKind.RETARGET in by_kind:
        best = _best_attack(view, by_kind[ActionKind.RETARGET])
        if best is not None:
            return best
        if ActionKind.CANCEL_ATTACK in by_kind:
            return by_kind[ActionKind.CANCEL_ATTACK][0]
    if ActionKind.ATTACK in by_kind:
        best = _best_attack(view, by_kind[ActionKind.ATTACK])
        if best is not None:
            return best
    if ActionKind.SUMMON in by_kind:
        return _strongest(view, by_kind[ActionKind.SUMMON])
    cards = cards_by_id(view)
    traps = [a for a in by_kind.get(ActionKind.SET, []) if not _is_monster(cards.get(a.get("card")))]
    if traps:
        return rnd.choice(traps)
    monster_sets = [a for a in by_kind.get(ActionKind.SET, []) if _is_monster(cards.get(a.get("card")))]
    if monster_sets and rnd.random() < 0.5:
        return _strongest(view, monster_sets)
    if ActionKind.FLIP_SUMMON in by_kind:
        return by_kind[ActionKind.FLIP_SUMMON][0]
    for kind in (
        ActionKind.ENTER_BATTLE_PHASE,
        ActionKind.END_BATTLE_PHASE,
        ActionKind.PASS,
        ActionKind.NEXT_PHASE,
        ActionKind.END_TURN,
    ):
        if kind in by_kind:
            return by_kind[kind][0]
    return rnd.choice(legal)


def _is_monster(card: dict[str, Any] | None) -> bool:
    return card is not None and ("atk" in card or card.get("zone") == "monsters")


def curious() -> Policy:
    """A fresh ``curious`` policy (``server/clients/curious.py``) with a memory of its own."""
    from server.clients.curious import Curious  # it builds on this module

    return Curious()


def search(budget_s: float) -> Callable[[], Policy]:
    """Fresh ``search`` policies (``server/clients/search/``) with this time budget per decision."""

    def make() -> Policy:
        from server.clients.search.monte_carlo import SearchConfig  # it builds on this module
        from server.clients.search.policy import SearchPolicy

        return SearchPolicy(SearchConfig(budget_s=budget_s))

    return make


SEARCH_BUDGETS: dict[str, float] = {"search-quick": 0.1, "search": 0.5, "search-strong": 1.5}
"""The search bot's strengths: seconds of search per decision."""


BOT_LEVEL_POLICIES: dict[str, str] = {
    "beginner": "greedy",
    "quick": "search-quick",
    "normal": "search",
    "strong": "search-strong",
}
"""The policy each ``create_match.bot_level`` (``protocol.messages.BOT_LEVELS``) plays with."""

POLICIES: dict[str, Callable[[], Policy]] = {
    "curious": curious,
    "greedy": lambda: greedy,
    "random": lambda: random_legal,
    **{name: search(budget) for name, budget in SEARCH_BUDGETS.items()},
}
"""The bot policies by name; each entry makes a fresh policy."""
