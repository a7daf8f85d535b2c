"""Scenario files (format 1, SCENARIO-FORMAT.md): a position, a script of actions, expectations.

This module is pure: it takes the parsed YAML document (a dict) and runs it
against the engine. Reading files and printing belong to ``server/cli_scenario``
and the pytest collector.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .apply import apply_facts
from .battle.battle_step import attacks_remaining
from .cards import CARDS_BY_NAME
from .decide import decide as engine_decide
from .decide import legal_actions, matches, normalize
from .flow import pending
from .state import State, state_hash
from .stats import atk, def_
from .types import Action, Fact, IllegalAction

SEATS = {"A": 0, "B": 1}
SEAT_NAMES = ("A", "B")
ACTIONS = {
    "pass", "attack", "activate", "retarget", "cancel_attack", "choose", "enter_battle_phase",
    "end_battle_phase", "next_phase", "summon", "set", "flip_summon", "change_position", "end_turn", "concede",
}
CARD_KEYS = ("card", "with", "target", "cost", "tribute", "cards")
MAX_PASSES = 30


class ScenarioError(Exception):
    """The scenario file itself is wrong (unknown card, label, key)."""


@dataclass
class Failure:
    step: int
    what: str
    expected: Any = None
    actual: Any = None

    def __str__(self) -> str:
        if self.expected is None and self.actual is None:
            return f"step {self.step}: {self.what}"
        return f"step {self.step}: {self.what}: expected {self.expected!r}, got {self.actual!r}"


@dataclass
class Result:
    name: str
    ok: bool
    failure: Failure | None = None
    state: State | None = None
    entries: list[list[Fact]] = field(default_factory=list)


# ------------------------------------------------------------------ position


def build_setup(doc: dict[str, Any]) -> tuple[Fact, dict[str, int]]:
    """The ``setup`` fact for a scenario's start position, and its label -> card id map."""
    start = doc.get("start") or {}
    labels: dict[str, int] = {}
    names: dict[str, list[int]] = {}
    cards: list[dict[str, Any]] = []
    turn = int(start.get("turn", 3))
    next_id = 1

    def add(seat: int, spec: Any, zone: str, slot: int = -1) -> dict[str, Any]:
        nonlocal next_id
        if isinstance(spec, str):
            spec = {"card": spec}
        if not isinstance(spec, dict) or "card" not in spec:
            raise ScenarioError(f"bad card entry {spec!r}")
        name = spec["card"]
        if name not in CARDS_BY_NAME:
            raise ScenarioError(f"unknown card {name!r}")
        cid = next_id
        next_id += 1
        entry: dict[str, Any] = {"id": cid, "code": CARDS_BY_NAME[name].code, "owner": seat, "controller": seat, "zone": zone, "slot": slot}
        if zone == "monsters":
            pos = spec.get("position", "attack")
            entry["face_up"] = pos != "set"
            entry["position"] = "defense" if pos in ("defense", "set") else "attack"
            entry["slot"] = int(spec["zone"]) - 1 if "zone" in spec else -1
            entry["summoned_turn"] = turn if spec.get("summoned") == "this_turn" else 0
            entry["position_turn"] = turn if spec.get("summoned") == "this_turn" else 0
            entry["attacks"] = 1 if spec.get("attacked") else 0
            entry["attacked_turn"] = turn if spec.get("attacked") else 0
        elif zone == "spells_traps":
            st = spec.get("set", False)
            entry["face_up"] = not st
            entry["set_turn"] = turn if st == "this_turn" else (turn - 1 if st else 0)
            entry["slot"] = int(spec["zone"]) - 1 if "zone" in spec else -1
        elif zone == "field":
            entry["face_up"] = not spec.get("set", False)
        else:
            entry["face_up"] = zone in ("graveyard", "banished")
        if "counters" in spec:
            entry["counters"] = {str(k): int(v) for k, v in spec["counters"].items()}
        if "equipped_to" in spec:
            entry["equipped_to_label"] = spec["equipped_to"]
        if "materials" in spec:
            entry["materials_names"] = list(spec["materials"])
        cards.append(entry)
        if "as" in spec:
            if spec["as"] in labels:
                raise ScenarioError(f"label {spec['as']!r} used twice")
            labels[spec["as"]] = cid
        names.setdefault(name, []).append(cid)
        return entry

    lp = [8000, 8000]
    for key, seat in SEATS.items():
        side = start.get(key) or {}
        lp[seat] = int(side.get("lp", 8000))
        for zone in ("hand", "deck", "graveyard", "banished", "extra"):
            for spec in side.get(zone, []) or []:
                add(seat, spec, zone)
        for spec in side.get("monsters", []) or []:
            add(seat, spec, "monsters")
        for spec in side.get("spells_traps", []) or []:
            add(seat, spec, "spells_traps")
        if side.get("field"):
            add(seat, side["field"], "field")
    # materials become their own cards, attached to the monster
    for entry in list(cards):
        for mname in entry.pop("materials_names", []):
            m = add(entry["owner"], mname, "xyz_material")
            entry.setdefault("materials", []).append(m["id"])
    for entry in cards:
        label = entry.pop("equipped_to_label", None)
        if label is not None:
            entry["equipped_to"] = labels[label]
    for name, ids in names.items():
        if len(ids) == 1 and name not in labels:
            labels[name] = ids[0]
    phase = start.get("phase", "main1")
    step = start.get("step", "battle" if phase == "battle" else None)
    if phase != "battle":
        step = None
    if step == "damage":
        raise ScenarioError("a scenario cannot start inside the Damage Step; start in the Battle Step")
    tp = SEATS[start.get("turn_player", "A")]
    fact: Fact = {
        "t": "setup",
        "cards": cards,
        "lp": lp,
        "turn": turn,
        "turn_player": tp,
        "phase": phase,
        "step": step,
        "rng": int(doc.get("seed", 0) or 0),
        "options": {"scenario": True},
        "battle_phases": 1 if phase == "battle" or phase == "main2" else 0,
    }
    return fact, labels


