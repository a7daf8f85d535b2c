"""What each seat (and a spectator) may see: ``view`` of the state, ``redact`` of a fact.

Hidden from a seat: the opponent's hand, every deck's order, the identity of
face-down cards it does not own, and the PRNG state (DESIGN invariant 5). A
spectator (seat ``None``) sees public information only. ``omniscient`` is for
finished matches and the operator's replays.
"""

from __future__ import annotations

from typing import Any

from .battle.battle_step import attacks_remaining
from .state import Card, State
from .stats import atk, def_
from .types import Fact


def _card(s: State, c: Card, seat: int | None, omniscient: bool = False) -> dict[str, Any]:
    visible = omniscient or c.face_up or (seat is not None and c.owner == seat and c.zone != "deck")
    out: dict[str, Any] = {"id": c.id, "zone": c.zone, "controller": c.controller}
    if c.zone == "monsters":
        out["position"] = c.position if c.face_up else "set"
    if c.zone in ("monsters", "spells_traps", "field"):
        out["slot"] = c.slot
        out["face_up"] = c.face_up
    if not visible:
        out["hidden"] = True
        return out
    d = c.data
    out["code"] = c.code
    out["name"] = d.name
    if d.is_monster:
        if c.zone == "monsters" and (c.face_up or omniscient):
            out["atk"] = atk(s, c)
            out["def"] = def_(s, c)
            out["attacks_remaining"] = attacks_remaining(s, c) if s.phase == "battle" else None
        else:
            out["atk"] = d.atk
            out["def"] = d.def_
    if c.counters:
        out["counters"] = dict(c.counters)
    if c.equipped_to is not None:
        out["equipped_to"] = c.equipped_to
    return out


def view(s: State, seat: int | None, omniscient: bool = False) -> dict[str, Any]:
    """The duel as ``seat`` sees it (``None``: a spectator)."""
    from .flow import pending  # local: flow imports battle modules that import view helpers

    players = []
    for sd in (0, 1):
        p = s.players[sd]
        players.append(
            {
                "lp": p.lp,
                "hand": [_card(s, s.cards[c], seat, omniscient) for c in p.hand],
                "hand_count": len(p.hand),
                "deck_count": len(p.deck),
                "extra_count": len(p.extra),
                "monsters": [None if c is None else _card(s, s.cards[c], seat, omniscient) for c in p.monsters],
                "spells_traps": [None if c is None else _card(s, s.cards[c], seat, omniscient) for c in p.spells_traps],
                "field": None if p.field_zone is None else _card(s, s.cards[p.field_zone], seat, omniscient),
                "graveyard": [_card(s, s.cards[c], seat, omniscient) for c in p.graveyard],
                "banished": [_card(s, s.cards[c], seat, omniscient) for c in p.banished],
                "normal_summoned": p.normal_summoned,
            }
        )
    attack = None
    if s.attack is not None:
        a = s.attack
        attack = {"attacker": a.attacker, "target": a.target, "replay": a.replay, "calculated": a.calculated}
    return {
        "you": seat,
        "turn": s.turn,
        "turn_player": s.turn_player,
        "phase": s.phase,
        "step": s.step,
        "damage_step": s.damage_step,
        "battle_phases": s.battle_phases,
        "priority": s.priority,
        "pending": pending(s),
        "chain": [
            {"link": i + 1, "card": link.card, "code": s.cards[link.card].code, "controller": link.controller, "targets": list(link.targets), "negated": link.negated}
            for i, link in enumerate(s.chain)
        ],
        "attack": attack,
        "players": players,
        "winner": s.winner,
        "end_reason": s.end_reason,
    }


SECRET_KEYS = ("code", "name", "target_code")


def redact(fact: Fact, seat: int | None) -> Fact | None:
    """What ``seat`` may see of a fact. Deck orders and PRNG state are hidden from all."""
    t = fact["t"]
    if t == "duel_started":
        return {
            "t": t,
            "first": fact.get("first", 0),
            "lp": fact.get("lp", 8000),
            "options": fact.get("options", {}),
            "deck_counts": [len(d) for d in fact["decks"]],
            "extra_counts": [len(e) for e in fact.get("extra", [[], []])],
            "deck_ids": [[cid for cid, _ in d] for d in fact["decks"]],
        }
    if t == "setup":
        out_cards = []
        for e in fact["cards"]:
            e2 = dict(e)
            public = e["zone"] in ("graveyard", "banished") or (e["zone"] in ("monsters", "spells_traps", "field") and e.get("face_up"))
            own = seat is not None and e["owner"] == seat and e["zone"] not in ("deck",)
            if not (public or own):
                e2.pop("code", None)
            out_cards.append(e2)
        red = {k: v for k, v in fact.items() if k not in ("cards", "rng")}
        red["cards"] = out_cards
        return red
    if t == "shuffled":
        return {"t": t, "seat": fact["seat"]}
    if t == "rng":
        return None
    out = dict(fact)
    private = out.pop("private", None)
    if private is not None and private != seat:
        for k in SECRET_KEYS:
            out.pop(k, None)
    return out


