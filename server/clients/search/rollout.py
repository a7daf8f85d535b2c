"""Playouts of a determinized world: a greedy player for both seats, and how a position is worth.

:func:`greedy_action` plays like :func:`server.clients.bot.greedy` but on an engine state (no view
to render per step: a playout takes thousands of steps per decision), and somewhat wiser: it
attacks where its monster wins (the world's cards are all known to it: the world is a guess),
summons the monster that gains most, Sets its Traps, activates a card four times in ten and
otherwise moves the duel on. :func:`evaluate` scores a position for one seat in (-1, 1): the
duel's result when it is over, else LP difference and card advantage. :func:`playout` plays a
world until a turn ends (or a step limit), then scores it.
"""

from __future__ import annotations

import math
import random
import time
from typing import Any, Final

from engine import IllegalAction, State, decide_state, legal_actions, pending
from engine.stats import atk_def
from engine.types import Position, Zone

ACTIVATE_P: Final = 0.7
"""How often the playout player activates a card when it may (cards are used, not hoarded)."""
LP_SCALE: Final = 4000.0
"""LP difference worth about one unit of the score before squashing."""
CARD_WEIGHT: Final = 0.35
"""A card more than the opponent (hand and field), in the same units."""
MONSTER_WEIGHT: Final = 0.15
"""A monster on the field more than the opponent's, on top of its card."""
ATK_SCALE: Final = 6000.0
"""Strongest-monster ATK difference worth one unit."""
LOW_DECK: Final = 6
"""A Deck with fewer cards than this is a danger to its player ..."""
DECK_WEIGHT: Final = 0.25
"""... worth this much per card short."""


def _stats(s: State, cid: int | None) -> tuple[int, int]:
    if cid is None:
        return 0, 0
    return atk_def(s, s.cards[cid])


def _attack_margin(s: State, attacker: int | None, target: int | None) -> int:
    atk = _stats(s, attacker)[0]
    if target is None:
        return atk
    t = s.cards[target]
    a, d = atk_def(s, t)
    return atk - (a if t.face_up and t.position == Position.ATTACK else d)


def _best(s: State, options: list[dict[str, Any]], attacker: int | None = None) -> dict[str, Any] | None:
    best: dict[str, Any] | None = None
    margin = 0
    for a in options:
        target = None if a.get("direct") else a.get("target")
        m = _attack_margin(s, a.get("with", attacker), target if isinstance(target, int) else None)
        if m > margin:
            best, margin = a, m
    return best


def _gain(s: State, a: dict[str, Any]) -> int:
    card = a.get("card")
    tributes = a.get("tribute") or []
    return (_stats(s, card)[0] if isinstance(card, int) else 0) - sum(_stats(s, t)[0] for t in tributes)


def greedy_action(s: State, seat: int, legal: list[dict[str, Any]], rnd: random.Random) -> dict[str, Any]:
    """The playout player's action among ``legal`` (engine ids)."""
    by: dict[str, list[dict[str, Any]]] = {}
    for a in legal:
        by.setdefault(str(a.get("do")), []).append(a)
    if "choose" in by:
        return rnd.choice(by["choose"])
    if "activate" in by and rnd.random() < ACTIVATE_P:
        return rnd.choice(by["activate"])
    if "retarget" in by:
        best = _best(s, by["retarget"], s.attack.attacker if s.attack is not None else None)
        if best is not None:
            return best
        if "cancel_attack" in by:
            return by["cancel_attack"][0]
    if "attack" in by:
        best = _best(s, by["attack"])
        if best is not None:
            return best
    if "summon" in by:
        return max(by["summon"], key=lambda a: (_gain(s, a), rnd.random()))
    sets = by.get("set", [])
    traps = [a for a in sets if not s.cards[a["card"]].data.is_monster]
    if traps:
        return rnd.choice(traps)
    monsters = [a for a in sets if s.cards[a["card"]].data.is_monster and not a.get("tribute")]
    if monsters and rnd.random() < 0.5:
        return max(monsters, key=lambda a: (sum(_stats(s, a["card"])), rnd.random()))
    if "flip_summon" in by:
        return by["flip_summon"][0]
    for kind in ("enter_battle_phase", "end_battle_phase", "pass", "next_phase", "end_turn"):
        if kind in by:
            return by[kind][0]
    return rnd.choice(legal)


def evaluate(s: State, me: int) -> float:
    """How good ``s`` is for seat ``me``, in (-1, 1): +1 / -1 a duel won / lost."""
    if s.winner is not None:
        return 1.0 if s.winner == me else 0.0 if s.winner == "draw" else -1.0
    score = 0.0
    mine, theirs = s.players[me], s.players[1 - me]
    score += (mine.lp - theirs.lp) / LP_SCALE
    # low LP is worth more than high: a duel ends at 0
    score += 0.5 * (math.sqrt(max(mine.lp, 0) / 8000.0) - math.sqrt(max(theirs.lp, 0) / 8000.0))
    n_mine = len(mine.hand) + sum(c is not None for c in mine.monsters) + sum(c is not None for c in mine.spells_traps)
    n_theirs = (
        len(theirs.hand) + sum(c is not None for c in theirs.monsters) + sum(c is not None for c in theirs.spells_traps)
    )
    score += CARD_WEIGHT * (n_mine - n_theirs)
    m_mine = [c for c in mine.monsters if c is not None]
    m_theirs = [c for c in theirs.monsters if c is not None]
    score += MONSTER_WEIGHT * (len(m_mine) - len(m_theirs))
    score += (_strongest(s, m_mine) - _strongest(s, m_theirs)) / ATK_SCALE
    # a Deck running out loses the duel at its next draw
    score += DECK_WEIGHT * (max(0, LOW_DECK - len(theirs.deck)) - max(0, LOW_DECK - len(mine.deck)))
    return math.tanh(score / 2)


def _strongest(s: State, ids: list[int]) -> int:
    best = 0
    for cid in ids:
        c = s.cards[cid]
        if c.zone == Zone.MONSTERS:
            a, d = atk_def(s, c)
            best = max(best, a if c.position == Position.ATTACK else d // 2)
    return best


def playout(
    s: State, me: int, rnd: random.Random, until_turn: int, max_steps: int, deadline: float | None = None
) -> tuple[float, int]:
    """Play ``s`` on with :func:`greedy_action` for both seats until turn ``until_turn`` starts,
    the duel ends, ``max_steps`` actions were taken or the clock passed ``deadline`` (a
    ``time.perf_counter`` reading); the score for ``me`` and the actions."""
    steps = 0
    while steps < max_steps and s.winner is None and s.turn < until_turn:
        if deadline is not None and steps % 8 == 7 and time.perf_counter() > deadline:
            break
        owed = pending(s)
        if owed is None:
            break
        seat = owed["seat"]
        legal = [a for a in legal_actions(s, seat) if a.get("do") != "concede"]
        if not legal:
            break
        action = legal[0] if len(legal) == 1 else greedy_action(s, seat, legal, rnd)
        try:
            _, s = decide_state(s, seat, action)
        except IllegalAction:
            break
        except Exception:  # a world is a guess: a card's script may find it lacks what it kept
            break
        steps += 1
    return evaluate(s, me), steps