def start_state(doc: dict[str, Any]) -> tuple[State, dict[str, int], Fact]:
    fact, labels = build_setup(doc)
    return apply_facts(State(), [fact]), labels, fact


# ------------------------------------------------------------------ translation


def _resolve(labels: dict[str, int], v: Any) -> Any:
    if isinstance(v, list):
        return [_resolve(labels, x) for x in v]
    if isinstance(v, str):
        if v not in labels:
            if v in CARDS_BY_NAME:
                raise ScenarioError(f"card name {v!r} is not unique in this scenario (or not in it): give it a label with 'as'")
            raise ScenarioError(f"unknown label or card name {v!r}")
        return labels[v]
    return v


def translate(labels: dict[str, int], seat_key: str, body: dict[str, Any]) -> tuple[int, Action]:
    """``{A: attack, with: dm, target: bewd}`` -> (0, {"do": "attack", "with": 3, "target": 7})."""
    if seat_key not in SEATS:
        raise ScenarioError(f"unknown player {seat_key!r}")
    do = body[seat_key] if seat_key in body else body.get("do")
    if do not in ACTIONS:
        raise ScenarioError(f"unknown action {do!r}")
    action: Action = {"do": do}
    for k, v in body.items():
        if k in (seat_key, "do"):
            continue
        if k in CARD_KEYS:
            action[k] = _resolve(labels, v)
        elif k == "choose":
            action[k] = [labels.get(x, x) if isinstance(x, str) else x for x in (v if isinstance(v, list) else [v])]
        else:
            action[k] = v
    if do == "activate":
        for k in ("target", "cost"):
            if k in action and not isinstance(action[k], list):
                action[k] = [action[k]]
    if do == "retarget" and "target" in action and isinstance(action["target"], list):
        action["target"] = action["target"][0]
    return SEATS[seat_key], normalize(action)


def _seat_of_step(step: dict[str, Any]) -> str | None:
    for k in step:
        if k in SEATS:
            return str(k)
    return None


# ------------------------------------------------------------------ running


class Runner:
    def __init__(self, doc: dict[str, Any]) -> None:
        self.doc = doc
        self.name = str(doc.get("name", "unnamed"))
        self.state, self.labels, setup = start_state(doc)
        self.entries: list[list[Fact]] = [[setup]]
        self.auto = bool(doc.get("auto_pass", False))

    def waiting(self) -> int | None:
        p = pending(self.state)
        return None if p is None else int(p["seat"])  # type: ignore[call-overload]

    def act(self, seat: int, action: Action) -> None:
        facts = engine_decide(self.state, seat, action)
        self.entries.append(facts)
        self.state = apply_facts(self.state, facts)

    def pass_once(self, idx: int) -> Failure | None:
        w = self.waiting()
        if w is None:
            return Failure(idx, "a pass was needed but the duel is over")
        if not any(a["do"] == "pass" for a in legal_actions(self.state, w)):
            return Failure(idx, f"{SEAT_NAMES[w]} would have to pass, but passing is not legal now", "pass", legal_actions(self.state, w))
        self.act(w, {"do": "pass"})
        return None

    def auto_pass_before(self, idx: int, seat: int, action: Action, only_others: bool = False) -> Failure | None:
        for _ in range(MAX_PASSES + 1):
            w = self.waiting()
            if w is None:
                return None
            if w == seat:
                if only_others or any(matches(action, la) for la in legal_actions(self.state, seat)):
                    return None
            f = self.pass_once(idx)
            if f is not None:
                return f
        return Failure(idx, f"auto_pass: more than {MAX_PASSES} passes before the action")

    def run(self) -> Result:
        for idx, step in enumerate(self.doc.get("steps", []) or []):
            try:
                f = self.step(idx, step)
            except ScenarioError:
                raise
            except IllegalAction as e:
                f = Failure(idx, f"the engine rejected the action: {e.code}: {e.reason}")
            if f is not None:
                return Result(self.name, False, f, self.state, self.entries)
        return Result(self.name, True, None, self.state, self.entries)

    def step(self, idx: int, step: dict[str, Any]) -> Failure | None:
        if not isinstance(step, dict):
            raise ScenarioError(f"step {idx} is not a map")
        if "expect" in step:
            return self.expect(idx, step["expect"] or {})
        if "pass_until" in step:
            for _ in range(MAX_PASSES + 1):
                if self.expect(idx, step["pass_until"], quiet=True) is None:
                    return None
                f = self.pass_once(idx)
                if f is not None:
                    return f
            return Failure(idx, f"pass_until: condition not reached after {MAX_PASSES} passes", step["pass_until"])
        if "illegal" in step:
            body = step["illegal"]
            key = _seat_of_step(body)
            if key is None:
                raise ScenarioError(f"step {idx}: illegal needs a player")
            seat, action = translate(self.labels, key, body)
            if self.auto:
                f = self.auto_pass_before(idx, seat, action, only_others=True)
                if f is not None:
                    return f
            before = self.state
            digest = state_hash(before)
            try:
                self.act(seat, action)
            except IllegalAction:
                if self.state is not before or state_hash(before) != digest:
                    return Failure(idx, "the rejected action changed the state")
                return None
            return Failure(idx, f"{key} {action['do']} should be illegal, but the engine accepted it", "illegal", "accepted")
        key = _seat_of_step(step)
        if key is None:
            raise ScenarioError(f"step {idx}: no player, expect, illegal or pass_until")
        seat, action = translate(self.labels, key, step)
        if self.auto:
            f = self.auto_pass_before(idx, seat, action)
            if f is not None:
                return f
        w = self.waiting()
        if w != seat and action["do"] != "concede":
            return Failure(idx, f"{key} cannot act: the engine waits for", key, None if w is None else SEAT_NAMES[w])
        self.act(seat, action)
        return None

    # -------------------------------------------------------------- expectations

    def where(self, cid: int) -> str:
        return self.state.cards[cid].zone

    def expect(self, idx: int, exp: dict[str, Any], quiet: bool = False) -> Failure | None:
        s = self.state
        for key, want in exp.items():
            got: Any
            if key == "lp":
                for who, v in want.items():
                    got = s.players[SEATS[who]].lp
                    if got != v:
                        return Failure(idx, f"lp of {who}", v, got)
                continue
            if key in ("zone", "controller", "position", "atk", "def", "attacks_remaining"):
                for label, v in want.items():
                    cid = _resolve(self.labels, label)
                    c = s.cards[cid]
                    if key == "zone":
                        got = c.zone
                    elif key == "controller":
                        got = SEAT_NAMES[c.controller]
                    elif key == "position":
                        got = "set" if c.zone == "monsters" and not c.face_up else c.position
                    elif key == "atk":
                        got = atk(s, c)
                    elif key == "def":
                        got = def_(s, c)
                    else:
                        got = attacks_remaining(s, c)
                    if got != v:
                        return Failure(idx, f"{key} of {label}", v, got)
                continue
            if key in ("hand_count", "deck_count"):
                for who, v in want.items():
                    p = s.players[SEATS[who]]
                    got = len(p.hand if key == "hand_count" else p.deck)
                    if got != v:
                        return Failure(idx, f"{key} of {who}", v, got)
                continue
            if key in ("legal", "illegal"):
                for who, entries in want.items():
                    seat = SEATS[who]
                    acts = legal_actions(s, seat)
                    for e in entries:
                        _, a = translate(self.labels, "A", {"A": e["do"], **{k: v for k, v in e.items() if k != "do"}})
                        ok = any(matches(a, la) for la in acts)
                        if key == "legal" and not ok:
                            return Failure(idx, f"legal for {who}: {e}", "legal", self.describe_legal(acts))
                        if key == "illegal" and ok:
                            return Failure(idx, f"illegal for {who}: {e}", "illegal", "legal")
                continue
            got = self.simple(key)
            if key == "chain":
                want = [_resolve(self.labels, x) for x in want]
            if got != want:
                if key == "chain":
                    inv = {v: k for k, v in self.labels.items()}
                    got = [inv.get(x, x) for x in got]
                    want = exp[key]
                return Failure(idx, key, want, got)
        return None

    def simple(self, key: str) -> Any:
        s = self.state
        if key == "turn":
            return s.turn
        if key == "turn_player":
            return SEAT_NAMES[s.turn_player]
        if key == "phase":
            return s.phase
        if key == "step":
            return s.step
        if key == "damage_step":
            return s.damage_step
        if key == "waiting_for":
            w = self.waiting()
            return None if w is None else SEAT_NAMES[w]
        if key == "chain":
            return [link.card for link in s.chain]
        if key == "battle_phases_this_turn":
            return s.battle_phases
        if key == "winner":
            return None if s.winner is None else ("draw" if s.winner == "draw" else SEAT_NAMES[int(s.winner)])
        raise ScenarioError(f"unknown expect key {key!r}")

    def describe_legal(self, acts: list[Action]) -> list[dict[str, Any]]:
        inv = {v: k for k, v in self.labels.items()}
        out = []
        for a in acts:
            d = {}
            for k, v in a.items():
                if k in CARD_KEYS:
                    d[k] = [inv.get(x, x) for x in v] if isinstance(v, list) else inv.get(v, v)
                else:
                    d[k] = v
            out.append(d)
        return out


def run(doc: dict[str, Any]) -> Result:
    """Run one parsed scenario document."""
    if doc.get("format") != 1:
        raise ScenarioError("only scenario format 1 is supported")
    return Runner(doc).run()
